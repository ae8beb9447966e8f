"""Texts of the simulation's motions, Cartesian paths, stop and gripper."""

from mcp_ros_bridge.messages.table import both

TABLE = {
    'sim_halt_request': both('stopped on request', '已按请求停止'),
    'sim_halt_closing': both('backend closing', '后端正在关闭'),
    'sim_halt_cancelled': both('cancelled by the client', '已被客户端取消'),
    'sim_stopped_motion': both('stopped the running motion; holding position',
                               '已停止正在进行的运动；保持当前位置'),
    'sim_nothing_moving': both('nothing was moving; holding position', '没有正在进行的运动；保持当前位置'),
    'sim_label_pose': both('moving to pose', '正在移动到位姿'),
    'sim_label_joints': both('moving joints', '正在移动关节'),
    'sim_label_path': both('following path', '正在沿路径运动'),
    'sim_joint_outside': both('{joint}={value} not in [{lo}, {hi}]',
                              '{joint}={value} 不在 [{lo}, {hi}] 内'),
    'sim_path_partial': both(
        'only {fraction} of the path is feasible ({reason}); nothing was executed',
        '只有 {fraction} 的路径可行（{reason}）；没有执行任何运动'),
    'sim_path_at_end': both('already at the path end', '已在路径终点'),
    'sim_path_followed': both('followed {fraction} of the path in {duration} s{stopped}',
                              '已在 {duration} 秒内走完 {fraction} 的路径{stopped}'),
    'sim_path_stopped_before': both(' (stopped before: {reason})', '（在此之前停止：{reason}）'),
    'sim_stop_no_ik': both('no IK solution along the line', '沿直线没有逆运动学解'),
    'sim_stop_jump': both('joint-space jump (near a singularity or joint limit)',
                          '关节空间跳变（接近奇异位形或关节限位）'),
    'sim_stop_collision': both('collision ahead: {hits}', '前方有碰撞：{hits}'),
    'sim_path_exit': both('{message} while executing; the arm stopped', '执行中{message}；机械臂已停止'),
    'sim_motion_timeout': both('the motion exceeded its {timeout} s timeout and was stopped',
                               '运动超过了 {timeout} 秒的超时，已被停止'),
    'sim_run_ended': both('{status} after {duration} s', '{duration} 秒后结束：{status}'),
    'sim_ros_topics': both('reading ROS topics', '读取 ROS 话题'),
    'sim_ros_services': both('calling ROS services', '调用 ROS 服务'),
    'sim_ros_actions': both('sending ROS action goals', '发送 ROS 动作目标'),
    'sim_grasp_timeout': both('no grasp within {timeout} s', '{timeout} 秒内未完成抓取'),
    'sim_grasp_keep': both('{why}; the fingers keep their grip', '{why}；手指保持夹持'),
    'sim_grasp_hold_width': both('{why}; the fingers hold their width', '{why}；手指保持当前开度'),
    'sim_grasp_empty': both(
        'No object between the fingers: the gripper closed fully without touching anything.',
        '手指之间没有物体：夹爪已完全闭合，未接触任何东西。'),
    'sim_grasp_closing': both('closing, width {mm} mm', '正在闭合，开度 {mm} mm'),
    'sim_grasp_holding_progress': both('holding {name} at {force} N', '正以 {force} N 夹持 {name}'),
    'sim_grasp_holding': both(
        'Holding {name}: width {mm} mm, grip force {force} N (requested {requested} N).',
        '正在夹持 {name}：开度 {mm} mm，夹持力 {force} N（请求 {requested} N）。'),
    'sim_grasp_not_graspable': both(
        'The fingers closed on {name}, which is not a graspable object.',
        '手指闭合在 {name} 上，它不是可抓取的物体。'),
    'sim_release_open': both('Opened to {mm} mm.', '已张开到 {mm} mm。'),
    'sim_release_timeout': both('the fingers did not reach {mm} mm within {timeout} s',
                                '手指未能在 {timeout} 秒内到达 {mm} mm'),
    # backends/sim/backend.py: what a stale read was for.
    'sim_what_joints': both('joint states', '关节状态'),
    'sim_what_wrench': both('wrench samples', '力/力矩样本'),
    'sim_what_gripper': both('gripper states', '夹爪状态'),
}
