"""
MoveIt through its ROS interfaces.

The interfaces are MoveGroup, compute_cartesian_path, ExecuteTrajectory and compute_fk.

The goals come from the pure builders in :mod:`.goals` and :mod:`.cartesian`;
``moveit_msgs`` is imported by name when first used, so this module imports
where MoveIt is absent (calls then raise ``UNSUPPORTED``).
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
import math
from typing import Any

from mcp_ros_bridge.backends.port import (BackendError, CartesianGoal, JointGoal, MotionResult,
                                          MotionStatus, Pose, PoseGoal, ProgressFn)
from mcp_ros_bridge.backends.ros import cartesian, error_codes, goals
from mcp_ros_bridge.backends.ros.actions import ActionOutcome, call_service, GoalRunner
from mcp_ros_bridge.backends.ros.guard import ForceGuard
from mcp_ros_bridge.backends.ros.messages import (build_message, detect_distro, import_interface,
                                                  message_to_dict)
from mcp_ros_bridge.catalog.robot import RobotConfig

STATES = {'PLANNING': (0.1, 'planning'), 'MONITOR': (0.4, 'executing'),
          'LOOK': (0.2, 'looking around'), 'IDLE': (0.95, 'finishing')}
SUCCESS = 1


class MoveItInterface:
    """Plans and executes motions through MoveIt's action and service interfaces."""

    def __init__(self, config: RobotConfig, runner: GoalRunner, node: Any, group: Any,
                 make_guard: Any) -> None:
        """Bind to the node, its client callback group, the runner and a guard factory."""
        self.config = config
        self._runner, self._node, self._group = runner, node, group
        self._make_guard = make_guard
        self._services: dict[str, Any] = {}
        self._distro: str | None = None

    def distro(self) -> str:
        """Return the configured distro, or detect it from the installed moveit_msgs."""
        if self._distro is None:
            wanted = self.config.ros.distro
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
        """Plan and execute a pose or joint goal through MoveGroup."""
        data = goals.build_move_group_goal(self.config, goal, self.distro())
        action = import_interface('moveit_msgs/action/MoveGroup', 'action')
        name = self.config.ros.actions['move_group']
        result = await self._execute(action, name, data, goal.limits, progress,
                                     planned=False)
        if isinstance(goal, PoseGoal) and result.final_pose is not None:
            target = goal.target
            if result.final_pose.frame_id == (target.frame_id or self.config.base_frame):
                result = replace(result, position_error_m=math.dist(result.final_pose.position,
                                                                    target.position))
        return result

    async def follow_path(self, goal: CartesianGoal,
                          progress: ProgressFn | None) -> MotionResult:
        """Compute a Cartesian path, refuse it below ``min_fraction``, then execute it."""
        distro = self.distro()
        request = cartesian.build_cartesian_path_request(self.config, goal, distro)
        cls, client, name = self._service('cartesian_path', 'moveit_msgs/srv/GetCartesianPath')
        if progress is not None:
            await progress(0.05, 'computing the Cartesian path')
        response = await call_service(client, build_message(cls.Request, request), name=name,
                                      timeout_s=max(5.0, goal.limits.timeout_s / 4))
        code = response.error_code.val
        if code != SUCCESS and response.fraction <= 0.0:
            raise self._error(code, 'compute_cartesian_path failed')
        if response.fraction < goal.min_fraction:
            return MotionResult(MotionStatus.PARTIAL,
                                f'only {response.fraction:.0%} of the path is feasible '
                                f'(minimum {goal.min_fraction:.0%}); nothing moved',
                                fraction=response.fraction,
                                details={'advice': 'move obstacles, shorten the path or '
                                                   'choose waypoints closer to the base'})
        trajectory: Any = response.solution
        if distro == 'humble':
            plain = message_to_dict(trajectory)
            factor = cartesian.retime_factor(
                cartesian.trajectory_duration(plain), goal.limits.velocity_scaling,
                goal.limits.acceleration_scaling, cartesian.path_length(request['waypoints']),
                goal.limits.max_cartesian_speed_mps)
            trajectory = cartesian.retime_trajectory(plain, factor)
        action = import_interface('moveit_msgs/action/ExecuteTrajectory', 'action')
        name = self.config.ros.actions['execute_trajectory']
        result = await self._execute(action, name,
                                     cartesian.build_execute_goal(trajectory, distro),
                                     goal.limits, progress, planned=True)
        return replace(result, fraction=response.fraction)

    async def _execute(self, action: Any, name: str, data: dict[str, Any], limits: Any,
                       progress: ProgressFn | None, planned: bool) -> MotionResult:
        goal_msg = build_message(action.Goal, data)
        seen: set[str] = set()

        def describe(feedback: Any) -> tuple[float, str] | None:
            seen.add(feedback.state)
            return STATES.get(feedback.state)

        async with self._make_guard(limits) as guard:
            outcome = await self._runner.run(
                self._runner.client(action, name), goal_msg, name=name,
                timeout_s=limits.timeout_s, interrupt=guard.event, describe=describe,
                progress=progress)
        result = replace(self._interpret(outcome, guard, planned or 'MONITOR' in seen),
                         peak_force_n=guard.peak_n if guard.peak_n > 0.0 else None)
        if progress is not None and result.succeeded:
            await progress(1.0, 'motion finished')
        return result

    def _interpret(self, outcome: ActionOutcome, guard: ForceGuard,
                   executing: bool) -> MotionResult:
        took = outcome.duration_s
        if guard.contact:
            return MotionResult(MotionStatus.CONTACT_ABORT,
                                f'force {guard.peak_n:.1f} N exceeded the '
                                f'{guard.limit_n:.1f} N limit; the goal was cancelled',
                                duration_s=took, peak_force_n=guard.peak_n,
                                contact={'peak_force_n': guard.peak_n})
        if guard.stale:
            return MotionResult(MotionStatus.FAILED,
                                'the wrench stream went stale during the motion; the goal '
                                'was cancelled', duration_s=took,
                                details={'code': 'SENSOR_STALE'})
        if outcome.status == 'TIMED_OUT':
            return MotionResult(MotionStatus.TIMED_OUT,
                                f'no result within {took:.1f} s; the goal was cancelled',
                                duration_s=took)
        if outcome.status == 'CANCELED':
            return MotionResult(MotionStatus.STOPPED, 'the motion was cancelled', duration_s=took)
        code = outcome.result.error_code.val if outcome.result is not None else 99999
        if outcome.status == 'SUCCEEDED' and code == SUCCESS:
            return MotionResult(MotionStatus.SUCCEEDED, 'motion finished', duration_s=took)
        if not executing and not error_codes.is_execution_failure(code):
            raise self._error(code, f'MoveIt {outcome.status.lower()} the goal')
        return MotionResult(MotionStatus.FAILED, f'{error_codes.code_name(code)}: '
                            f'{error_codes.advice_for(code)}', duration_s=took,
                            details={'code': error_codes.code_name(code),
                                     'advice': error_codes.advice_for(code)})

    @staticmethod
    def _error(code: int, what: str) -> BackendError:
        name = error_codes.code_name(code)
        return BackendError(name, f'{what}: {name}', advice=error_codes.advice_for(code),
                            details={'moveit_error_code': int(code)})

    async def fk(self, frame: str, link: str, names: list[str],
                 positions: list[float]) -> Pose:
        """Return the pose of ``link`` in ``frame`` for the given joint positions."""
        request = goals.build_fk_request(self.config, frame, link, names, positions)
        cls, client, name = self._service('fk', 'moveit_msgs/srv/GetPositionFK')
        response = await call_service(client, build_message(cls.Request, request), name=name,
                                      timeout_s=2.0)
        if response.error_code.val != SUCCESS or not response.pose_stamped:
            raise self._error(response.error_code.val, 'compute_fk failed')
        ps = response.pose_stamped[0]
        p, q = ps.pose.position, ps.pose.orientation
        return Pose((p.x, p.y, p.z), (q.w, q.x, q.y, q.z), ps.header.frame_id,
                    ps.header.stamp.sec + ps.header.stamp.nanosec * 1e-9)


async def best_effort(coro: Any, timeout_s: float) -> tuple[Any, str]:
    """Await ``coro`` with a timeout; return (value or None, error text)."""
    task = asyncio.ensure_future(coro)
    await asyncio.wait({task}, timeout=timeout_s)
    if not task.done():
        task.cancel()
        return None, f'no answer within {timeout_s} s'
    if isinstance(task.exception(), BackendError):
        return None, str(task.exception())
    return task.result(), ''
