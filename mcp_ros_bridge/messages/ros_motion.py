"""Texts of motion and gripper goals on the ROS backend: checks, results, verification."""

from mcp_ros_bridge.messages.table import both

TABLE: dict[str, tuple[str, str]] = {
    'goal_scaling_outside': both('{name}={value!r} is outside (0, {cap}]',
                                 '{name}={value!r} 超出 (0, {cap}]'),
    'goal_scaling_fix': both('send {name} greater than 0 and at most {cap}',
                             '请发送大于 0 且不超过 {cap} 的 {name}'),
    'goal_not_finite': both('pose has non-finite values: {values}', '位姿含有非有限值：{values}'),
    'goal_not_unit': both('orientation is not a unit quaternion (w, x, y, z)',
                          'orientation 不是单位四元数 (w, x, y, z)'),
    'goal_outside_workspace': both(
        'position {position} is outside the workspace box {lo}..{hi} in {frame}',
        'position {position} 超出 {frame} 中的工作空间盒 {lo}..{hi}'),
    'goal_outside_workspace_fix': both('choose a target inside the workspace box',
                                       '请选择工作空间盒内的目标'),
    'goal_tolerances': both('tolerances must be greater than 0', '容差必须大于 0'),
    'goal_unknown_joints': both('unknown or missing joints: {unknown}', '未知或缺少的关节：{unknown}'),
    'goal_unknown_joints_fix': both('use joint names from {names}', '请使用 {names} 中的关节名'),
    'goal_joint_not_finite': both('{name} position {value!r} is not finite',
                                  '{name} 的位置 {value!r} 不是有限值'),
    'goal_speed_positive': both('max Cartesian speed {speed!r} must be > 0',
                                '最大笛卡尔速度 {speed!r} 必须 > 0'),
    'path_no_waypoints': both('a Cartesian path needs at least one waypoint',
                              '笛卡尔路径至少需要一个路径点'),
    'path_several_frames': both('waypoints use several frames: {frames}',
                                '路径点使用了多个坐标系：{frames}'),
    'path_several_frames_fix': both('express every waypoint in the same frame',
                                    '请在同一坐标系中表示所有路径点'),
    'path_step_outside': both('max_step_m={step} is outside (0, 0.05]',
                              'max_step_m={step} 超出 (0, 0.05]'),
    'plan_missing_joints': both('the plan has no values for {missing}', '规划中没有 {missing} 的值'),
    'plan_missing_joints_fix': both(
        'check moveit.group in robot.yaml: it must move the arm joints',
        '请检查 robot.yaml 中的 moveit.group：它必须驱动机械臂关节'),
    'plan_joint_limit': both(
        'the planned path puts {name} at {q:.4f} rad at t={t:.3f} s (sample {k} of {n}), outside '
        '[{lo:.4f}, {hi:.4f}]; nothing moved',
        '规划路径在 t={t:.3f} s（第 {k} 个样本，共 {n} 个）使 {name} 位于 {q:.4f} rad，超出 '
        '[{lo:.4f}, {hi:.4f}]；没有任何运动'),
    'plan_joint_limit_fix': both('choose a target that keeps the joints away from their limits',
                                 '请选择使关节远离其限位的目标'),
    'moveit_stopped_planning': both('stopped while planning; nothing moved', '规划时已停止；没有任何运动'),
    'moveit_no_plan_within': both('no plan within {took:.1f} s; nothing moved',
                                  '{took:.1f} s 内没有规划结果；没有任何运动'),
    'moveit_status_planning': both('MoveIt {status} the goal while planning',
                                   'MoveIt 在规划时 {status} 了该目标'),
    'moveit_goal_met': both('MoveIt planned no motion: the goal is met',
                            'MoveIt 没有规划运动：目标已满足'),
    'moveit_stopped_before': both('stopped before execution; nothing moved',
                                  '执行前已停止；没有任何运动'),
    'moveit_computing_path': both('computing the Cartesian path', '正在计算笛卡尔路径'),
    'moveit_cartesian_failed': both('compute_cartesian_path failed', 'compute_cartesian_path 失败'),
    'moveit_partial': both(
        'only {fraction:.0%} of the path is feasible (minimum {minimum:.0%}); nothing moved',
        '只有 {fraction:.0%} 的路径可行（最低 {minimum:.0%}）；没有任何运动'),
    'moveit_partial_fix': both('move obstacles, shorten the path or choose waypoints closer to '
                               'the base', '请移开障碍物、缩短路径或选择离基座更近的路径点'),
    'moveit_finished': both('motion finished', '运动完成'),
    'moveit_executing_part': both('executing, part {k} of {n}', '执行中，第 {k} 段，共 {n} 段'),
    'moveit_force_abort': both(
        "contact force {peak:.1f} N (net of the gripper's weight) exceeded the {limit:.1f} N "
        'limit; the goal was cancelled',
        '接触力 {peak:.1f} N（已扣除夹爪重量）超过了 {limit:.1f} N 的上限；目标已取消'),
    'moveit_force_abort_raw': both(
        'force {peak:.1f} N exceeded the {limit:.1f} N limit; the goal was cancelled (the '
        "sensor's orientation was unknown, so the gripper's weight was not subtracted)",
        '力 {peak:.1f} N 超过了 {limit:.1f} N 的上限；目标已取消（传感器姿态未知，未扣除夹爪重量）'),
    'moveit_force_over_rating': both(
        "the F/T sensor's reading exceeded its {rated:.0f} N rating; the goal was cancelled",
        '力/力矩传感器读数超过其 {rated:.0f} N 额定量程；目标已取消'),
    'moveit_wrench_stale': both('the wrench stream went stale during the motion; the goal was '
                                'cancelled', '运动过程中力/力矩数据流过期；目标已取消'),
    'moveit_no_result': both('no result within {took:.1f} s; the goal was cancelled',
                             '{took:.1f} s 内没有结果；目标已取消'),
    'moveit_cancelled': both('the motion was cancelled', '运动已取消'),
    'moveit_stopped': both('the motion was stopped', '运动已停止'),
    'moveit_bad_link': both('link {link!r} is not in the robot description MoveIt loaded; '
                            'nothing was sent',
                            '连杆 {link!r} 不在 MoveIt 加载的机器人描述中；未发送任何内容'),
    'moveit_bad_link_fix': both(
        'set frames.end_effector in robot.yaml to a link of the robot, or ros.tcp: '
        '{{parent_link, offset_xyz}} for a tool point that is not a link (panda_hand + '
        '[0, 0, 0.1034] for panda_hand_tcp)',
        '请把 robot.yaml 中的 frames.end_effector 设为机器人的某个连杆，或对不是连杆的工具点使用 '
        'ros.tcp: {{parent_link, offset_xyz}}（panda_hand_tcp 为 panda_hand + [0, 0, 0.1034]）'),
    'moveit_fk_failed': both('compute_fk for link {link!r} failed', '连杆 {link!r} 的 compute_fk 失败'),
    'moveit_no_answer': both('no answer within {timeout_s} s', '{timeout_s} s 内没有应答'),
    'verify_but': both('MoveIt reported success, but {what}', 'MoveIt 报告成功，但{what}'),
    'verify_tip_off': both(
        'the tip is {mm:.1f} mm and {deg:.1f} deg from the target (measured from joint states)',
        '末端距目标 {mm:.1f} mm、{deg:.1f} deg（由关节状态测得）'),
    'verify_joint_off': both('{joint} is {error:.3f} rad from its target (measured from joint '
                             'states)', '{joint} 距其目标 {error:.3f} rad（由关节状态测得）'),
    'verify_advice': both(
        'read get_joint_states and get_end_effector_pose; check that the end effector link in '
        'robot.yaml exists in the robot description and that the controllers are running.',
        '请读取 get_joint_states 和 get_end_effector_pose；检查 robot.yaml 中的末端执行器连杆'
        '在机器人描述中存在，并且控制器正在运行。'),
    'verify_unread': both('the final state could not be read: {why}', '无法读取最终状态：{why}'),
    'gripper_moving': both('gripper moving to {mm:.0f} mm', '夹爪正在移动到 {mm:.0f} mm'),
    'gripper_width_outside': both('width {width} m is outside [0, {max}] m',
                                  '宽度 {width} m 超出 [0, {max}] m'),
    'gripper_no_speed': both(
        'a closing speed of {mm_s:.0f} mm/s cannot be commanded: control_msgs/GripperCommand has '
        'no speed field; nothing moved',
        '无法指令 {mm_s:.0f} mm/s 的闭合速度：control_msgs/GripperCommand 没有速度字段；没有任何运动'),
    'gripper_no_speed_fix': both(
        'use strategy "standard", or configure ros.gripper_interface: parallel_gripper_command '
        'for a gripper that takes a velocity',
        '请使用 strategy "standard"，或为接受速度的夹爪配置 ros.gripper_interface: '
        'parallel_gripper_command'),
    'gripper_force_outside': both('force {force} N is outside [{lo}, {hi}] N',
                                  '力 {force} N 超出 [{lo}, {hi}] N'),
    'gripper_no_fingers': both('the finger joints {joints} are not in the joint states',
                               '手指关节 {joints} 不在关节状态中'),
    'gripper_no_fingers_fix': both('check ros.topics.joint_states and joints.gripper',
                                   '请检查 ros.topics.joint_states 和 joints.gripper'),
    'gripper_goal_ended': both('gripper goal {status}', '夹爪目标 {status}'),
    'gripper_commanded': both('a commanded effort of {force:.1f} N (no force measurement)',
                              '{force:.1f} N 的指令力（无力测量）'),
    'ros_plan_start_joints': both('the start state to plan from lacks the arm joints {missing}',
                                  '规划起点缺少机械臂关节 {missing}'),
    'ros_gripper_holding': both('holding an object {mm:.1f} mm wide with {said}',
                                '以 {said} 夹持着一个 {mm:.1f} mm 宽的物体'),
    'gripper_closed_empty': both('closed without stopping on an object', '已闭合，未停在任何物体上'),
    'gripper_ended_at': both('gripper {status} at {mm:.1f} mm', '夹爪 {status}，位于 {mm:.1f} mm'),
    'gripper_opened': both('opened to {mm:.1f} mm', '已张开到 {mm:.1f} mm'),
    'gripper_stopped_at': both('gripper stopped at {mm:.1f} mm (asked {asked:.1f})',
                               '夹爪停在 {mm:.1f} mm（要求 {asked:.1f}）'),
}
