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
    'returns_release': both('status OPEN and the reached finger gap (m)',
                            '状态 OPEN 和到达的手指间距 (m)'),
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
    'returns_read_object_pose': both('the object pose (m, deg)', '物体位姿 (m, deg)'),
    'returns_list_objects': both(
        'every known object with colour, shape, size (m) and centre pose',
        '每个已知物体的颜色、形状、尺寸 (m) 和中心位姿'),
    'returns_capture_image': both('a PNG image of the scene', '场景的 PNG 图像'),
    'returns_ros_topic': both('the latest message of the declared topic', '所声明话题的最新消息'),
    'returns_ros_service': both('the service response', '服务的响应'),
    'returns_ros_action': both('the action status and result', '动作的状态和结果'),
}
