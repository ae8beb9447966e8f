"""
MoveIt error codes: numeric value to name, stage and agent-readable advice.

The values are those of ``moveit_msgs/msg/MoveItErrorCodes`` (identical in
Humble and Jazzy, Jazzy adds ``UNDEFINED = 0``). Pure data; no ROS import.
"""

from __future__ import annotations

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

ADVICE: dict[str, str] = {
    'PLANNING_FAILED': 'MoveIt found no valid plan: the target may be blocked or unreachable '
                       'with this orientation; try a nearby target, another orientation, or '
                       'move to a clearer pose first',
    'INVALID_MOTION_PLAN': 'the plan became invalid; read the robot state and retry',
    'MOTION_PLAN_INVALIDATED_BY_ENVIRONMENT_CHANGE':
        'the scene changed during the motion; check for new obstacles and plan again',
    'CONTROL_FAILED': 'the controller did not follow the trajectory; check the arm for '
                      'contact or a controller fault before retrying',
    'UNABLE_TO_AQUIRE_SENSOR_DATA': 'MoveIt has no sensor data; check the robot drivers',
    'TIMED_OUT': 'planning or execution took too long; allow more time or pick a closer target',
    'PREEMPTED': 'the motion was cancelled by another request',
    'START_STATE_IN_COLLISION': 'the arm starts in collision; move it clear (e.g. back along '
                                'the last motion) before planning',
    'START_STATE_VIOLATES_PATH_CONSTRAINTS': 'the start state breaks the path constraints',
    'START_STATE_INVALID': 'the current robot state is invalid; read joint states and retry',
    'GOAL_IN_COLLISION': 'the target pose is in collision; choose a target away from '
                         'obstacles or the table',
    'GOAL_VIOLATES_PATH_CONSTRAINTS': 'the target breaks the path constraints',
    'GOAL_CONSTRAINTS_VIOLATED': 'the arm did not reach the goal within tolerance; retry or '
                                 'relax the tolerance',
    'GOAL_STATE_INVALID': 'the goal state is invalid (e.g. beyond joint limits)',
    'UNRECOGNIZED_GOAL_TYPE': 'the planner did not understand the goal',
    'INVALID_GROUP_NAME': 'the planning group in robot.yaml (moveit.group) does not exist in '
                          "MoveIt's SRDF; nothing moved. Fix the configuration, not the goal",
    'INVALID_GOAL_CONSTRAINTS': 'the goal is malformed; check frame and link names',
    'INVALID_ROBOT_STATE': 'the robot state is invalid; read joint states and retry',
    'INVALID_LINK_NAME': 'a link name is unknown to MoveIt; check robot.yaml frames',
    'INVALID_OBJECT_NAME': 'an object name is unknown to the planning scene',
    'FRAME_TRANSFORM_FAILURE': 'the target frame cannot be transformed; use the base frame',
    'COLLISION_CHECKING_UNAVAILABLE': 'collision checking is unavailable; check move_group',
    'ROBOT_STATE_STALE': 'the robot state is stale; check that joint states are published',
    'SENSOR_INFO_STALE': 'sensor data is stale; check the sensor drivers',
    'COMMUNICATION_FAILURE': 'MoveIt could not reach a component; check the ROS graph',
    'CRASH': 'a planner crashed; retry, and report it if it repeats',
    'ABORT': 'the planner aborted; retry with a different target',
    'NO_IK_SOLUTION': 'the pose is out of reach; try closer to the base or another orientation',
    'FAILURE': 'MoveIt reported a generic failure; read its log',
    'UNDEFINED': 'MoveIt returned no error code',
}

# Advice where a code means something else while planning (nothing moved yet): OMPL
# answers TIMED_OUT when planning ran out of time; FAILURE comes from an unknown
# pipeline or a planner exception (move_action_capability.cpp).
PLANNING_ADVICE: dict[str, str] = {
    'TIMED_OUT': 'planning ran out of time before a path was found; nothing moved. Allow more '
                 'planning time or choose a target closer to the current pose',
    'FAILURE': 'move_group could not plan the request (unknown planning pipeline or a planner '
               'error); nothing moved. Check moveit.pipeline_id/planner_id in robot.yaml and '
               'the move_group log',
    'PREEMPTED': 'the request was cancelled before a plan was executed; nothing moved',
}


def code_name(value: int) -> str:
    """Return the name of a MoveIt error code value, or ``CODE_<value>``."""
    return CODES.get(int(value), f'CODE_{int(value)}')


def advice_for(value: int, stage: str = '') -> str:
    """Return one sentence an agent can act on for a code (``stage``: planning, execution)."""
    name = code_name(value)
    if stage == 'planning' and name in PLANNING_ADVICE:
        return PLANNING_ADVICE[name]
    return ADVICE.get(name, 'MoveIt reported an unknown error code')
