"""
Verify, never trust: a motion MoveIt reports successful is checked against the measured state.

MoveIt answers SUCCESS for goals it considers already satisfied (a position
constraint on an unknown link counts as satisfied) and controllers stop within
their own tolerances. After every motion the bridge reads joint states, computes
the tip pose by FK and compares both with what was sent; a success that is not
where it was sent becomes ``FAILED`` with the measured error. Pure; no ROS import.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
import math

from mcp_ros_bridge.backends.port import MotionResult, MotionStatus, Pose
from mcp_ros_bridge.messages import t

# What a controller may add to MoveIt's goal tolerance when it settles.
POSITION_SLACK_M = 0.005
ORIENTATION_SLACK_RAD = 0.035
JOINT_SLACK_RAD = 0.01


def angle_between(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """Return the rotation angle (rad) between two unit quaternions (w, x, y, z)."""
    dot = abs(sum(x * y for x, y in zip(a, b)))
    return 2.0 * math.acos(min(1.0, dot))


def _fail(result: MotionResult, what: str, code: str = 'GOAL_NOT_REACHED') -> MotionResult:
    return replace(result, status=MotionStatus.FAILED,
                   message=t('verify_but', what=what),
                   details={**result.details, 'code': code, 'advice': t('verify_advice')})


def check_pose(result: MotionResult, target: Pose, position_tolerance_m: float,
               orientation_tolerance_rad: float) -> MotionResult:
    """Return the result with the measured pose error; an unverified success becomes FAILED."""
    final = result.final_pose
    if final is None or final.frame_id != target.frame_id:
        return result
    error_m = math.dist(final.position, target.position)
    error_rad = angle_between(final.orientation, target.orientation)
    result = replace(result, position_error_m=error_m, orientation_error_rad=error_rad)
    off = (error_m > position_tolerance_m + POSITION_SLACK_M
           or error_rad > orientation_tolerance_rad + ORIENTATION_SLACK_RAD)
    if result.succeeded and off:
        return _fail(result, t('verify_tip_off', mm=error_m * 1000,
                               deg=math.degrees(error_rad)))
    return result


def check_joints(result: MotionResult, targets: Mapping[str, float],
                 tolerance_rad: float) -> MotionResult:
    """Return the result; a joint-goal success whose measured joints are off becomes FAILED."""
    measured = result.joint_positions
    errors = {n: abs(measured[n] - v) for n, v in targets.items() if n in measured}
    if not errors:
        return result
    worst = max(errors, key=errors.__getitem__)
    result = replace(result, details={**result.details,
                                      'max_joint_error_rad': round(errors[worst], 5)})
    if result.succeeded and errors[worst] > tolerance_rad + JOINT_SLACK_RAD:
        return _fail(result, t('verify_joint_off', joint=worst, error=errors[worst]))
    return result


def unverified(result: MotionResult, why: str) -> MotionResult:
    """Return a success that could not be checked as FAILED: it is not known to be true."""
    if result.succeeded:
        return _fail(result, t('verify_unread', why=why), 'UNVERIFIED')
    return result
