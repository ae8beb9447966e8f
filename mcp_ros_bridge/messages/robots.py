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
}
