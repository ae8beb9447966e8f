"""Texts about which robot a backend can drive."""

from mcp_ros_bridge.messages.table import both

TABLE: dict[str, tuple[str, str]] = {
    # backends/sim/backend.py: the embedded simulation's one arm.
    'sim_other_arm': both(
        'the embedded simulation models the Franka Panda ({sim_count} joints {sim_first} .. '
        '{sim_last}); this config describes {robot}, whose arm has {count} joints ({first} .. '
        '{last})',
        '内置仿真只模拟 Franka Panda（{sim_count} 个关节 {sim_first} .. {sim_last}）；此配置描述的是 '
        '{robot}，其机械臂有 {count} 个关节（{first} .. {last}）'),
    'sim_other_arm_fix': both(
        'serve this robot with --backend ros beside its MoveIt, or use the shipped Panda config '
        'for the simulation',
        '请在该机器人的 MoveIt 旁用 --backend ros 运行，或在仿真中使用自带的 Panda 配置'),
    # cli.py: `mcp-ros-bridge init --from-robot`, from the topics a running robot publishes.
    'init_live_read': both(
        'read {topic} ({chars} characters) into {path}',
        '已从 {topic} 读取（{chars} 个字符）并写入 {path}'),
    'init_live_no_urdf': both(
        'nothing arrived on {topic} within {wait} s: is robot_state_publisher (or MoveIt) '
        'running in this ROS_DOMAIN_ID? Nothing was written; start it, or pass --urdf FILE',
        '{wait} 秒内 {topic} 上没有收到任何消息：robot_state_publisher（或 MoveIt）是否在此 '
        'ROS_DOMAIN_ID 中运行？未写入任何文件；请启动它，或传入 --urdf FILE'),
    'init_live_no_srdf': both(
        'nothing arrived on {topic} (no MoveIt move_group?): no SRDF was '
        'written, so the planning group and the named postures are guesses (CHECK)',
        '{topic} 上没有收到任何消息（没有 MoveIt move_group？）：未写入 SRDF，'
        '规划组和命名姿态均为推测（CHECK）'),
    'init_live_needs_source': both(
        'init needs --urdf FILE or --from-robot',
        'init 需要 --urdf FILE 或 --from-robot'),
}
