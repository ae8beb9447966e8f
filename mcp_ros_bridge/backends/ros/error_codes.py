"""
MoveIt error codes: numeric value to name, stage and agent-readable advice.

The values are those of ``moveit_msgs/msg/MoveItErrorCodes`` (identical in
Humble and Jazzy, Jazzy adds ``UNDEFINED = 0``). Pure data; no ROS import. The
advice is in the message table (``messages/moveit.py``).
"""

from __future__ import annotations

from mcp_ros_bridge.messages import MESSAGES, t

CODES: dict[int, str] = {
    1: 'SUCCESS', 0: 'UNDEFINED', 99999: 'FAILURE',
    -1: 'PLANNING_FAILED', -2: 'INVALID_MOTION_PLAN',
    -3: 'MOTION_PLAN_INVALIDATED_BY_ENVIRONMENT_CHANGE', -4: 'CONTROL_FAILED',
    -5: 'UNABLE_TO_AQUIRE_SENSOR_DATA', -6: 'TIMED_OUT', -7: 'PREEMPTED',
    -10: 'START_STATE_IN_COLLISION', -11: 'START_STATE_VIOLATES_PATH_CONSTRAINTS',
    -26: 'START_STATE_INVALID', -12: 'GOAL_IN_COLLISION',
    -13: 'GOAL_VIOLATES_PATH_CONSTRAINTS', -14: 'GOAL_CONSTRAINTS_VIOLATED',
    -27: 'GOAL_STATE_INVALID', -28: 'UNRECOGNIZED_GOAL_TYPE', -15: 'INVALID_GROUP_NAME',
    -16: 'INVALID_GOAL_CONSTRAINTS', -17: 'INVALID_ROBOT_STATE', -18: 'INVALID_LINK_NAME',
    -19: 'INVALID_OBJECT_NAME', -21: 'FRAME_TRANSFORM_FAILURE',
    -22: 'COLLISION_CHECKING_UNAVAILABLE', -23: 'ROBOT_STATE_STALE',
    -24: 'SENSOR_INFO_STALE', -25: 'COMMUNICATION_FAILURE', -29: 'CRASH', -30: 'ABORT',
    -31: 'NO_IK_SOLUTION',
}


def code_name(value: int) -> str:
    """Return the name of a MoveIt error code value, or ``CODE_<value>``."""
    return CODES.get(int(value), f'CODE_{int(value)}')


def advice_for(value: int, stage: str = '') -> str:
    """Return one sentence an agent can act on for a code (``stage``: planning, execution)."""
    name = code_name(value)
    for key in ([f'moveit_planning_{name}'] if stage == 'planning' else []) + [f'moveit_{name}']:
        if key in MESSAGES:
            return t(key)
    return t('moveit_unknown')
