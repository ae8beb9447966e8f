"""Advice for MoveIt error codes (``backends/ros/error_codes.py``), by code name."""

from mcp_ros_bridge.messages.table import both

TABLE: dict[str, tuple[str, str]] = {
    'moveit_PLANNING_FAILED': both(
        'MoveIt found no valid plan: the target may be blocked or unreachable with this '
        'orientation; try a nearby target, another orientation, or move to a clearer pose first',
        'MoveIt 没有找到有效规划：目标可能被挡住，或在此姿态下无法到达；请尝试附近的目标、其他姿态，或先移到更空旷的位姿'),
    'moveit_INVALID_MOTION_PLAN': both(
        'the plan became invalid; read the robot state and retry',
        '规划已失效；请读取机器人状态后重试'),
    'moveit_MOTION_PLAN_INVALIDATED_BY_ENVIRONMENT_CHANGE': both(
        'the scene changed during the motion; check for new obstacles and plan again',
        '运动过程中场景发生了变化；请检查新障碍物并重新规划'),
    'moveit_CONTROL_FAILED': both(
        'the controller did not follow the trajectory; check the arm for contact or a '
        'controller fault before retrying',
        '控制器没有跟随轨迹；重试前请检查机械臂是否有接触或控制器故障'),
    'moveit_UNABLE_TO_AQUIRE_SENSOR_DATA': both(
        'MoveIt has no sensor data; check the robot drivers',
        'MoveIt 没有传感器数据；请检查机器人驱动'),
    'moveit_TIMED_OUT': both(
        'planning or execution took too long; allow more time or pick a closer target',
        '规划或执行耗时过长；请留出更多时间或选择更近的目标'),
    'moveit_PREEMPTED': both('the motion was cancelled by another request', '运动被另一个请求取消'),
    'moveit_START_STATE_IN_COLLISION': both(
        'the arm starts in collision; move it clear (e.g. back along the last motion) before '
        'planning',
        '机械臂起始状态处于碰撞中；规划前请先移开（例如沿上一次运动退回）'),
    'moveit_START_STATE_VIOLATES_PATH_CONSTRAINTS': both(
        'the start state breaks the path constraints',
        '起始状态违反路径约束'),
    'moveit_START_STATE_INVALID': both(
        'the current robot state is invalid; read joint states and retry',
        '当前机器人状态无效；请读取关节状态后重试'),
    'moveit_GOAL_IN_COLLISION': both(
        'the target pose is in collision; choose a target away from obstacles or the table',
        '目标位姿处于碰撞中；请选择远离障碍物或桌面的目标'),
    'moveit_GOAL_VIOLATES_PATH_CONSTRAINTS': both(
        'the target breaks the path constraints',
        '目标违反路径约束'),
    'moveit_GOAL_CONSTRAINTS_VIOLATED': both(
        'the arm did not reach the goal within tolerance; retry or relax the tolerance',
        '机械臂没有在容差内到达目标；请重试或放宽容差'),
    'moveit_GOAL_STATE_INVALID': both(
        'the goal state is invalid (e.g. beyond joint limits)',
        '目标状态无效（例如超出关节限位）'),
    'moveit_UNRECOGNIZED_GOAL_TYPE': both('the planner did not understand the goal', '规划器无法理解该目标'),
    'moveit_INVALID_GROUP_NAME': both(
        "the planning group in robot.yaml (moveit.group) does not exist in MoveIt's SRDF; "
        'nothing moved. Fix the configuration, not the goal',
        'robot.yaml 中的规划组（moveit.group）在 MoveIt 的 SRDF 中不存在；没有任何运动。请修正配置，而不是目标'),
    'moveit_INVALID_GOAL_CONSTRAINTS': both(
        'the goal is malformed; check frame and link names',
        '目标格式错误；请检查坐标系和连杆名称'),
    'moveit_INVALID_ROBOT_STATE': both(
        'the robot state is invalid; read joint states and retry',
        '机器人状态无效；请读取关节状态后重试'),
    'moveit_INVALID_LINK_NAME': both(
        'a link name is unknown to MoveIt; check robot.yaml frames',
        'MoveIt 不认识某个连杆名称；请检查 robot.yaml 的 frames'),
    'moveit_INVALID_OBJECT_NAME': both(
        'an object name is unknown to the planning scene',
        '规划场景中没有该物体名称'),
    'moveit_FRAME_TRANSFORM_FAILURE': both(
        'the target frame cannot be transformed; use the base frame',
        '无法变换目标坐标系；请使用基座坐标系'),
    'moveit_COLLISION_CHECKING_UNAVAILABLE': both(
        'collision checking is unavailable; check move_group',
        '碰撞检测不可用；请检查 move_group'),
    'moveit_ROBOT_STATE_STALE': both(
        'the robot state is stale; check that joint states are published',
        '机器人状态过旧；请检查关节状态是否在发布'),
    'moveit_SENSOR_INFO_STALE': both(
        'sensor data is stale; check the sensor drivers',
        '传感器数据过旧；请检查传感器驱动'),
    'moveit_COMMUNICATION_FAILURE': both(
        'MoveIt could not reach a component; check the ROS graph',
        'MoveIt 无法连接某个组件；请检查 ROS 图'),
    'moveit_CRASH': both(
        'a planner crashed; retry, and report it if it repeats',
        '规划器崩溃；请重试，若反复出现请报告'),
    'moveit_ABORT': both('the planner aborted; retry with a different target', '规划器中止；请换一个目标重试'),
    'moveit_NO_IK_SOLUTION': both(
        'the pose is out of reach; try closer to the base or another orientation',
        '该位姿无法到达；请尝试离基座更近的点或其他姿态'),
    'moveit_FAILURE': both(
        'MoveIt reported a generic failure; read its log',
        'MoveIt 报告了一般性失败；请查看其日志'),
    'moveit_UNDEFINED': both('MoveIt returned no error code', 'MoveIt 没有返回错误码'),
    'moveit_planning_TIMED_OUT': both(
        'planning ran out of time before a path was found; nothing moved. Allow more planning '
        'time or choose a target closer to the current pose',
        '在找到路径之前规划时间已用完；没有任何运动。请留出更多规划时间或选择离当前位姿更近的目标'),
    'moveit_planning_FAILURE': both(
        'move_group could not plan the request (unknown planning pipeline or a planner error); '
        'nothing moved. Check moveit.pipeline_id/planner_id in robot.yaml and the move_group log',
        'move_group 无法规划该请求（未知的规划管线或规划器错误）；没有任何运动。请检查 robot.yaml 中的 '
        'moveit.pipeline_id/planner_id 以及 move_group 日志'),
    'moveit_planning_PREEMPTED': both(
        'the request was cancelled before a plan was executed; nothing moved',
        '请求在执行规划之前被取消；没有任何运动'),
    'moveit_unknown': both('MoveIt reported an unknown error code', 'MoveIt 报告了未知错误码'),
    # backends/ros/moveit.py: progress of a MoveGroup / ExecuteTrajectory goal by feedback state.
    'moveit_state_planning': both('planning', '规划中'),
    'moveit_state_executing': both('executing', '执行中'),
    'moveit_state_looking': both('looking around', '环顾中'),
    'moveit_state_finishing': both('finishing', '即将完成'),
}
