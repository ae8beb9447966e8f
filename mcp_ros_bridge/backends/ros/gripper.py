"""The gripper through ros2_control's GripperCommand or ParallelGripperCommand action."""

from __future__ import annotations

from typing import Any

from mcp_ros_bridge.backends.port import (BackendError, GraspGoal, GripResult, GripStatus,
                                          ProgressFn, ReleaseGoal)
from mcp_ros_bridge.backends.ros import gripper_goals
from mcp_ros_bridge.backends.ros.actions import ActionOutcome, GoalRunner
from mcp_ros_bridge.backends.ros.messages import build_message, import_interface, message_to_dict
from mcp_ros_bridge.catalog.robot import RobotConfig

WIDTH_TOLERANCE_M = 0.002


class GripperInterface:
    """Closes with a force limit and opens to a width; reports stall and reach."""

    def __init__(self, config: RobotConfig, runner: GoalRunner) -> None:
        """Bind to the goal runner."""
        self.config = config
        self._runner = runner

    async def _command(self, width_m: float, effort_n: float, speed_mps: float,
                       timeout_s: float, progress: ProgressFn | None
                       ) -> tuple[ActionOutcome, dict[str, Any]]:
        action = import_interface(gripper_goals.action_type(self.config), 'action')
        name = self.config.ros.actions['gripper']
        data = gripper_goals.build_gripper_goal(self.config, width_m, effort_n, speed_mps)
        if progress is not None:
            await progress(0.1, f'gripper moving to {width_m * 1000:.0f} mm')
        outcome = await self._runner.run(
            self._runner.client(action, name), build_message(action.Goal, data), name=name,
            timeout_s=timeout_s)
        result = message_to_dict(outcome.result) if outcome.result is not None else {}
        return outcome, result

    def _check_width(self, width_m: float) -> None:
        if not 0.0 <= width_m <= self.config.gripper_max_width_m:
            raise BackendError('INVALID_GOAL', f'width {width_m} m is outside '
                               f'[0, {self.config.gripper_max_width_m}] m')

    async def grasp(self, goal: GraspGoal, progress: ProgressFn | None) -> GripResult:
        """Close until the fingers stall on an object or reach the target width."""
        lo, hi = self.config.gripper_min_force_n, self.config.gripper_max_force_n
        if not lo <= goal.force_n <= hi:
            raise BackendError('INVALID_GOAL', f'force {goal.force_n} N is outside [{lo}, {hi}] N',
                               details={'limit': 'gripper_force', 'min': lo, 'max': hi})
        target = 0.0 if goal.width_m is None else goal.width_m
        self._check_width(target)
        outcome, result = await self._command(target, goal.force_n, goal.speed_mps,
                                              goal.timeout_s, progress)
        return self._result(outcome, result, target, grasp=True)

    async def release(self, goal: ReleaseGoal, progress: ProgressFn | None) -> GripResult:
        """Open to the requested width."""
        self._check_width(goal.width_m)
        outcome, result = await self._command(goal.width_m, self.config.gripper_max_force_n,
                                              goal.speed_mps, goal.timeout_s, progress)
        return self._result(outcome, result, goal.width_m, grasp=False)

    def _result(self, outcome: ActionOutcome, result: dict[str, Any], target: float,
                grasp: bool) -> GripResult:
        took = outcome.duration_s
        if outcome.status in ('TIMED_OUT', 'CANCELED') or not result:
            status = GripStatus.TIMED_OUT if outcome.status == 'TIMED_OUT' else GripStatus.STOPPED
            return GripResult(status, f'gripper goal {outcome.status.lower()}', width_m=0.0,
                              force_n=0.0, object_held=False, duration_s=took)
        state = gripper_goals.read_gripper_result(self.config, result)
        held = grasp and gripper_goals.object_held(state, target)
        reached = state.reached_goal or abs(state.width_m - target) <= WIDTH_TOLERANCE_M
        if grasp:
            status = (GripStatus.SUCCEEDED if held else
                      GripStatus.NO_OBJECT if reached else GripStatus.FAILED)
            message = (f'holding an object {state.width_m * 1000:.1f} mm wide with '
                       f'{state.force_n:.1f} N' if held else
                       'closed without stalling on an object' if reached else
                       f'gripper {outcome.status.lower()} at {state.width_m * 1000:.1f} mm')
        else:
            status = GripStatus.SUCCEEDED if reached else GripStatus.FAILED
            message = f'opened to {state.width_m * 1000:.1f} mm' if reached else \
                f'gripper stopped at {state.width_m * 1000:.1f} mm (asked {target * 1000:.1f})'
        return GripResult(status, message, width_m=state.width_m, force_n=state.force_n,
                          object_held=held, reached_goal=state.reached_goal,
                          stalled=state.stalled, duration_s=took,
                          details={'action_status': outcome.status})
