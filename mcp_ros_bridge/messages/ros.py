"""Texts of the ROS backend's node, sensors, clock and declared interfaces."""

from mcp_ros_bridge.messages.table import both

TABLE: dict[str, tuple[str, str]] = {
    'backend_not_started': both('the {name} backend did not start: {failure!r}',
                                '{name} 后端没有启动：{failure!r}'),
    'backend_not_started_fix': both('see the server log', '请查看服务器日志'),
    'ros_backend_not_started': both('the ROS backend is not started', 'ROS 后端尚未启动'),
    'ros_node_not_running': both('the ROS node is not running', 'ROS 节点没有运行'),
    'ros_not_available': both('{what} is not available after {timeout_s:.1f} s',
                              '{timeout_s:.1f} s 后 {what} 仍不可用'),
    'ros_not_available_fix': both('check that the node serving {what} is running',
                                  '请确认提供 {what} 的节点正在运行'),
    'ros_goal_rejected': both('action {name} rejected the goal', '动作 {name} 拒绝了该目标'),
    'ros_goal_rejected_fix': both('check the goal values and the server state',
                                  '请检查目标值和服务端状态'),
    'ros_service_timeout': both('service {name} did not answer within {timeout_s:.1f} s',
                                '服务 {name} 在 {timeout_s:.1f} s 内没有应答'),
    'ros_service_timeout_fix': both('check the service node; retry later',
                                    '请检查服务节点；稍后重试'),
    'ros_no_camera': both('the ROS backend has no built-in camera capture',
                          'ROS 后端没有内置的相机采集'),
    'ros_no_camera_fix': both('declare a topic binding for the camera topic instead',
                              '请改为为相机话题声明一个话题绑定'),
    'ros_fill_fix': both('send values matching the declared interface', '请发送与声明的接口相符的值'),
    'fill_request_for': both('request for {service}', '{service} 的请求'),
    'fill_goal_for': both('goal for {action}', '{action} 的目标'),
    'fill_mapping': both('{where}: expected a mapping for {name}, got {value!r}',
                         '{where}：{name} 应为映射，实际为 {value!r}'),
    'fill_list': both('{where}: expected a list, got {value!r}', '{where}：应为列表，实际为 {value!r}'),
    'fill_exact': both('{where}: expected exactly {size} items, got {got}',
                       '{where}：应恰好有 {size} 项，实际为 {got}'),
    'fill_at_most': both('{where}: at most {size} items, got {got}',
                         '{where}：最多 {size} 项，实际为 {got}'),
    'fill_string': both('{where}: expected a string, got {value!r}',
                        '{where}：应为字符串，实际为 {value!r}'),
    'fill_bool': both('{where}: expected true or false, got {value!r}',
                      '{where}：应为 true 或 false，实际为 {value!r}'),
    'fill_byte': both('{where}: expected a byte (0..255), got {value!r}',
                      '{where}：应为一个字节 (0..255)，实际为 {value!r}'),
    'fill_number': both('{where}: expected a number ({typename}), got {value!r}',
                        '{where}：应为数字（{typename}），实际为 {value!r}'),
    'fill_integer': both('{where}: expected an integer in [{low}, {high}] ({typename}), got '
                         '{value!r}',
                         '{where}：应为 [{low}, {high}] 内的整数（{typename}），实际为 {value!r}'),
    'fill_no_field': both('{where}: no such field in {type}; fields are {fields}',
                          '{where}：{type} 中没有该字段；字段有 {fields}'),
    'ros_cannot_subscribe': both('cannot subscribe to {topic}: {exc}', '无法订阅 {topic}：{exc}'),
    'ros_no_message_within': both('no message on {topic} within {wait_s} s',
                                  '{wait_s} s 内 {topic} 上没有消息'),
    'ros_publish_fix': both('check that a node publishes {topic}', '请确认有节点在发布 {topic}'),
    'ros_message_stale': both(
        'the newest message on {topic} is {age:.3f} s old (max {max_age:.3f} s)',
        '{topic} 上最新的消息已是 {age:.3f} s 前的（最大 {max_age:.3f} s）'),
    'ros_not_a_type_name': both('{type_name!r} is not an interface type name',
                                '{type_name!r} 不是接口类型名'),
    'ros_not_a_type_name_fix': both(
        'use the form package/msg/Type, package/srv/Type or package/action/Type',
        '请使用 package/msg/Type、package/srv/Type 或 package/action/Type 的形式'),
    'ros_not_installed': both('interface {type} is not installed', '接口 {type} 未安装'),
    'ros_not_installed_fix': both('install the {package} package on the bridge machine',
                                  '请在桥接机器上安装 {package} 包'),
    'ros_sensor_stale': both(
        'the newest sample on {topic} is {age_s:.3f} s old (max {max_age_s:.3f} s)',
        '{topic} 上最新的样本已是 {age_s:.3f} s 前的（最大 {max_age_s:.3f} s）'),
    'ros_sensor_stale_fix': both(
        'check that the driver publishing {topic} is running; retry when it is',
        '请确认发布 {topic} 的驱动正在运行；运行后重试'),
    'sensor_none': both('no message received on {topic} yet', '{topic} 上尚未收到任何消息'),
    'sensor_none_fix': both('check that a driver publishes {topic} and that QoS match',
                            '请确认有驱动在发布 {topic}，且 QoS 匹配'),
    'sensor_joints_missing': both('{topic} has no data for {missing}', '{topic} 没有 {missing} 的数据'),
    'sensor_joints_missing_fix': both('check the joint state publisher and robot.yaml names',
                                      '请检查关节状态发布者和 robot.yaml 中的名称'),
    'clock_sim_stamps': both(
        '{topic} is stamped with simulation time ({stamp_s:.3f} s) but this node uses the wall '
        'clock (use_sim_time is false), so every sample looks {age_s:.0f} s old',
        '{topic} 的时间戳是仿真时间（{stamp_s:.3f} s），但本节点使用墙上时钟（use_sim_time 为 '
        'false），因此每个样本看起来都是 {age_s:.0f} s 前的'),
    'clock_wall_stamps': both(
        '{topic} is stamped with wall-clock time ({stamp_s:.3f} s since 1970) but this node uses '
        'simulation time from /clock ({now_s:.3f} s, use_sim_time is true)',
        '{topic} 的时间戳是墙上时钟时间（自 1970 年起 {stamp_s:.3f} s），但本节点使用来自 /clock '
        '的仿真时间（{now_s:.3f} s，use_sim_time 为 true）'),
    'clock_none': both(
        'use_sim_time is true but no message has arrived on /clock yet, so sample ages cannot '
        'be computed',
        'use_sim_time 为 true，但 /clock 上尚未收到任何消息，因此无法计算样本时龄'),
    'clock_fix_sim': both(
        'start the bridge with use_sim_time true: `ros2 launch mcp_ros_bridge bridge.launch.py '
        'use_sim_time:=true`, `mcp-ros-bridge serve --backend ros --use-sim-time`, or '
        '`--ros-args -p use_sim_time:=true`',
        '请以 use_sim_time 为 true 启动桥接：`ros2 launch mcp_ros_bridge bridge.launch.py '
        'use_sim_time:=true`、`mcp-ros-bridge serve --backend ros --use-sim-time` 或 '
        '`--ros-args -p use_sim_time:=true`'),
    'clock_fix_wall': both(
        'either give the publisher use_sim_time:=true too (controller_manager, '
        'robot_state_publisher, the sensor driver) or start the bridge without use_sim_time '
        'when no simulator runs',
        '要么也给发布者设置 use_sim_time:=true（controller_manager、robot_state_publisher、'
        '传感器驱动），要么在没有仿真器运行时不带 use_sim_time 启动桥接'),
    'clock_fix_none': both(
        'start the simulator and bridge its clock to ROS, e.g. `ros2 run ros_gz_bridge '
        'parameter_bridge /clock@rosgraph_msgs/msg/Clock[gz.msgs.Clock`; without a simulator, '
        'run the bridge without use_sim_time',
        '请启动仿真器并把它的时钟桥接到 ROS，例如 `ros2 run ros_gz_bridge parameter_bridge '
        '/clock@rosgraph_msgs/msg/Clock[gz.msgs.Clock`；没有仿真器时，请不带 use_sim_time 运行桥接'),
    'ros_stop_not_running': both('the ROS backend is not running; nothing to stop',
                                 'ROS 后端没有运行；无需停止'),
    'ros_stop_unconfirmed': both(
        'stop sent on {topic} and {count} goal(s) cancelled, but the arm is not confirmed still '
        'after {waited:.1f} s: {why}',
        '已在 {topic} 上发送停止并取消了 {count} 个目标，但 {waited:.1f} s 后仍未确认机械臂静止：{why}'),
    'ros_stop_unconfirmed_fix': both('use the emergency stop of the robot; check get_joint_states',
                                     '请使用机器人的急停；并检查 get_joint_states'),
    'ros_stop_cancelled': both('cancelled {count} running goal(s)', '已取消 {count} 个运行中的目标'),
    'ros_stop_nothing_running': both('no motion was running', '没有正在运行的运动'),
    'ros_stop_confirmed': both('{what}; joint states confirm the arm is still',
                               '{what}；关节状态确认机械臂已静止'),
    'halt_no_joint_states': both('no joint states', '没有关节状态'),
    'halt_still_moving': both('an arm joint still moves at {speed:.3f} rad/s',
                              '有机械臂关节仍以 {speed:.3f} rad/s 运动'),
}
