"""Texts of the robot lease: the refusal another session's motion gets, and release_robot."""

from mcp_ros_bridge.messages.table import both

TABLE: dict[str, tuple[str, str]] = {
    # server/calls.py: a motion while another session holds the lease (safety/lease.py).
    'robot_leased': both(
        '{tool} refused: ROBOT_LEASED: another client, "{client}", drives this arm (its lease '
        'since {since}, renewed by each of its calls; it expires {left} s after its last call). '
        'Nothing moved. Read-only tools and stop_arm still work for you. To drive the arm: '
        'wait until that client calls release_robot, goes away or stays silent for {ttl} s '
        '(then call {tool} again: it will run), or ask the person at the operator console.',
        '{tool} 被拒绝：ROBOT_LEASED：另一个客户端 "{client}" 正在驱动这台机械臂（自 {since} 起持有'
        '租约，其每次调用都会续期；在它最后一次调用 {left} 秒后过期）。没有任何运动。你仍可使用只读'
        '工具和 stop_arm。要驱动机械臂：等待该客户端调用 release_robot、断开连接或 {ttl} 秒内没有'
        '调用（然后再次调用 {tool}：它将执行），或请操作台旁的人处理。'),
    # capabilities/lease.py: release_robot.
    'lease_released': both(
        'Released the arm: another client may drive it now. Your next motion takes it back '
        'if nobody else holds it.',
        '已释放机械臂：其他客户端现在可以驱动它。若无人持有，你的下一次运动会重新取得它。'),
    'lease_not_held': both('You did not hold the arm; nobody holds it now.',
                           '你没有持有机械臂；现在也没有人持有它。'),
    'lease_held_by_other': both(
        'You did not hold the arm: "{client}" holds it (expires {left} s after its last call).',
        '你没有持有机械臂："{client}" 持有它（在其最后一次调用 {left} 秒后过期）。'),
    'lease_off': both('Leases are off on this bridge (lease_ttl_s 0): nothing to release.',
                      '此桥接关闭了租约（lease_ttl_s 为 0）：没有可释放的。'),
    'returns_release_lease': both(
        'released (true when you held the arm) and held_by (the client holding it now, if any)',
        'released（你持有机械臂时为 true）和 held_by（现在持有它的客户端，如有）'),
}
