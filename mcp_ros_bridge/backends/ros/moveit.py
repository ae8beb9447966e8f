"""
MoveIt through its ROS interfaces.

The interfaces are MoveGroup, compute_cartesian_path, ExecuteTrajectory and compute_fk
(asked where the robot's URDF cannot answer: :mod:`.kinematics`).

The goals come from the pure builders in :mod:`.goals` and :mod:`.cartesian`; a
checked plan is handed to ExecuteTrajectory in segments of at most
``ros.execution_horizon_s`` (:mod:`.horizon`), so a bridge that dies leaves the
arm moving for at most that long;
``moveit_msgs`` is imported by name when first used, so this module imports
where MoveIt is absent (calls then raise ``UNSUPPORTED``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
import itertools
import math
from typing import Any

from mcp_ros_bridge.backends.joint_margins import JointMargins
from mcp_ros_bridge.backends.port import (BackendError, CartesianGoal, JointGoal, MotionLimits,
                                          MotionResult, MotionStatus, Pose, PoseGoal, ProgressFn)
from mcp_ros_bridge.backends.ros import (cartesian, error_codes, execution, goals, horizon,
                                         plan_check, tcp)
from mcp_ros_bridge.backends.ros.actions import ActionOutcome, call_service, GoalRunner
from mcp_ros_bridge.backends.ros.guard import ForceGuard
from mcp_ros_bridge.backends.ros.halt import halt_until
from mcp_ros_bridge.backends.ros.kinematics import Kinematics
from mcp_ros_bridge.backends.ros.messages import (build_message, detect_distro, import_interface,
                                                  message_to_dict)
from mcp_ros_bridge.catalog.robot import RobotConfig
from mcp_ros_bridge.messages import t

STATES = {'PLANNING': (0.1, 'moveit_state_planning'), 'MONITOR': (0.4, 'moveit_state_executing'),
          'LOOK': (0.2, 'moveit_state_looking'), 'IDLE': (0.95, 'moveit_state_finishing')}


def state_progress(feedback: Any) -> tuple[float, str] | None:
    """Return the progress and its text (served language) of a MoveIt feedback state."""
    found = STATES.get(feedback.state)
    return None if found is None else (found[0], t(found[1]))


SUCCESS = 1


@dataclass(frozen=True)
class CheckedPath:
    """A MoveIt trajectory checked before it runs: its samples, tip poses and facts."""

    trajectory: dict[str, Any]  # retimed to the tip speed cap
    times: list[float]  # s, as it will execute
    rows: list[list[float]]  # arm joints per sample
    poses: list[Pose]
    details: dict[str, Any]
    stops: int  # the stop count when planning began
    fraction: float = 1.0


class MoveItInterface:
    """Plans and executes motions through MoveIt's action and service interfaces."""

    def __init__(self, config: RobotConfig, runner: GoalRunner, node: Any, group: Any,
                 make_guard: Any, halt: Callable[[], Awaitable[dict[str, Any]]] | None = None
                 ) -> None:
        """Bind to the node, its client group, the runner, a guard factory and a halt."""
        self.config = config
        self._runner, self._node, self._group = runner, node, group
        self._make_guard = make_guard
        self._halt = halt  # stops an execution that ignores cancel; reports when it is still
        self._known_links: set[str] = set()
        self._services: dict[str, Any] = {}
        self._distro: str | None = None
        self.kinematics = Kinematics(config, self.fk)  # the URDF's FK, else compute_fk

    def distro(self) -> str:
        """Return the configured distro, or detect it from the installed moveit_msgs."""
        if self._distro is None:
            wanted: str = self.config.ros.distro
            if wanted == 'auto':
                wanted = detect_distro(import_interface('moveit_msgs/msg/MotionPlanRequest'))
            self._distro = goals.check_distro(wanted)
        return self._distro

    def _service(self, key: str, type_name: str) -> tuple[Any, Any, str]:
        cls = import_interface(type_name, 'srv')
        name = self.config.ros.services[key]
        if key not in self._services:
            self._services[key] = self._node.create_client(
                cls, name, callback_group=self._group)
        return cls, self._services[key], name

    async def move(self, goal: PoseGoal | JointGoal,
                   progress: ProgressFn | None) -> MotionResult:
        """Plan a pose or joint goal, check the plan, execute it."""
        planned = await self.plan_move(goal, progress)
        if isinstance(planned, MotionResult):
            return planned
        return await self.run(planned, goal.limits, progress, planned.stops)

    async def plan_move(self, goal: PoseGoal | JointGoal, progress: ProgressFn | None,
                        start: Mapping[str, float] | None = None) -> CheckedPath | MotionResult:
        """
        Plan a pose or joint goal (MoveGroup, plan only) and check the plan; nothing moves.

        ``start``: arm joints to plan from (None: where the arm is).

        Any error from a plan-only MoveGroup goal is a planning error: nothing
        moved (move_group publishes MONITOR only when a plan goes to execution,
        move_action_capability.cpp). A stop while planning: STOPPED.
        """
        data = goals.build_move_group_goal(self.config, goal, self.distro(), plan_only=True,
                                           start=start)
        stops = self._runner.stop_count
        action = import_interface('moveit_msgs/action/MoveGroup', 'action')
        name = self.config.ros.actions['move_group']
        outcome = await self._runner.run(
            self._runner.client(action, name), build_message(action.Goal, data), name=name,
            timeout_s=goal.limits.timeout_s, describe=state_progress,
            progress=progress)
        if outcome.status == 'CANCELED':
            return MotionResult(MotionStatus.STOPPED, t('moveit_stopped_planning'),
                                duration_s=outcome.duration_s)
        if outcome.status == 'TIMED_OUT':
            raise BackendError('TIMED_OUT', t('moveit_no_plan_within', took=outcome.duration_s),
                               advice=error_codes.advice_for(-6, 'planning'))
        code = outcome.result.error_code.val if outcome.result is not None else 99999
        if outcome.status != 'SUCCEEDED' or code != SUCCESS or outcome.result is None:
            raise self._error(code, t('moveit_status_planning', status=outcome.status.lower()),
                              'planning')
        plan = message_to_dict(outcome.result.planned_trajectory)
        return await self.check(plan, goal.limits, stops)

    async def check(self, plan: dict[str, Any], limits: MotionLimits,
                    stops: int) -> CheckedPath:
        """Check every sample of ``plan`` (joints, tip pose, tip speed); retime it to the cap."""
        times, rows = plan_check.samples(self.config, plan)
        if not rows:
            return CheckedPath(plan, [], [], [], {}, stops)
        JointMargins(self.config).check(times, rows)
        poses = await self.tip_poses(rows)
        peak = plan_check.peak_tip_speed(poses, times)
        factor = plan_check.speed_factor(peak, limits.max_cartesian_speed_mps)
        times = [t * factor for t in times]  # the whole path, timed as it will execute
        if limits.path_check is not None:
            limits.path_check(poses, times)
        details: dict[str, Any] = {'checked_samples': len(rows),
                                   'planned_peak_tip_speed_mps': round(peak, 4)}
        if factor > 1.0:
            plan = cartesian.retime_trajectory(plan, factor)
            details['retimed_by'] = round(factor, 3)
        return CheckedPath(plan, times, rows, poses, details, stops)

    async def run(self, checked: CheckedPath, limits: MotionLimits,
                  progress: ProgressFn | None, stops: int | None = None) -> MotionResult:
        """
        Execute a checked plan.

        ``stops``: the stop count when it was planned (a stop since then ends it
        before it runs); None: now.
        """
        if not checked.rows:
            return MotionResult(MotionStatus.SUCCEEDED, t('moveit_goal_met'))
        stops = self._runner.stop_count if stops is None else stops
        details = dict(checked.details)
        if self._runner.stop_count != stops:  # a stop arrived while planning or checking
            return MotionResult(MotionStatus.STOPPED, t('moveit_stopped_before'))
        segments = horizon.split(checked.trajectory, self.config.ros.execution_horizon_s)
        if len(segments) > 1:
            details['segments'] = len(segments)
        result = await self._execute(segments, limits, progress, stops)
        if result.succeeded:  # it ran the checked plan: its fingertip path is the plan's
            details['path_length_m'] = sum(math.dist(a.position, b.position)
                                           for a, b in itertools.pairwise(checked.poses))
        return replace(result, details={**result.details, **details})

    async def follow_path(self, goal: CartesianGoal, progress: ProgressFn | None,
                          before_run: Callable[[dict[str, Any]], Awaitable[None]] | None = None
                          ) -> MotionResult:
        """Compute a Cartesian path, check it (``min_fraction``, ``before_run``), execute it."""
        planned = await self.plan_path(goal, progress, before_run)
        if isinstance(planned, MotionResult):
            return planned
        result = await self.run(planned, goal.limits, progress, planned.stops)
        return replace(result, fraction=planned.fraction)

    async def plan_path(self, goal: CartesianGoal, progress: ProgressFn | None,
                        before_run: Callable[[dict[str, Any]], Awaitable[None]] | None = None,
                        start: Mapping[str, float] | None = None
                        ) -> CheckedPath | MotionResult:
        """Compute a Cartesian path from ``start`` and check it; PARTIAL below ``min_fraction``."""
        distro, stops = self.distro(), self._runner.stop_count
        request = cartesian.build_cartesian_path_request(self.config, goal, distro, start)
        cls, client, name = self._service('cartesian_path', 'moveit_msgs/srv/GetCartesianPath')
        if progress is not None:
            await progress(0.05, t('moveit_computing_path'))
        response = await call_service(client, build_message(cls.Request, request), name=name,
                                      timeout_s=max(5.0, goal.limits.timeout_s / 4))
        code = response.error_code.val
        if code != SUCCESS and response.fraction <= 0.0:
            raise self._error(code, t('moveit_cartesian_failed'))
        if response.fraction < goal.min_fraction:
            return MotionResult(MotionStatus.PARTIAL,
                                t('moveit_partial', fraction=response.fraction,
                                  minimum=goal.min_fraction),
                                fraction=response.fraction,
                                details={'advice': t('moveit_partial_fix')})
        plan = message_to_dict(response.solution)
        if distro == 'humble':  # Humble's service returns a full-speed trajectory
            factor = cartesian.retime_factor(goal.limits.velocity_scaling,
                                             goal.limits.acceleration_scaling)
            plan = cartesian.retime_trajectory(plan, factor)
        if before_run is not None:
            await before_run(plan)
        checked = await self.check(plan, goal.limits, stops)
        return replace(checked, fraction=response.fraction)

    async def _execute(self, segments: list[dict[str, Any]], limits: MotionLimits,
                       progress: ProgressFn | None, stops: int) -> MotionResult:
        """
        Hand the segments to ExecuteTrajectory one after the other, each once the last ended.

        A stop, the force guard, a failed segment or the deadline ends the motion;
        the next segment is then never sent, so the arm halts within one segment.
        """
        action = import_interface('moveit_msgs/action/ExecuteTrajectory', 'action')
        name = self.config.ros.actions['execute_trajectory']
        client, distro = self._runner.client(action, name), self.distro()
        loop = asyncio.get_running_loop()
        deadline, took = loop.time() + limits.timeout_s, 0.0
        late: list[asyncio.Future[dict[str, Any]]] = []
        ended = asyncio.Event()  # the segment in hand has its result

        def halt_a_late_start(feedback: Any) -> None:
            # A stop raced the hand-over of a segment: halt it once MoveIt executes it.
            if self._runner.stop_count != stops and not late and self._halt is not None:
                late.append(asyncio.ensure_future(halt_until(self._halt, ended)))
        async with self._make_guard(limits) as guard:
            halting = asyncio.ensure_future(self._halt_when(guard.event))
            try:
                for k, segment in enumerate(segments):
                    goal = build_message(action.Goal,
                                         cartesian.build_execute_goal(segment, distro))
                    ended.clear()
                    try:
                        outcome = await self._runner.run(
                            client, goal, name=name, timeout_s=max(0.0, deadline - loop.time()),
                            interrupt=guard.event, progress=progress,
                            describe=horizon.progress_of(k, len(segments), state_progress,
                                                         halt_a_late_start))
                    finally:
                        ended.set()
                    took += outcome.duration_s
                    if guard.event.is_set() or not execution.ended_well(outcome):
                        break
                    if self._runner.stop_count != stops and k + 1 < len(segments):
                        outcome = replace(outcome, status='CANCELED', result=None)
                        break  # stopped at a seam: the arm is at rest, nothing more is sent
            finally:
                if not guard.event.is_set():
                    halting.cancel()
        halted = await halting if guard.event.is_set() else {}  # bounded: until_still
        if outcome.status == 'TIMED_OUT' and not halted and self._halt is not None:
            halted = await self._halt()  # the cancel alone leaves the segment running
        if late:
            await late[0]
        result = self._interpret(replace(outcome, duration_s=took), guard)
        result = replace(result, peak_force_n=guard.peak_n if guard.peak_n > 0.0 else None,
                         details={**guard.compensation, **result.details, **halted})
        if progress is not None and result.succeeded:
            await progress(1.0, t('moveit_finished'))
        return result

    async def _halt_when(self, event: asyncio.Event) -> dict[str, Any]:
        """Halt the execution as soon as the force guard trips (cancel alone may not)."""
        await event.wait()
        return await self._halt() if self._halt is not None else {}

    def _interpret(self, outcome: ActionOutcome, guard: ForceGuard) -> MotionResult:
        """Read how an ExecuteTrajectory goal ended (the plan was made and checked before)."""
        return execution.interpret(outcome, guard)

    @staticmethod
    def _error(code: int, what: str, stage: str = '') -> BackendError:
        name = error_codes.code_name(code)
        return BackendError(name, f'{what}: {name}', advice=error_codes.advice_for(code, stage),
                            details={'moveit_error_code': int(code)})

    async def check_link(self, link: str = '') -> None:
        """
        Refuse a tip link MoveIt does not know (once per link; FK at the home pose).

        For a pose goal on an unknown link MoveIt answers SUCCESS without moving
        (the constraint on it is skipped, so the goal counts as satisfied).
        """
        asked = tcp.moveit_link(self.config, link)
        if asked in self._known_links:
            return
        try:
            home = await self.fk(self.config.base_frame, link, list(self.config.arm_joints),
                                 list(self.config.home))
        except BackendError as err:
            if err.code != 'INVALID_LINK_NAME':
                raise
            raise BackendError(
                'INVALID_LINK_NAME', t('moveit_bad_link', link=asked),
                advice=t('moveit_bad_link_fix'),
                details={'link': asked}) from None
        self.kinematics.compare(self.config.base_frame, link, self.config.home, home)
        self._known_links.add(asked)

    async def tip_poses(self, rows: Any) -> list[Pose]:
        """Return the TCP pose in the base frame for each row of arm joints."""
        return await self.kinematics.poses(self.config.base_frame, '', rows)

    async def fk(self, frame: str, link: str, names: list[str],
                 positions: list[float]) -> Pose:
        """Return the pose of ``link`` in ``frame`` for the given joint positions."""
        request = goals.build_fk_request(self.config, frame, link, names, positions)
        cls, client, name = self._service('fk', 'moveit_msgs/srv/GetPositionFK')
        response = await call_service(client, build_message(cls.Request, request), name=name,
                                      timeout_s=self.config.ros.fk_timeout_s)
        if response.error_code.val != SUCCESS or not response.pose_stamped:
            asked = tcp.moveit_link(self.config, link)
            raise self._error(response.error_code.val, t('moveit_fk_failed', link=asked))
        ps = response.pose_stamped[0]
        p, q = ps.pose.position, ps.pose.orientation
        return tcp.from_parent(self.config, link, Pose(
            (p.x, p.y, p.z), (q.w, q.x, q.y, q.z), ps.header.frame_id,
            ps.header.stamp.sec + ps.header.stamp.nanosec * 1e-9))


async def best_effort(coro: Any, timeout_s: float) -> tuple[Any, str]:
    """Await ``coro`` with a timeout; return (value or None, error text)."""
    task = asyncio.ensure_future(coro)
    await asyncio.wait({task}, timeout=timeout_s)
    if not task.done():
        task.cancel()
        return None, t('moveit_no_answer', timeout_s=timeout_s)
    if isinstance(task.exception(), BackendError):
        return None, str(task.exception())
    return task.result(), ''
