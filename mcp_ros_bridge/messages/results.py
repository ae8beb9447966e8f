"""Texts of results: what a call returns (``Kind.returns``), result summaries."""

from mcp_ros_bridge.messages.table import both

TABLE: dict[str, tuple[str, str]] = {
    # What a corrected call returns, per capability kind (Kind.returns names the entry).
    'returns_move_to_pose': both(
        'the reached pose (m, deg) and its position error (mm)',
        '到达的位姿 (m, deg) 及其位置误差 (mm)'),
    'returns_move_to_joints': both('the reached joint angles (rad)', '到达的关节角 (rad)'),
    'returns_cartesian_path': both(
        'the achieved path fraction and the final pose',
        '完成的路径比例和最终位姿'),
    'returns_stop': both('whether a motion was stopped', '是否停止了运动'),
    'returns_relative_move': both(
        'the reached pose (m, deg), or with plan_only the planned duration and path length',
        '到达的位姿 (m, deg)；plan_only 时为规划的时长和路径长度'),
    'returns_move_to_posture': both(
        'the reached joint angles (rad), or with plan_only the planned duration and path length',
        '到达的关节角 (rad)；plan_only 时为规划的时长和路径长度'),
    'returns_grasp': both(
        'status HOLDING or EMPTY, the finger gap (m) and the grip force (N)',
        '状态 HOLDING 或 EMPTY、手指间距 (m) 和夹持力 (N)'),
    # Descriptions inside result schemas (messages.Said), what hosts see of a field.
    'schema_pose_form': both('same form as the pose of get_end_effector_pose',
                             '与 get_end_effector_pose 的 pose 形式相同'),
    'schema_peak_force': both(
        'largest contact force the motion guard saw (N), not gravity compensated: sim, summed '
        'contact forces on arm and hand except fingers on the held object; ROS, |F| of the '
        'wrist F/T wrench',
        '运动监护所见最大接触力 (N)，未补偿重力：仿真为臂和手的接触力之和（不含夹持）；ROS 为腕部 F/T 的 |F|'),
    'schema_plan': both("plan_only: the plan's duration, path length, peak tip and joint "
                        'speeds, target and object (SI)',
                        'plan_only：规划用时、路径长、指尖与关节峰值速度、目标、物体（SI）'),
    'schema_path_length': both('fingertip path: travelled, or planned with plan_only',
                               '指尖路径长度：实际走过的，或 plan_only 时规划的'),
    'schema_grip': both(
        'the held object; slip_mm: in this motion; slip_since_grasp_mm: largest slip since the '
        'grasp (never decreases)',
        '所夹物体；slip_mm：本次运动中的滑移；slip_since_grasp_mm：抓取以来的最大滑移（只增不减）'),
    'schema_scene_changes': both(
        'known objects, other than the held one, that moved >= {moved} mm or tilted >= '
        '{tilted} deg during the motion',
        '运动中移动 >= {moved} mm 或倾斜 >= {tilted} deg 的已知物体（所夹物体除外）'),
    'list_same_result': both('the same fields as the result of {tool}', '同 {tool} 的结果字段'),
    'list_same_field': both('the same form as {field} in the result of {tool}',
                            '与 {tool} 结果中的 {field} 形式相同'),
    'returns_close_gripper': both('status CLOSED and the reached finger gap (m)',
                                  '状态 CLOSED 和到达的手指间距 (m)'),
    'returns_release': both('status OPEN and the reached finger gap (m)', '状态 OPEN 和到达的手指间距 (m)'),
    'returns_gripper_state': both(
        'status HOLDING, LOST, EMPTY or OPEN, gap (m), force (N) and slip (mm)',
        '状态 HOLDING、LOST、EMPTY 或 OPEN，间距 (m)、力 (N) 和滑移 (mm)'),
    'returns_tare': both(
        'whether a tare is set, its offset (N, Nm) and its mass (g)',
        '是否已去皮、去皮偏移 (N, Nm) 及其质量 (g)'),
    'returns_read_wrench': both(
        'the filtered forces (N) and torques (Nm), net of the gripper, and the held mass (g)',
        '滤波后的力 (N) 和力矩 (Nm)（已扣除夹爪）以及所持质量 (g)'),
    'returns_read_joints': both(
        'joint positions, velocities and efforts with the sample age',
        '关节位置、速度和力矩，以及样本时长'),
    'returns_read_ee_pose': both('the gripper pose (m, deg, quaternion)', '夹爪位姿 (m, deg, 四元数)'),
    'returns_list_objects': both(
        'every known object with colour, shape, size (m) and centre pose',
        '每个已知物体的颜色、形状、尺寸 (m) 和中心位姿'),
    'returns_capture_image': both('a PNG image of the scene', '场景的 PNG 图像'),
    'returns_ros_topic': both('the latest message of the declared topic', '所声明话题的最新消息'),
    'returns_ros_service': both('the service response', '服务的响应'),
    'returns_ros_action': both('the action status and result', '动作的状态和结果'),
    # capabilities/motion.py: the result of a motion (``motion_*`` name what moved).
    'motion_pose': both('Move to pose', '移动到位姿'),
    'motion_joints': both('Joint move', '关节运动'),
    'motion_path': both('Straight-line path', '直线路径'),
    'motion_relative': both('Relative move', '相对移动'),
    'motion_posture': both('Move to posture {name}', '移动到姿势 {name}'),
    'motion_succeeded': both(
        '{verb} succeeded in {duration} s.{where}',
        '{verb}成功，用时 {duration} 秒。{where}'),
    'motion_now_at': both(' Now at {pose}.', '当前位于 {pose}。'),
    'motion_position_error': both(' Position error {error} mm.', '位置误差 {error} mm。'),
    'motion_ended': both(
        '{verb} ended with {status}: {message}.{peak}{advice}{where}',
        '{verb}以 {status} 结束：{message}。{peak}{advice}{where}'),
    'motion_peak_force': both(' Peak force {force} N.', '峰值力 {force} N。'),
    'motion_advice_CONTACT_ABORT': both(
        ' The force guard stopped the arm; move away from the contact (e.g. straight up with '
        'plan_trajectory) before trying again.',
        '力保护停止了机械臂；请先离开接触处（例如用 plan_trajectory 竖直向上）再重试。'),
    'motion_advice_STOPPED': both(
        ' The motion was stopped on request; the arm holds its position.',
        '运动已按请求停止；机械臂保持当前位置。'),
    'motion_advice_TIMED_OUT': both(
        ' The goal was cancelled after the timeout; check the arm state with get_joint_states.',
        '目标超时后已被取消；请用 get_joint_states 检查机械臂状态。'),
    'motion_advice_PARTIAL': both(
        ' Nothing moved. Split the path, move the waypoints away from obstacles or use '
        'move_arm_to_pose.',
        '没有任何运动。请拆分路径、让路径点远离障碍物，或使用 move_arm_to_pose。'),
    'motion_planned': both(
        '{verb} planned; nothing moved. It would take {duration} s along {length} m of '
        'fingertip path (fraction {fraction}) at up to {speed} mm/s{end}. Run exactly this '
        'plan with execute_plan {{"plan_id": "{plan_id}"}} (once, soon, from where the arm is).',
        '{verb}已规划；没有任何运动。预计用时 {duration} 秒，指尖路径 {length} m（比例 {fraction}），'
        '最高 {speed} mm/s{end}。用 execute_plan {{"plan_id": "{plan_id}"}} 执行这一规划（仅一次，尽快，'
        '且须从机械臂当前位置开始）。'),
    'plan_only_note': both('planned only; nothing moved', '仅规划；没有任何运动'),
    'plan_stale': both(
        'the plan no longer starts where the arm is (a joint is {off} rad away, more than {tol} '
        'rad, or the hand holds something else); nothing moved',
        '该规划的起点已不是机械臂当前位置（某关节相差 {off} rad，超过 {tol} rad，或手中所持物体不同）；没有任何运动'),
    'plan_id_unknown': both('no plan has the id {plan_id}; nothing moved',
                            '没有 id 为 {plan_id} 的规划；没有任何运动'),
    'plan_id_used': both('the plan {plan_id} has run already (an id runs once); nothing moved',
                         '规划 {plan_id} 已执行过（每个 id 只能执行一次）；没有任何运动'),
    'plan_id_expired': both('the plan {plan_id} has expired; nothing moved',
                            '规划 {plan_id} 已过期；没有任何运动'),
    'plan_id_fix': both('Plan the motion again with plan_only and run the new plan_id.',
                        '请用 plan_only 重新规划，并执行新的 plan_id。'),
    'returns_execute_plan': both('the motion result of the plan', '该规划的运动结果'),
    'motion_plan': both('The planned motion', '规划的运动'),
    'plan_stale_fix': both('Plan the motion again from where the arm is now.',
                           '请从机械臂当前位置重新规划该运动。'),
    'motion_planned_end': both(', ending at {pose}', '，终点为 {pose}'),
    'stop_unconfirmed': both(
        'Stop was sent but not confirmed: {message}. {advice}',
        '已发送停止但未确认：{message}。{advice}'),
    'stop_stopped': both(
        'Stopped the running motion; the arm holds its position. (This cancels goals; it is not '
        'an emergency stop.)',
        '已停止正在进行的运动；机械臂保持当前位置。（这会取消目标；它不是急停。）'),
    'stop_before_motion': both(
        'Stopped the motion call before the arm moved (it was still queued or planning); the '
        'arm holds its position. (This cancels goals; it is not an emergency stop.)',
        '已在机械臂运动之前停止该运动调用（它仍在排队或规划中）；机械臂保持当前位置。（这会取消目标；它不是急停。）'),
    'stop_before_motion_note': both(
        'the motion call ended before the arm moved; holding position',
        '运动调用在机械臂运动之前结束；保持当前位置'),
    'stop_idle': both(
        'No motion was running; the arm holds its position. (This cancels goals; it is not an '
        'emergency stop.)',
        '没有正在进行的运动；机械臂保持当前位置。（这会取消目标；它不是急停。）'),
    # geometry.py: a pose in one line.
    'pose_line': both(
        'x={x} y={y} z={z} m, roll={roll} pitch={pitch} yaw={yaw} deg in {frame}',
        '{frame} 中 x={x} y={y} z={z} m，roll={roll} pitch={pitch} yaw={yaw} deg'),
    # capabilities/sensing.py: wrench, joints, poses.
    'wrench_raw': both(' Raw, gripper weight included: {why}.', '原始读数，含夹爪自重：{why}。'),
    'wrench_line': both(
        'Wrist wrench ({kind}, {samples} samples, frame {frame}, age {age} ms): {parts}.{note}',
        '腕部力/力矩（{kind}，{samples} 个样本，坐标系 {frame}，时长 {age} ms）：{parts}。{note}'),
    'joints_line': both(
        'Arm joints (rad): [{positions}]; age {age} ms.',
        '机械臂关节 (rad)：[{positions}]；时长 {age} ms。'),
    'joints_fingers': both(' Gripper joints ({unit}): {fingers}.', '夹爪关节 ({unit})：{fingers}。'),
    'pose_at': both('{name} at {pose}.', '{name} 位于 {pose}。'),
    # capabilities/objects.py and imaging.py.
    'object_line': both('{name}: {colour} {shape} {size}', '{name}：{colour} {shape} {size}'),
    'image_line': both(
        'Image from camera {camera}, {width}x{height} px.',
        '来自相机 {camera} 的图像，{width}x{height} px。'),
    'returns_robot_info': both(
        'the robot, frames, joint limits (rad), gripper geometry (m), workspace and caps',
        '机器人、坐标系、关节限位 (rad)、夹爪几何 (m)、工作空间和上限'),
    'robot_info_text': both(
        '{robot}: {joints} arm joints ({first} to {last}, limits less {margin} rad), base '
        '{base}, fingertip centre {tip}. Gripper opens {open} mm, {force} N; fingertips '
        '{past} mm below {tip}. Workspace {lo} to {hi} m; contact cap {contact} N. The rest is '
        'in structuredContent.',
        '{robot}：{joints} 个臂关节（{first} 到 {last}，限位减 {margin} rad），基座 {base}，'
        '指尖中心 {tip}。夹爪张开 {open} mm，{force} N；指尖在 {tip} 下方 {past} mm。工作空间 '
        '{lo} 到 {hi} m；接触力上限 {contact} N。其余见 structuredContent。'),
}
