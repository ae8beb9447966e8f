"""
:class:`SimBackend`: the backend port implemented on the MuJoCo world.

Planning runs in worker threads, physics on the world's stepping thread;
coroutines only wait, relay progress (awaited on the loop) and build results.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from mcp_ros_bridge.backends.port import (
    BackendError,
    BackendInfo,
    CartesianGoal,
    GraspGoal,
    GripperState,
    GripResult,
    GuardedGoal,
    Image,
    JointGoal,
    JointStates,
    MotionGoal,
    MotionResult,
    MotionStatus,
    Plan,
    Pose,
    PoseGoal,
    ProgressFn,
    ReleaseGoal,
    RobotState,
    WrenchSamples,
)
from mcp_ros_bridge.catalog.bindings import ActionBinding, ServiceBinding, TopicBinding
from mcp_ros_bridge.catalog.robot import RobotConfig
from mcp_ros_bridge.messages import t
import mujoco
import numpy as np

from . import guarded, sensor_path
from .execution import Runner
from .frames import express, frame_in_world
from .grip_watch import ReadGripper
from .gripper import Grasp, Release
from .motion import ArmMotion, ArmRun
from .planning import Planner
from .plans import check_start, make_plan, SimPath
from .render import MAX_H, MAX_W, SceneRenderer
from .results import motion_result, path_deviation, ros_only
from .scene_check import check_planned
from .sim_robot import PANDA, sim_robot_for
from .tips import TipKinematics
from .watchdog import ContactGuard
from .world import World


class SimBackend(Runner):
    """An arm (the Franka Panda, or one built from its URDF) with F/T sensor and gripper."""

    info = BackendInfo(name='sim', description=PANDA.summary, previews_plans=True)

    def __init__(self, config: RobotConfig, *, speed: float = 1.0, seed: int = 0,
                 ft_noise_n: float = 0.05, ft_noise_nm: float = 0.002) -> None:
        """Build the world; ``speed`` 1.0 is real time, 0 or inf as fast as possible."""
        self.robot = robot = sim_robot_for(config)
        if robot is not PANDA:
            self.info = replace(self.info, description=robot.summary)
        self.config = config
        lim = config.limits
        self.world = World(speed=speed, seed=seed, ft_noise_n=ft_noise_n,
                           ft_noise_nm=ft_noise_nm, home=config.home,
                           ft_rating=(lim.ft_rated_force_n, lim.ft_rated_torque_nm), robot=robot)
        w = self.world
        self.planner = Planner(w.model, w.arm_qpos, w.arm_dof, seed,
                               np.array(config.joint_margins), config.home, robot)
        self.guard = ContactGuard(w.model, robot)
        self.touchable = guarded.hand_geoms(w.model, robot)  # what a guarded approach may touch
        self.tips = TipKinematics(w.model, w.arm_qpos, config.end_effector, config.base_frame)
        self.renderer: SceneRenderer | None = None
        self._view_data = mujoco.MjData(w.model)
        self._started = False

    def reconfigure(self, config: RobotConfig) -> None:
        """Use a reloaded robot.yaml from the next call on (only what may change live)."""
        self.config = config
        kin, margin = self.planner.kin, np.array(config.joint_margins)
        kin.lo = np.array(self.robot.q_min) + margin
        kin.hi = np.array(self.robot.q_max) - margin
        self.planner.home = np.array(config.home, dtype=float)

    async def start(self) -> None:
        """Settle the scene and start stepping."""
        if not self._started:
            await asyncio.to_thread(self.world.start)
            self._started = True

    async def wait_started(self) -> BackendInfo:
        """Return the info (the simulation is started by :meth:`start` alone)."""
        return self.info

    async def ready(self, timeout_s: float) -> list[str]:
        """Return nothing: a started simulation has every sensor and link."""
        return []

    async def close(self) -> None:
        """Stop motions and the threads; safe to call twice."""
        if self._started:
            self._started = False
            for task in list(self.world.tasks.values()):
                task.halt(t('sim_halt_closing'))
            await asyncio.to_thread(self.world.close)
        if self.renderer is not None:
            await asyncio.to_thread(self.renderer.close)
            self.renderer = None

    # -- sensing -----------------------------------------------------------------------
    def _fresh(self, what: str) -> float:
        """Return the age of the newest step; SENSOR_STALE naming ``what`` (a message id)."""
        age = self.world.age()
        if not self._started or age > self.config.limits.sensor_max_age_s:
            raise BackendError('SENSOR_STALE', t('sim_stale', what=t(what), age=f'{age:.2f}'),
                               advice=t('sim_stale_fix'))
        return age

    async def joint_states(self) -> JointStates:
        """Return arm and finger positions, velocities and efforts; SENSOR_FAULT if not finite."""
        age = self._fresh('sim_what_joints')
        return sensor_path.joint_states(self.world, age)

    async def wrench_samples(self, count: int) -> WrenchSamples:
        """Return the newest valid F/T samples (one per 2 ms step); SENSOR_FAULT if none."""
        age = self._fresh('sim_what_wrench')
        return sensor_path.wrench_samples(self.world, max(1, int(count)), self.config.ft_frame,
                                          age, self.config.limits.sensor_max_age_s)

    def _check_sensors(self) -> None:
        """Refuse a motion unless the F/T stream is clean and the joint states are finite."""
        sensor_path.check_healthy(self.world, self.config.limits.sensor_max_age_s)

    def _view(self) -> tuple[Any, Any, float]:
        """Return model, a kinematics-only copy of the newest state, and its time."""
        qpos, _, _, stamp = self.world.snapshot()
        self._view_data.qpos[:] = qpos
        mujoco.mj_kinematics(self.world.model, self._view_data)
        return self.world.model, self._view_data, stamp

    def _pose_of(self, link: str, frame: str) -> Pose:
        m, d, stamp = self._view()
        world_pose = frame_in_world(m, d, link or self.config.end_effector)
        pos, quat = express(m, d, world_pose, frame or self.config.base_frame)
        return Pose(tuple(pos.tolist()), tuple(quat.tolist()), frame or self.config.base_frame,
                    stamp)

    async def end_effector_pose(self, frame: str, link: str = '') -> Pose:
        """Return the pose of ``link`` (default: the TCP) in ``frame``."""
        return self._pose_of(link, frame)

    async def tip_poses(self, joint_rows: Sequence[Sequence[float]]) -> list[Pose]:
        """Return the TCP pose in the base frame for each row of arm joints (MuJoCo FK)."""
        return await asyncio.to_thread(self.tips.poses, joint_rows)

    async def object_pose(self, name: str, frame: str) -> Pose:
        """Return the ground-truth pose of ``box`` or ``cylinder``."""
        objects = self.robot.objects
        if name not in objects:
            raise BackendError('UNKNOWN_OBJECT', t('sim_unknown_object', name=repr(name),
                                                   known=', '.join(objects)),
                               details={'known': list(objects)})
        return self._pose_of(name, frame)

    # -- arm motion ----------------------------------------------------------------------
    def _motion(self, traj: Any, goal_limits: Any, tol: float, label: str) -> ArmMotion:
        return ArmMotion(traj, self.guard, force_limit_n=goal_limits.contact_force_limit_n,
                         timeout_s=goal_limits.timeout_s, tolerance_rad=tol, label=label,
                         path_check=goal_limits.path_check,
                         tip=self.tips.frame)

    async def _planned(self, limits: Any, build: Any, *args: Any,
                       allowed: frozenset[str] = frozenset()) -> Any:
        """
        Build a trajectory and check its whole path, in a worker thread.

        The scene first (no known object on the path but ``allowed``), then the envelope.
        """
        qpos = self.world.snapshot()[0]
        return await asyncio.to_thread(lambda: self.tips.check(
            check_planned(self.planner, qpos, build(*args), allowed), limits.path_check))

    def _result(self, run: ArmRun, frame: str, target: Pose | None = None,
                link: str = '') -> MotionResult:
        qpos = self.world.snapshot()[0]
        joints = dict(zip(self.robot.arm_joints, qpos[self.world.arm_qpos].tolist()))
        return motion_result(run, self._pose_of(link, frame), joints, target)

    async def plan(self, goal: MotionGoal, start: RobotState | None = None) -> Plan:
        """Plan a pose, joint or straight line goal (IK, collision sweep, timing); no motion."""
        return await make_plan(self, goal, start)

    async def execute(self, plan: Plan, progress: ProgressFn | None = None) -> MotionResult:
        """Run a plan made here from where the arm is (STALE_PLAN otherwise)."""
        goal = plan.goal
        frame = goal.target.frame_id if isinstance(goal, PoseGoal) else (
            goal.waypoints[-1].frame_id if isinstance(goal, CartesianGoal) and goal.waypoints
            else '') or self.config.base_frame
        path = plan.trajectory
        if not plan.executable or (isinstance(path, SimPath) and path.traj is None):
            return self._result(ArmRun(plan.status, plan.message, 0.0, plan.fraction, None,
                                       None, plan.details, np.empty((0, 3))), frame)
        self._idle_arm()
        self._check_sensors()
        check_start(self, plan)
        assert isinstance(path, SimPath) and path.traj is not None
        if isinstance(goal, PoseGoal):
            motion = self._motion(path.traj, goal.limits, 2e-4, t('sim_label_pose'))
        elif isinstance(goal, JointGoal):
            motion = self._motion(path.traj, goal.limits, min(goal.tolerance_rad, 1e-3),
                                  t('sim_label_joints'))
        else:
            motion = self._motion(path.traj, goal.limits, 2e-4, t('sim_label_path'))
        run = await self._execute(motion, progress)
        if isinstance(goal, PoseGoal):
            return self._reached_pose(run, goal, frame)
        if isinstance(goal, JointGoal):
            res = self._result(run, frame)
            if res.succeeded:
                err = max(abs(res.joint_positions[n] - v) for n, v in goal.positions.items())
                res = replace(res, message=t('sim_reached_joints', err=f'{err:.4f}'))
            return res
        return await self._followed(run, plan, frame)

    def _reached_pose(self, run: ArmRun, goal: PoseGoal, frame: str) -> MotionResult:
        res = self._result(run, frame, goal.target, goal.link)
        if not res.succeeded:
            return res
        pos_err, ori_err = res.position_error_m or 0.0, res.orientation_error_rad or 0.0
        if pos_err > goal.position_tolerance_m or ori_err > goal.orientation_tolerance_rad:
            return replace(res, status=MotionStatus.FAILED,
                           message=t('sim_settled_off', mm=f'{pos_err * 1000:.2f}',
                                     deg=f'{np.degrees(ori_err):.2f}'))
        return replace(res, message=t('sim_reached_pose', mm=f'{pos_err * 1000:.2f}',
                                      deg=f'{np.degrees(ori_err):.2f}',
                                      s=f'{res.duration_s:.2f}'))

    async def _followed(self, run: ArmRun, plan: Plan, frame: str) -> MotionResult:
        done = run.status is MotionStatus.SUCCEEDED
        reason = plan.details.get('stop_reason', '')
        stopped = t('sim_path_stopped_before', reason=reason) if reason else ''
        message = (t('sim_path_followed', fraction=f'{plan.fraction:.0%}',
                     duration=f'{run.duration_s:.2f}', stopped=stopped) if done else run.message)
        points = plan.trajectory.points if isinstance(plan.trajectory, SimPath) else None
        deviation = await asyncio.to_thread(path_deviation, run.trace,
                                            np.empty((0, 3)) if points is None else points)
        run = replace(run, message=message, fraction=plan.fraction if done else run.fraction,
                      details={**run.details, **plan.details, 'max_path_deviation_m': deviation})
        return self._result(run, frame)

    async def move_to_pose(self, goal: PoseGoal,
                           progress: ProgressFn | None = None) -> MotionResult:
        """Solve IK, sweep the joint path for collisions, then execute."""
        return await self.execute(await self.plan(goal), progress)

    async def move_to_joints(self, goal: JointGoal,
                             progress: ProgressFn | None = None) -> MotionResult:
        """Move the arm joints to the named positions (others keep theirs)."""
        return await self.execute(await self.plan(goal), progress)

    async def follow_cartesian_path(self, goal: CartesianGoal,
                                    progress: ProgressFn | None = None) -> MotionResult:
        """Straight lines through the waypoints; PARTIAL (not run) below min_fraction."""
        return await self.execute(await self.plan(goal), progress)

    async def move_until_contact(self, goal: GuardedGoal,
                                 progress: ProgressFn | None = None) -> MotionResult:
        """Approach in a straight line until the contact force passes the threshold."""
        return await guarded.move_until_contact(self, goal, progress)

    async def stop(self) -> MotionResult:
        """Halt the arm and gripper and hold position (idempotent; not an e-stop)."""
        moving, run = await self._halt_all(t('sim_halt_request'))
        details = {**(run.details if run else {}), 'was_moving': moving}
        message = t('sim_stopped_motion' if moving else 'sim_nothing_moving')
        status = MotionStatus.STOPPED if moving else MotionStatus.IDLE
        if run is None:
            run = ArmRun(status, message, 0.0, 0.0, None, None, details, np.empty((0, 3)))
        return self._result(replace(run, status=status, message=message, details=details),
                            self.config.base_frame)

    # -- gripper, images, ROS-only ----------------------------------------------------------
    async def grasp(self, goal: GraspGoal, progress: ProgressFn | None = None) -> GripResult:
        """Close until contact and regulate the grip force to ``goal.force_n``."""
        res = await self._execute(Grasp(goal.force_n, goal.speed_mps, goal.timeout_s), progress)
        if goal.width_m is not None and res.object_held:
            res = replace(res, details={**res.details, 'expected_width_m': goal.width_m})
        return res

    async def release(self, goal: ReleaseGoal,
                      progress: ProgressFn | None = None) -> GripResult:
        """Open the fingers to ``goal.width_m``."""
        return await self._execute(Release(goal.width_m, goal.speed_mps, goal.timeout_s),
                                   progress)

    async def gripper_state(self) -> GripperState:
        """Return gap, measured force, what is held and its slip in the hand since the grasp."""
        self._fresh('sim_what_gripper')
        return await self._execute(ReadGripper(), None)

    async def capture_image(self, camera: str, width: int, height: int) -> Image:
        """Render the scene camera offscreen and return PNG bytes."""
        cameras = self.robot.cameras
        camera = camera or cameras[0]
        if camera not in cameras:
            raise BackendError('INVALID_GOAL', t('sim_unknown_camera', camera=repr(camera),
                                                 cameras=', '.join(cameras)))
        width, height = max(16, min(int(width), MAX_W)), max(16, min(int(height), MAX_H))
        if self.renderer is None:
            self.renderer = SceneRenderer(self.world.model)
        qpos = self.world.snapshot()[0]
        try:
            data = await asyncio.to_thread(self.renderer.render_png, qpos, camera, width,
                                           height)
        except Exception as exc:
            raise BackendError('UNAVAILABLE', t('sim_render_failed', error=exc),
                               advice=t('sim_render_fix')) from exc
        return Image(data, 'image/png', width, height, camera)

    async def read_topic(self, binding: TopicBinding) -> dict[str, Any]:
        """ROS topics do not exist in the simulation."""
        raise ros_only(t('sim_ros_topics'))

    async def call_service(self, binding: ServiceBinding,
                           request: Mapping[str, Any]) -> dict[str, Any]:
        """ROS services do not exist in the simulation."""
        raise ros_only(t('sim_ros_services'))

    async def send_action_goal(self, binding: ActionBinding, goal: Mapping[str, Any],
                               progress: ProgressFn | None = None) -> dict[str, Any]:
        """ROS actions do not exist in the simulation."""
        raise ros_only(t('sim_ros_actions'))
