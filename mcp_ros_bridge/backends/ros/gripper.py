"""
The gripper through ros2_control's GripperCommand or ParallelGripperCommand action, honestly.

What ros2_controllers' GripperActionController (gripper_action_controller_impl.hpp,
hardware_interface_adapter.hpp) actually does shapes what is reported here:

* On a position interface it writes a position only; the result's ``effort``
  echoes the commanded ``max_effort``. So the force is reported as commanded
  (``force_source: commanded``) unless ``ros.gripper_force_source: joint_effort``
  says the finger joints' effort in /joint_states is a measurement.
* It answers ``reached_goal`` once within ``goal_tolerance`` (0.01 per finger by
  default): closing on an object narrower than ~20 mm looks "reached". The width
  is therefore read from /joint_states once the fingers are still, and an object
  is held (``HOLDING``) when the fingers stopped short of the commanded width.
  The controller's own flags go to ``details`` only.
* A grasp while holding sends a new goal with the new effort: the controller
  re-regulates without opening. The gripper state and slip come from the finger
  gap in /joint_states (see :func:`gripper_goals.grip_state`).
* GripperCommand has no speed field: a slower closing ("gentle") cannot be
  commanded and is refused; ParallelGripperCommand carries the velocity.
* Widths are the finger gap in metres everywhere here; ``gripper.command``
  (:mod:`mcp_ros_bridge.catalog.gripper_command`) turns a gap into the joint's
  command (m or rad, open and closed in either order) and its measured joint
  position back into a gap.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
import time
from typing import Any

from mcp_ros_bridge.backends.port import (BackendError, GraspGoal, GripperState, GripResult,
                                          GripStatus, JointStates, ProgressFn, ReleaseGoal)
from mcp_ros_bridge.backends.ros import gripper_goals
from mcp_ros_bridge.backends.ros.actions import ActionOutcome, GoalRunner
from mcp_ros_bridge.backends.ros.messages import build_message, import_interface, message_to_dict
from mcp_ros_bridge.catalog.robot import RobotConfig
from mcp_ros_bridge.messages import t

WIDTH_TOLERANCE_M = 0.002
STANDARD_SPEED_MPS = 0.05  # GraspGoal's default: what GripperCommand's controller does anyway
SETTLE_S, SETTLE_M = 1.0, 0.0002  # fingers count as still when the gap changes less


class GripperInterface:
    """Closes with a force limit and opens to a width; reports measured width and stall."""

    def __init__(self, config: RobotConfig, runner: GoalRunner,
                 read_joints: Callable[[], Awaitable[JointStates]] | None = None) -> None:
        """Bind to the goal runner and a reader of the finger joint states."""
        self.config = config
        self._runner = runner
        self._read_joints = read_joints
        self._hold: gripper_goals.Hold | None = None

    @property
    def holding(self) -> bool:
        """Return True while the newest grasp took hold of an object."""
        return self._hold is not None

    async def _command(self, width_m: float, effort_n: float, speed_mps: float,
                       timeout_s: float, progress: ProgressFn | None
                       ) -> tuple[ActionOutcome, dict[str, Any]]:
        action = import_interface(gripper_goals.action_type(self.config), 'action')
        name = self.config.ros.actions['gripper']
        data = gripper_goals.build_gripper_goal(self.config, width_m, effort_n, speed_mps)
        if progress is not None:
            await progress(0.1, t('gripper_moving', mm=width_m * 1000))
        outcome = await self._runner.run(
            self._runner.client(action, name), build_message(action.Goal, data), name=name,
            timeout_s=timeout_s)
        result = message_to_dict(outcome.result) if outcome.result is not None else {}
        return outcome, result

    def _check_width(self, width_m: float) -> None:
        if not 0.0 <= width_m <= self.config.gripper_max_width_m:
            raise BackendError('INVALID_GOAL', t('gripper_width_outside', width=width_m,
                                                 max=self.config.gripper_max_width_m))

    def _check_speed(self, speed_mps: float) -> None:
        if (gripper_goals.interface(self.config) == 'gripper_command'
                and abs(speed_mps - STANDARD_SPEED_MPS) > 1e-9):
            raise BackendError(
                'UNSUPPORTED', t('gripper_no_speed', mm_s=speed_mps * 1000),
                advice=t('gripper_no_speed_fix'),
                details={'speed_mps': speed_mps})

    async def grasp(self, goal: GraspGoal, progress: ProgressFn | None) -> GripResult:
        """Close until the fingers stop on an object or reach the target width."""
        lo, hi = self.config.gripper_min_force_n, self.config.gripper_max_force_n
        if not lo <= goal.force_n <= hi:
            raise BackendError('INVALID_GOAL', t('gripper_force_outside', force=goal.force_n,
                                                 lo=lo, hi=hi),
                               details={'limit': 'gripper_force', 'min': lo, 'max': hi})
        target = 0.0 if goal.width_m is None else goal.width_m
        self._check_width(target)
        self._check_speed(goal.speed_mps)
        outcome, result = await self._command(target, goal.force_n, goal.speed_mps,
                                              goal.timeout_s, progress)
        return await self._result(outcome, result, target, goal.force_n, grasp=True)

    async def release(self, goal: ReleaseGoal, progress: ProgressFn | None) -> GripResult:
        """Open to the requested width."""
        self._check_width(goal.width_m)
        outcome, result = await self._command(goal.width_m, self.config.gripper_max_force_n,
                                              goal.speed_mps, goal.timeout_s, progress)
        return await self._result(outcome, result, goal.width_m,
                                  self.config.gripper_max_force_n, grasp=False)

    async def _fingers(self) -> tuple[float, float] | None:
        """Return (gap m, summed finger effort) from the finger joint states, or None."""
        if self._read_joints is None or not self.config.gripper_joints:
            return None
        mapping = self.config.gripper_command
        joints = await self._read_joints()
        values = dict(zip(joints.names, zip(joints.positions, joints.efforts)))
        if mapping.joint not in values:
            return None
        effort = sum(abs(values[n][1]) for n in self.config.gripper_joints if n in values)
        return mapping.gap_m(values[mapping.joint][0]), effort

    async def _measured(self) -> tuple[float, float] | None:
        """Return (gap m, summed finger effort) once the fingers are still, or None."""
        last: float | None = None
        start = time.monotonic()
        while time.monotonic() - start < SETTLE_S:
            try:
                fingers = await self._fingers()
            except BackendError:
                return None
            if fingers is None:
                return None
            if last is not None and abs(fingers[0] - last) < SETTLE_M:
                return fingers
            last = fingers[0]
            await asyncio.sleep(0.05)
        return None

    def _force(self, effort: float, commanded_n: float) -> tuple[float, str]:
        if self.config.ros.gripper_force_source == 'joint_effort':
            return effort, 'measured'
        return commanded_n, 'commanded'

    async def state(self) -> GripperState:
        """Return the gripper state from the finger joint states; nothing moves."""
        fingers = await self._fingers()
        if fingers is None:
            raise BackendError('UNAVAILABLE', t('gripper_no_fingers',
                                                joints=list(self.config.gripper_joints)),
                               advice=t('gripper_no_fingers_fix'))
        hold = self._hold
        return gripper_goals.grip_state(
            hold, fingers[0], self._force(fingers[1], hold.effort_n if hold else 0.0))

    async def _result(self, outcome: ActionOutcome, result: dict[str, Any], target: float,
                      commanded_n: float, grasp: bool) -> GripResult:
        took = outcome.duration_s
        if outcome.status in ('TIMED_OUT', 'CANCELED') or not result:
            status = GripStatus.TIMED_OUT if outcome.status == 'TIMED_OUT' else GripStatus.STOPPED
            ended = t('gripper_goal_ended', status=outcome.status.lower())
            return GripResult(status, ended, width_m=0.0,
                              force_n=0.0, object_held=False, duration_s=took)
        state = gripper_goals.read_gripper_result(self.config, result)
        measured = await self._measured()
        width = measured[0] if measured is not None else state.width_m
        force, source = (self._force(measured[1], commanded_n) if measured is not None
                         else (commanded_n, 'commanded'))
        held = grasp and width > target + gripper_goals.CLOSED_EPS_M
        reached = abs(width - target) <= WIDTH_TOLERANCE_M
        said = f'{force:.1f} N' if source == 'measured' else t('gripper_commanded', force=force)
        if grasp:
            status = (GripStatus.HOLDING if held else
                      GripStatus.EMPTY if reached else GripStatus.FAILED)
            message = (t('ros_gripper_holding', mm=width * 1000, said=said) if held else
                       t('gripper_closed_empty') if reached else
                       t('gripper_ended_at', status=outcome.status.lower(), mm=width * 1000))
        else:
            status = GripStatus.OPEN if reached else GripStatus.FAILED
            message = t('gripper_opened', mm=width * 1000) if reached else \
                t('gripper_stopped_at', mm=width * 1000, asked=target * 1000)
        self._hold = gripper_goals.Hold(width, commanded_n) if held else None
        return GripResult(status, message, width_m=width, force_n=force, object_held=held,
                          duration_s=took, force_source=source,
                          details={'action_status': outcome.status,
                                   'width_source': 'joint_states' if measured else 'result',
                                   'controller_reached_goal': state.reached_goal,
                                   'controller_stalled': state.stalled})
