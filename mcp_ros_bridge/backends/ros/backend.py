"""
``RosBackend``: the backend port over ROS 2 (rclpy, MoveIt, ros2_control).

A thin facade over the typed parts :mod:`.parts` starts once: the node and
executor live in :mod:`.runtime`, sensor caches in :mod:`.sensors`, MoveIt in
:mod:`.moveit`, the gripper in :mod:`.gripper` and declared bindings in
:mod:`.bindings`. rclpy is imported only when the backend starts, so this
module imports on machines without ROS.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, TYPE_CHECKING

from mcp_ros_bridge.backends.port import (BackendError, BackendInfo, CartesianGoal, GraspGoal,
                                          GripperState, GripResult, GuardedGoal, Image, JointGoal,
                                          JointStates, MotionGoal, MotionLimits, MotionResult,
                                          MotionStatus, Plan, Pose, PoseGoal, ProgressFn,
                                          ReleaseGoal, RobotState, WrenchSamples)
from mcp_ros_bridge.backends.ros import verify
from mcp_ros_bridge.backends.ros.node_args import node_identity
from mcp_ros_bridge.catalog.bindings import ActionBinding, ServiceBinding, TopicBinding
from mcp_ros_bridge.catalog.robot import RobotConfig
from mcp_ros_bridge.messages import t

if TYPE_CHECKING:  # rclpy-importing modules, loaded only when the backend starts
    from mcp_ros_bridge.backends.ros.joint_cache import JointStateCache
    from mcp_ros_bridge.backends.ros.parts import RosParts
    from mcp_ros_bridge.backends.ros.runtime import RosRuntime
    from mcp_ros_bridge.backends.ros.sensors import WrenchBuffer

STOP_CONFIRM_S = 2.0  # how long stop() waits for joint states to show a still arm


class RosBackend:
    """Drives a ROS 2 robot (MoveIt + ros2_control) from the MCP server's asyncio loop."""

    info = BackendInfo('ros', 'ROS 2 robot through MoveIt 2 and ros2_control',
                       previews_plans=True)  # moveit.py checks each whole plan before it runs

    def __init__(self, config: RobotConfig, *, node_name: str = 'mcp_ros_bridge',
                 namespace: str = '', ros_args: list[str] | None = None,
                 use_sim_time: bool = False) -> None:
        """Remember the configuration; :meth:`start` creates the node (on /clock if asked)."""
        self.config = config
        sim_time = ['-p', 'use_sim_time:=true'] if use_sim_time else []
        name, namespace, args = node_identity(node_name, namespace, list(ros_args or []))
        self._node_args = (name, namespace, args + sim_time)
        self._started: RosParts | None = None

    @property
    def parts(self) -> RosParts:
        """Return the started parts; UNAVAILABLE before start and after close."""
        if self._started is None:
            raise BackendError('UNAVAILABLE', t('ros_backend_not_started'))
        return self._started

    @property
    def runtime(self) -> RosRuntime | None:
        """Return the running node's runtime for tests; None when not started."""
        return None if self._started is None else self._started.runtime

    def reconfigure(self, config: RobotConfig) -> None:
        """Use a reloaded robot.yaml from the next call on (names and topics never change)."""
        self.config = config
        if self._started is not None:
            self._started.moveit.config = config
            self._started.moveit.kinematics.reconfigure(config)
            self._started.gripper.config = config

    async def start(self) -> None:
        """Start the node and its executor thread; subscribe to joint states and wrench."""
        if self._started is not None:
            return
        from mcp_ros_bridge.backends.ros.parts import Hooks, start_parts
        hooks = Hooks(self._guard, self._halt_for_guard, self._finger_states)
        self._started = await asyncio.to_thread(start_parts, self.config, *self._node_args,
                                                hooks)

    async def close(self) -> None:
        """Cancel running goals, then shut the node, executor and context down (once)."""
        parts, self._started = self._started, None
        if parts is None:
            return
        await asyncio.wait({asyncio.ensure_future(parts.runner.cancel_all())}, timeout=3.0)
        await asyncio.to_thread(parts.close)

    async def wait_for_sensors(self, timeout_s: float) -> list[str]:
        """Wait until joint states and wrench have arrived once; return the silent topics."""
        caches: list[JointStateCache | WrenchBuffer] = [self.parts.joints, self.parts.wrench]
        waited = await asyncio.gather(*(asyncio.to_thread(c.received.wait, timeout_s)
                                        for c in caches))
        return [c.topic for c, ok in zip(caches, waited) if not ok]

    async def wait_started(self) -> BackendInfo:
        """Return the info (the node is started by :meth:`start` alone)."""
        return self.info

    async def ready(self, timeout_s: float) -> list[str]:
        """
        Wait for the sensors and check the end effector link; return what is not ready.

        Raises ``INVALID_LINK_NAME`` when MoveIt answers that the configured tip
        is no link of the robot: the bridge refuses to serve motions to it.
        """
        async def tip() -> str:
            try:
                await asyncio.wait_for(self.parts.moveit.check_link(), timeout_s)
            except asyncio.TimeoutError:
                return 'the end effector link is not checked yet: compute_fk did not answer'
            except BackendError as err:
                if err.code == 'INVALID_LINK_NAME':
                    raise
                return f'the end effector link is not checked yet: {err.message}'
            return ''
        silent, unchecked = await asyncio.gather(self.wait_for_sensors(timeout_s), tip())
        return [f'no data yet on {t}' for t in silent] + ([unchecked] if unchecked else [])

    def _guard(self, limits: MotionLimits) -> Any:
        from mcp_ros_bridge.backends.ros.guard import ForceGuard
        max_age = self.config.limits.sensor_max_age_s
        if self.config.ros.force_guard == 'off':
            return ForceGuard(None, limits.contact_force_limit_n, max_age)
        from mcp_ros_bridge.backends.ros.static_load import StaticLoad
        parts = self.parts
        parts.take_arrived()
        parts.wrench.check_healthy(parts.runtime.now_s(), max_age)  # refuse stale or invalid
        if limits.contact_threshold_n is not None:  # a guarded move: the change since now
            from mcp_ros_bridge.backends.ros.contact_guard import ContactGuard
            return ContactGuard(parts.wrench, limits.contact_force_limit_n,
                                limits.contact_threshold_n, max_age)
        load = StaticLoad(self.config, self.end_effector_pose, parts.wrench,
                          holding=parts.gripper.holding)
        return ForceGuard(parts.wrench, limits.contact_force_limit_n, max_age,
                          rated_n=self.config.limits.ft_rated_force_n, load=load)

    async def joint_states(self) -> JointStates:
        """Return the newest valid joint states; SENSOR_STALE when old, SENSOR_FAULT if invalid."""
        return self._read_joints(self.config.arm_joints)

    async def _finger_states(self) -> JointStates:
        """Return the joint states with the one joint the gripper mapping reads (mimics aside)."""
        return self._read_joints((self.config.gripper_command.joint,))

    def _read_joints(self, names: tuple[str, ...]) -> JointStates:
        parts = self.parts
        parts.take_arrived()
        return parts.joints.read(names, parts.runtime.now_s(),
                                 self.config.limits.sensor_max_age_s)

    async def wrench_samples(self, count: int) -> WrenchSamples:
        """Return up to ``count`` newest valid raw wrench samples; SENSOR_STALE / SENSOR_FAULT."""
        parts = self.parts
        parts.take_arrived()
        return parts.wrench.read(count, parts.runtime.now_s(),
                                 self.config.limits.sensor_max_age_s)

    async def end_effector_pose(self, frame: str, link: str = '') -> Pose:
        """Return the pose of ``link`` in ``frame`` now (the URDF's FK, else compute_fk)."""
        joints = await self.joint_states()
        return await self.parts.moveit.kinematics.pose(frame, link, joints.names,
                                                       joints.positions, joints.stamp)

    async def tip_poses(self, joint_rows: Sequence[Sequence[float]]) -> list[Pose]:
        """Return the TCP pose in the base frame per row of arm joints (the URDF's FK)."""
        return await self.parts.moveit.tip_poses(joint_rows)

    async def _finish(self, result: MotionResult) -> MotionResult:
        """Attach the measured joints and tip pose; a success that cannot be read is not one."""
        from mcp_ros_bridge.backends.ros.moveit import best_effort
        joints, error = await best_effort(self.joint_states(), 1.0)
        if joints is not None:
            pose, error = await best_effort(self.parts.moveit.kinematics.pose(
                self.config.base_frame, '', joints.names, joints.positions, joints.stamp), 2.0)
            result = replace(result, joint_positions=dict(zip(joints.names, joints.positions)),
                             final_pose=pose)
        if error:
            result = replace(result, details={'final_state_error': error, **result.details})
            return verify.unverified(result, error)
        return result

    async def plan(self, goal: MotionGoal, start: RobotState | None = None) -> Plan:
        """Plan and check a motion through MoveIt from ``start`` (None: where the arm is)."""
        from mcp_ros_bridge.backends.ros.plans import make_plan
        return await make_plan(self, goal, start)

    async def execute(self, plan: Plan, progress: ProgressFn | None = None) -> MotionResult:
        """Run a plan made here (STALE_PLAN once the arm left its start); verify where it ended."""
        from mcp_ros_bridge.backends.ros.plans import run_plan
        return await run_plan(self, plan, progress)

    async def _move(self, goal: MotionGoal, progress: ProgressFn | None) -> MotionResult:
        from mcp_ros_bridge.backends.ros.plans import make_plan, run_plan
        return await run_plan(self, await make_plan(self, goal, None, progress), progress,
                              fresh=True)

    async def move_to_pose(self, goal: PoseGoal,
                           progress: ProgressFn | None = None) -> MotionResult:
        """Plan and execute a motion to a pose through MoveGroup; verify where it ended."""
        return await self._move(goal, progress)

    async def move_to_joints(self, goal: JointGoal,
                             progress: ProgressFn | None = None) -> MotionResult:
        """Plan and execute a motion to joint positions through MoveGroup; verify the joints."""
        return await self._move(goal, progress)

    async def follow_cartesian_path(self, goal: CartesianGoal,
                                    progress: ProgressFn | None = None) -> MotionResult:
        """Compute and execute a Cartesian path (refused below ``min_fraction``); verify it."""
        return await self._move(goal, progress)

    async def move_until_contact(self, goal: GuardedGoal,
                                 progress: ProgressFn | None = None) -> MotionResult:
        """Approach in a straight line; the wrist sensor's change since the start stops it."""
        from mcp_ros_bridge.backends.ros.guarded import move_until_contact
        await self.parts.moveit.check_link(goal.link)
        return await move_until_contact(self, goal, progress)

    async def _halt_for_guard(self) -> dict[str, Any]:
        """Send the execution stop and wait until joint states show the arm still."""
        halt = self.parts.halt
        halt.send()
        still, waited, why = await halt.until_still(self.joint_states, STOP_CONFIRM_S)
        return {'confirmed_still': still, 'halt_waited_s': round(waited, 3),
                **({} if still else {'halt_problem': why})}

    async def stop(self) -> MotionResult:
        """
        Halt the arm and confirm it from joint states (not an emergency stop); idempotent.

        Sends move_group's execution "stop" event (the only thing that halts an
        ExecuteTrajectory), cancels every running goal (a cancelled MoveGroup
        goal stops too), then waits until every arm joint is still.
        """
        if self._started is None:
            return MotionResult(MotionStatus.IDLE, t('ros_stop_not_running'))
        halt = self.parts.halt
        halt.send()
        count = await self.parts.runner.cancel_all()
        still, waited, why = await halt.until_still(self.joint_states, STOP_CONFIRM_S)
        details = {'cancelled_goals': count, 'waited_s': round(waited, 3)}
        if not still:
            return MotionResult(MotionStatus.FAILED,
                                t('ros_stop_unconfirmed', topic=halt.topic, count=count,
                                  waited=waited, why=why),
                                details={**details, 'code': 'STOP_UNCONFIRMED',
                                         'advice': t('ros_stop_unconfirmed_fix')})
        what = t('ros_stop_cancelled', count=count) if count else t('ros_stop_nothing_running')
        return MotionResult(MotionStatus.STOPPED if count else MotionStatus.IDLE,
                            t('ros_stop_confirmed', what=what), details=details)

    async def grasp(self, goal: GraspGoal, progress: ProgressFn | None = None) -> GripResult:
        """Close the gripper with a force limit."""
        return await self.parts.gripper.grasp(goal, progress)

    async def release(self, goal: ReleaseGoal,
                      progress: ProgressFn | None = None) -> GripResult:
        """Open the gripper to a width."""
        return await self.parts.gripper.release(goal, progress)

    async def gripper_state(self) -> GripperState:
        """Return the gripper state from the finger joint states (slip: finger-gap change)."""
        return await self.parts.gripper.state()

    async def capture_image(self, camera: str, width: int, height: int) -> Image:
        """Cameras are served through declared topic bindings on ROS; not here."""
        raise BackendError('UNSUPPORTED', t('ros_no_camera'), advice=t('ros_no_camera_fix'))

    async def object_pose(self, name: str, frame: str) -> Pose:
        """Return the newest pose of ``name`` from its ``ros.object_pose_topics`` topic."""
        return self.parts.objects.read(name, frame, self.parts.runtime.now_s())

    async def read_topic(self, binding: TopicBinding) -> dict[str, Any]:
        """Return the newest message of a declared topic as a dict with ``age_s``."""
        return await self.parts.bindings.read_topic(binding)

    async def call_service(self, binding: ServiceBinding,
                           request: Mapping[str, Any]) -> dict[str, Any]:
        """Call a declared service with a request dict."""
        return await self.parts.bindings.call_service(binding, request)

    async def send_action_goal(self, binding: ActionBinding, goal: Mapping[str, Any],
                               progress: ProgressFn | None = None) -> dict[str, Any]:
        """Send a goal to a declared action; return status, result and feedback count."""
        return await self.parts.bindings.send_action_goal(binding, goal, progress)
