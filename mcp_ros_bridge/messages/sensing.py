"""Texts of the object catalog, object poses on ROS and the F/T tare."""

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
}
