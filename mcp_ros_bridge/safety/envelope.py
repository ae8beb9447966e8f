"""
The safety envelope: limits enforced in code on every goal, whatever a tool's schema says.

:class:`EnvelopedBackend` wraps any backend and checks each goal just before
it reaches the robot (the checks themselves: :mod:`.goal_checks`): workspace box
(after a frame transform) and approach cone for targets, waypoints and path
samples, velocity and acceleration scaling in (0, cap], Cartesian speed cap,
gripper force range, contact-force guard and stale F/T data for force control.
Declared ROS services and actions that command motion no check can see are
refused (:mod:`.binding_guard`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, TYPE_CHECKING, TypeVar

from mcp_ros_bridge.backends.port import (BackendError, BackendInfo, CartesianGoal, GraspGoal,
                                          GripperState, GripResult, GuardedGoal, Image,
                                          JointGoal, JointStates, MotionGoal, MotionLimits,
                                          MotionResult, Plan, Pose, PoseGoal, ProgressFn,
                                          ReleaseGoal, RobotBackend, RobotState, WrenchSamples)
from mcp_ros_bridge.catalog.robot import RobotConfig
from mcp_ros_bridge.messages import t
from mcp_ros_bridge.safety.binding_guard import checked_binding
from mcp_ros_bridge.safety.goal_checks import Envelope, LimitError
from mcp_ros_bridge.safety.path_limits import PathWatch, Slack, to_frame

if TYPE_CHECKING:
    from mcp_ros_bridge.catalog.bindings import ActionBinding, ServiceBinding, TopicBinding

__all__ = ['Envelope', 'EnvelopedBackend', 'LimitError']  # the checks are re-exported

_Result = TypeVar('_Result', MotionResult, GripResult)


def _watch_in(limits: MotionLimits) -> PathWatch:
    """Return the path watch :meth:`EnvelopedBackend._limits` put into ``limits``."""
    watch = limits.path_check
    assert isinstance(watch, PathWatch)
    return watch


class EnvelopedBackend(RobotBackend):
    """
    A backend wrapper that applies the :class:`Envelope` to every goal.

    Every port method is written out here (no ``__getattr__``): one added to
    :class:`RobotBackend` without an entry here fails the type check (the class
    could not be instantiated) and ``test/unit/test_port_wrappers.py``.
    """

    def __init__(self, inner: RobotBackend, robot: RobotConfig) -> None:
        """Wrap ``inner``."""
        self.inner = inner
        self.envelope = Envelope(robot)
        self.robot = robot

    @property
    def info(self) -> BackendInfo:
        """Return the inner backend's info as it is now (a deferred backend's changes once up)."""
        return self.inner.info

    # -- no goal to check: the inner backend's answer ---------------------------------
    async def start(self) -> None:
        """Start the inner backend."""
        await self.inner.start()

    async def close(self) -> None:
        """Close the inner backend."""
        await self.inner.close()

    async def wait_started(self) -> BackendInfo:
        """Return the inner backend's info once it is started."""
        return await self.inner.wait_started()

    async def ready(self, timeout_s: float) -> list[str]:
        """Return what the inner backend lacks to serve."""
        return await self.inner.ready(timeout_s)

    def reconfigure(self, config: RobotConfig) -> None:
        """Check against the reloaded limits and pass them on."""
        self.robot, self.envelope = config, Envelope(config)
        self.inner.reconfigure(config)

    async def joint_states(self) -> JointStates:
        """Read the joint states."""
        return await self.inner.joint_states()

    async def wrench_samples(self, count: int) -> WrenchSamples:
        """Read wrench samples."""
        return await self.inner.wrench_samples(count)

    async def end_effector_pose(self, frame: str, link: str = '') -> Pose:
        """Read a link's pose."""
        return await self.inner.end_effector_pose(frame, link)

    async def tip_poses(self, joint_rows: Sequence[Sequence[float]]) -> list[Pose]:
        """Compute tip poses (nothing moves)."""
        return await self.inner.tip_poses(joint_rows)

    async def stop(self) -> MotionResult:
        """Stop: never refused."""
        return await self.inner.stop()

    async def gripper_state(self) -> GripperState:
        """Read the gripper state."""
        return await self.inner.gripper_state()

    async def capture_image(self, camera: str, width: int, height: int) -> Image:
        """Capture an image."""
        return await self.inner.capture_image(camera, width, height)

    async def object_pose(self, name: str, frame: str) -> Pose:
        """Read an object's pose."""
        return await self.inner.object_pose(name, frame)

    async def read_topic(self, binding: TopicBinding) -> dict[str, Any]:
        """Read a declared topic."""
        return await self.inner.read_topic(binding)

    # -- declared services and actions: refused when they command what no check sees ----
    async def call_service(self, binding: ServiceBinding,
                           request: Mapping[str, Any]) -> dict[str, Any]:
        """Refuse a service that moves the arm or changes its checks; bound its timeout."""
        checked = checked_binding(binding, binding.service, self.robot.limits.motion_timeout_s)
        return await self.inner.call_service(checked, request)

    async def send_action_goal(self, binding: ActionBinding, goal: Mapping[str, Any],
                               progress: ProgressFn | None = None) -> dict[str, Any]:
        """Refuse an action that commands arm or gripper motion; bound its timeout."""
        checked = checked_binding(binding, binding.action, self.robot.limits.motion_timeout_s)
        return await self.inner.send_action_goal(checked, goal, progress)

    async def _in_workspace_frame(self, pose: Pose) -> Pose:
        ws = self.robot.limits.workspace
        if pose.frame_id in ('', ws.frame):
            return pose
        frame_pose = await self.inner.end_effector_pose(ws.frame, pose.frame_id)
        return to_frame(pose, frame_pose)

    async def _watch(self, slack: Slack | None = None) -> PathWatch:
        """Return a path watch of one motion, its samples in the base frame."""
        ws, base = self.robot.limits.workspace, self.robot.base_frame
        to_ws = None
        if ws.frame not in ('', base):
            to_ws = await self.inner.end_effector_pose(ws.frame, base)
        return PathWatch(self.envelope, to_ws, slack)

    async def _limits(self, lim: MotionLimits, notes: list[str],
                      slack: Slack | None = None) -> MotionLimits:
        """Return the checked limits carrying this motion's path watch (a caller's is replaced)."""
        return self.envelope.motion_limits(lim, notes, await self._watch(slack))

    @staticmethod
    def _noted(result: _Result, notes: list[str]) -> _Result:
        if not notes:
            return result
        adjustments = [*result.details.get('adjustments', ()), *notes]
        return replace(result, details={**result.details, 'adjustments': adjustments})

    async def _checked(self, goal: MotionGoal, notes: list[str]) -> MotionGoal:
        """Return ``goal`` checked (target, waypoints, joints, limits) with its path watch."""
        if isinstance(goal, PoseGoal):
            target = self.envelope.pose(await self._in_workspace_frame(goal.target), notes)
            return replace(goal, target=target,
                           limits=await self._limits(goal.limits, notes, Slack.of(goal)))
        if isinstance(goal, JointGoal):
            return replace(goal, positions=self.envelope.joints(goal.positions, notes),
                           limits=await self._limits(goal.limits, notes))
        points = []
        for i, wp in enumerate(goal.waypoints):
            # a waypoint keeps the orientation the arm has: it gets a path sample's slack
            points.append(self.envelope.pose(await self._in_workspace_frame(wp), notes,
                                             f'waypoint {i}', cone_slack_deg=Slack().angle_deg))
        return replace(goal, waypoints=points, min_fraction=max(
            goal.min_fraction, self.robot.limits.min_cartesian_fraction),
            limits=await self._limits(goal.limits, notes))

    async def plan(self, goal: MotionGoal, start: RobotState | None = None) -> Plan:
        """
        Check the goal, plan it; the plan's samples pass the path check or it is refused.

        The plan is checked as a value once the inner backend returns it (a
        planning error comes first), so no backend hands back a plan the
        envelope did not see; the watch is not handed down, which would check
        the same samples twice.
        """
        notes: list[str] = []
        checked = await self._checked(goal, notes)
        watch = _watch_in(checked.limits)
        unwatched = replace(checked, limits=replace(checked.limits, path_check=None))
        plan = await self.inner.plan(unwatched, start)
        self.envelope.check_plan(plan, watch.to_workspace, watch.slack)
        if not notes:
            return plan
        return replace(plan, details={**plan.details, 'adjustments': [
            *plan.details.get('adjustments', ()), *notes]})

    async def execute(self, plan: Plan, progress: ProgressFn | None = None) -> MotionResult:
        """Run a plan made by :meth:`plan`, its executing samples watched by a new path watch."""
        slack = Slack.of(plan.goal) if isinstance(plan.goal, PoseGoal) else None
        watched = replace(plan.goal.limits, path_check=None)
        goal = replace(plan.goal, limits=await self._limits(watched, [], slack))
        notes = list(plan.details.get('adjustments', ()))
        result = await self.inner.execute(replace(plan, goal=goal), progress)
        if notes and 'adjustments' not in result.details:
            result = self._noted(result, notes)
        return result

    async def move_to_pose(self, goal: PoseGoal, progress: ProgressFn | None = None
                           ) -> MotionResult:
        """Check the target and limits, then delegate."""
        notes: list[str] = []
        checked = await self._checked(goal, notes)
        assert isinstance(checked, PoseGoal)
        return self._noted(await self.inner.move_to_pose(checked, progress), notes)

    async def move_to_joints(self, goal: JointGoal, progress: ProgressFn | None = None
                             ) -> MotionResult:
        """Check the limits, then delegate."""
        notes: list[str] = []
        checked = await self._checked(goal, notes)
        assert isinstance(checked, JointGoal)
        return self._noted(await self.inner.move_to_joints(checked, progress), notes)

    async def follow_cartesian_path(self, goal: CartesianGoal,
                                    progress: ProgressFn | None = None) -> MotionResult:
        """Check every waypoint and the limits, then delegate."""
        notes: list[str] = []
        checked = await self._checked(goal, notes)
        assert isinstance(checked, CartesianGoal)
        return self._noted(await self.inner.follow_cartesian_path(checked, progress), notes)

    async def move_until_contact(self, goal: GuardedGoal,
                                 progress: ProgressFn | None = None) -> MotionResult:
        """Check speed, threshold and cone; cut the line at the workspace box; delegate."""
        from mcp_ros_bridge.safety.guarded_envelope import check_guarded
        notes: list[str] = []
        frame = goal.frame or self.robot.base_frame
        start = await self.inner.end_effector_pose(frame, goal.link)
        goal, cut = await check_guarded(self.envelope, replace(goal, frame=frame), start,
                                        self._in_workspace_frame, notes)
        limits = await self._limits(replace(goal.limits, max_cartesian_speed_mps=goal.speed_mps),
                                    notes)
        goal = replace(goal, limits=replace(limits, contact_threshold_n=goal.force_threshold_n))
        result = await self.inner.move_until_contact(goal, progress)
        if cut and 'path_limited_by' not in result.details:
            result = replace(result, details={**result.details, 'path_limited_by': 'workspace',
                                              'line_m': round(goal.max_distance_m, 4)})
        return self._noted(result, notes)

    async def grasp(self, goal: GraspGoal,
                    progress: ProgressFn | None = None) -> GripResult:
        """Refuse force control on stale F/T data; check the force range."""
        notes: list[str] = []
        goal = self.envelope.grasp(goal, notes)
        w = await self.inner.wrench_samples(1)
        max_age = self.robot.limits.sensor_max_age_s
        if w.age_s > max_age:
            raise BackendError('SENSOR_STALE', t('sensor_stale', age=f'{w.age_s:.3f}',
                                                 max_age=max_age),
                               details={'age_s': w.age_s, 'source': w.source})
        return self._noted(await self.inner.grasp(goal, progress), notes)

    async def release(self, goal: ReleaseGoal,
                      progress: ProgressFn | None = None) -> GripResult:
        """Check the opening width, then delegate."""
        notes: list[str] = []
        goal = self.envelope.release(goal, notes)
        return self._noted(await self.inner.release(goal, progress), notes)
