"""Texts of the object catalog, object poses on ROS, the F/T tare and sensor faults."""

from mcp_ros_bridge.messages.table import both

TABLE: dict[str, tuple[str, str]] = {
    'objects_listed': both(
        "{count} known objects (sizes x\u00d7y\u00d7z; poses are each object's centre in "
        '{frame}): {lines}.',
        '{count} 个已知物体（尺寸为 x\u00d7y\u00d7z；位姿为各物体中心，坐标系 {frame}）：{lines}。'),
    'objects_line_pose': both(
        ', centre at {pose}; grasp with the fingertip centre at z={z} m',
        '，中心位于 {pose}；抓取时指尖中心位于 z={z} m'),
    'objects_line_no_pose': both(', no pose', '，无位姿'),
    'objects_missing': both(' No pose for {names}: {message}. {advice}',
                            ' 以下物体无位姿：{names}：{message}。{advice}'),
    'object_pose_no_source': both(
        'no pose source is configured for {name!r} on ROS; nothing was read',
        'ROS 上没有为 {name!r} 配置位姿来源；未读取任何数据'),
    'object_pose_no_source_fix': both(
        'add `ros: {{object_pose_topics: {{{name}: {{name: /your/{name}_pose}}}}}}` to '
        'robot.yaml: a geometry_msgs/msg/PoseStamped topic with the centre of {name!r} in {base}',
        '在 robot.yaml 中加入 `ros: {{object_pose_topics: {{{name}: {{name: /your/{name}_pose}}}}}}`：'
        '一个 geometry_msgs/msg/PoseStamped 话题，给出 {name!r} 在 {base} 中的中心'),
    'object_pose_not_yet': both('no pose of {name!r} received on {topic} yet',
                                '{topic} 上尚未收到 {name!r} 的位姿'),
    'object_pose_not_yet_fix': both(
        'check that the perception node publishes {topic} and that QoS match ({qos})',
        '请确认感知节点在发布 {topic}，且 QoS 匹配（{qos}）'),
    'object_pose_frame': both(
        'the pose of {name!r} {where} {frame}, but object poses are served only in the base '
        'frame {base!r} (no TF lookup); nothing was read',
        '{name!r} 的位姿{where} {frame}，但物体位姿只在基座坐标系 {base!r} 中提供（不做 TF 变换）；'
        '未读取任何数据'),
    'object_pose_frame_asked': both('was asked for in', '被请求的坐标系为'),
    'object_pose_frame_published': both('is published on {topic} in', '在 {topic} 上发布于'),
    'object_pose_frame_empty': both('an empty frame_id', '空的 frame_id'),
    'object_pose_frame_fix': both(
        'publish the pose with header.frame_id {base!r} (transform it in the perception node)',
        '请以 header.frame_id {base!r} 发布位姿（在感知节点中完成变换）'),
    'wrench_net_gripper': both(" Net of the gripper's weight", ' 已扣除夹爪重量'),
    'wrench_net_gripper_and_tare': both(
        " Net of the gripper's weight and the tare taken {age} s ago",
        ' 已扣除夹爪重量和 {age} 秒前的皮重'),
    'wrench_holding': both('; holding \u2248 {grams} g.', '；holding \u2248 {grams} g（所持质量）。'),
    'wrench_moving': both(
        '; the arm is moving, so the load includes its motion (about {grams} g): read again '
        'once it stops to weigh.',
        '；机械臂正在运动，载荷包含运动的影响（约 {grams} g）：请在其停止后再读取以称重。'),
    'wrench_unsteady': both(
        '; the load kept changing during the window (about {grams} g): hold the arm still and '
        'read again to weigh.',
        '；窗口内载荷一直在变化（约 {grams} g）：请保持机械臂静止后再读取以称重。'),
    'tare_cleared': both('Tare cleared; readings are net of the gripper only.',
                         '已清除皮重；读数仅扣除夹爪重量。'),
    'tare_none': both('No tare was set; readings are net of the gripper only.',
                      '未设置皮重；读数仅扣除夹爪重量。'),
    'tare_taken': both(
        'Tared over {samples} samples: read_ft_sensor now reports the load added since now '
        '(the tare holds {grams} g net of the gripper). Tare again after changing the tool; '
        'clear with {{"clear": true}}.',
        '已用 {samples} 个样本去皮：read_ft_sensor 此后报告自现在起增加的载荷（皮重为扣除夹爪后的 '
        '{grams} g）。更换工具后请重新去皮；用 {{"clear": true}} 清除。'),
    'tare_no_orientation': both('cannot tare: {why}; nothing changed',
                                '无法去皮：{why}；未做任何更改'),
    'tare_no_orientation_fix': both('check get_end_effector_pose, then tare again',
                                    '请检查 get_end_effector_pose，然后再次去皮'),
    'tare_unsteady': both('the load changed during the tare window; the tare is unchanged',
                          '去皮窗口内载荷发生变化；皮重未改变'),
    'tare_unsteady_fix': both(
        'hold the arm still (no motion, no contact) and call tare_ft_sensor again',
        '保持机械臂静止（无运动、无接触）后再次调用 tare_ft_sensor'),
    # backends/sensor_checks.py: a sample rejected before any safety decision used it.
    'sensor_fault': both(
        '{topic} has no valid recent sample: {what}; {count} sample(s) rejected since start',
        '{topic} 没有有效的近期样本：{what}；自启动以来已拒绝 {count} 个样本'),
    'sensor_fault_fix': both(
        'check the driver publishing {topic} (its values, units and clock); reads and motions '
        'work again by themselves once valid samples arrive',
        '请检查发布 {topic} 的驱动（数值、单位和时钟）；有效样本到达后读取和运动会自动恢复'),
    'sensor_reject_non_finite': both('{field} is {value}, not a finite number',
                                     '{field} 为 {value}，不是有限数'),
    'sensor_reject_out_of_range': both(
        "{field}={value} is beyond the sensor's rated range (robot.yaml limits.ft_rated_force_n"
        ' and ft_rated_torque_nm)',
        '{field}={value} 超出传感器额定量程（robot.yaml 的 limits.ft_rated_force_n 和 '
        'ft_rated_torque_nm）'),
    'sensor_reject_future_stamp': both('{field} is {value} s ahead of the node clock',
                                       '{field} 比节点时钟超前 {value} s'),
    'sensor_reject_other_clock': both(
        '{field} is from the other clock ({value} s from node time; check use_sim_time)',
        '{field} 来自另一个时钟（与节点时间相差 {value} s；请检查 use_sim_time）'),
    'sensor_reject_old_stamp': both('{field} was {value} s old on arrival',
                                    '{field} 到达时已是 {value} s 前的'),
    'sensor_reject_bad_arrays': both('{field} does not fit the joint names ({value})',
                                     '{field} 与关节名称不匹配（{value}）'),
    'sensor_reject_malformed': both('a message could not be parsed ({field}: {value})',
                                    '有消息无法解析（{field}：{value}）'),
    'sensor_rejected_note': both(' {count} invalid sample(s) rejected since start: {counts}.',
                                 ' 自启动以来已拒绝 {count} 个无效样本：{counts}。'),
    'guard_sensor_fault': both(
        'the force guard stopped the motion: {topic} sent an invalid sample ({what})',
        '力保护停止了运动：{topic} 发来无效样本（{what}）'),
}
