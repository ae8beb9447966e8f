"""
How an ExecuteTrajectory goal (or the last segment of a motion) ended, as a MotionResult.

Pure reading of an :class:`~.actions.ActionOutcome` and the force guard after it.
"""

from __future__ import annotations

from mcp_ros_bridge.backends.port import MotionResult, MotionStatus
from mcp_ros_bridge.backends.ros import error_codes
from mcp_ros_bridge.backends.ros.actions import ActionOutcome
from mcp_ros_bridge.backends.ros.guard import ForceGuard
from mcp_ros_bridge.messages import t

SUCCESS, PREEMPTED = 1, -7


def interpret(outcome: ActionOutcome, guard: ForceGuard) -> MotionResult:
    """Read how an ExecuteTrajectory goal ended (the plan was made and checked before)."""
    took = outcome.duration_s
    if guard.contact:
        said = (t('moveit_force_over_rating', rated=guard.rated_n) if guard.over_rating
                else t('moveit_force_abort', peak=guard.peak_n, limit=guard.limit_n)
                if guard.compensation.get('force_compensation') == 'gripper_gravity'
                else t('moveit_force_abort_raw', peak=guard.peak_n, limit=guard.limit_n))
        return MotionResult(MotionStatus.CONTACT_ABORT, said,
                            duration_s=took, peak_force_n=guard.peak_n,
                            contact={'peak_force_n': guard.peak_n, 'trip_n': guard.trip_n},
                            details=dict(guard.compensation))
    failed = guard.failure(took)  # the sensor went stale or sent an invalid sample
    if failed is not None:
        return failed
    if outcome.status == 'TIMED_OUT':
        return MotionResult(MotionStatus.TIMED_OUT,
                            t('moveit_no_result', took=took),
                            duration_s=took)
    if outcome.status == 'CANCELED':
        return MotionResult(MotionStatus.STOPPED, t('moveit_cancelled'), duration_s=took)
    code = outcome.result.error_code.val if outcome.result is not None else 99999
    if outcome.status == 'SUCCEEDED' and code == SUCCESS:
        return MotionResult(MotionStatus.SUCCEEDED, t('moveit_finished'), duration_s=took)
    if code == PREEMPTED:  # move_group halted the execution on a stop or cancel
        return MotionResult(MotionStatus.STOPPED, t('moveit_stopped'), duration_s=took)
    advice = error_codes.advice_for(code, 'execution')
    return MotionResult(MotionStatus.FAILED, f'{error_codes.code_name(code)}: {advice}',
                        duration_s=took,
                        details={'code': error_codes.code_name(code), 'advice': advice})


def ended_well(outcome: ActionOutcome) -> bool:
    """Return True when the goal succeeded with MoveIt's SUCCESS."""
    code = outcome.result.error_code.val if outcome.result is not None else None
    return outcome.status == 'SUCCEEDED' and code == SUCCESS
