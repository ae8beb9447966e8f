"""Texts of the push job."""

from mcp_ros_bridge.messages.table import both

_RETURNS = ('A corrected call returns status PUSHED.', '修正后的调用返回状态 PUSHED。')

TABLE = {
    'returns_push_object': both(
        'status PUSHED with how far the object moved along the direction and sideways (m), '
        'its tilt (deg) and the peak push force (N)',
        '状态 PUSHED 及物体沿该方向和侧向移动的距离 (m)、倾斜 (deg) 和最大推力 (N)'),
    'schema_push_force': both(
        'largest push force (N): sim, of the hand on the object; ROS, the wrist force change '
        'since the push began (any contact)',
        '最大推力 (N)：仿真中为手对该物体的力；ROS 上为推动开始以来腕部力的变化（任何接触）'),
    'step_close': both('closing the gripper', '闭合夹爪'),
    'step_push': both('pushing', '推动'),
    'push_fix': both(
        'Fix {field}: allowed {allowed}; e.g. {example}. Nothing moved. ' + _RETURNS[0],
        '请修正 {field}：允许 {allowed}；例如 {example}。没有任何运动。' + _RETURNS[1]),
    'push_blocked': both(
        'pushing the {object} {direction} by {distance} m would run it into the {other}',
        '把 {object} 向 {direction} 推 {distance} m 会撞上 {other}'),
    'push_blocked_allowed': both('a direction whose way is clear: {directions}',
                                 '路径畅通的方向：{directions}'),
    'push_blocked_none': both('a shorter distance_m: every direction is blocked this far',
                              '更短的 distance_m：此距离内每个方向都被挡住'),
    'push_outside': both('pushing the {object} by {distance} m would take it out of the '
                         'workspace', '把 {object} 推 {distance} m 会使其超出工作空间'),
    'push_too_low': both(
        'the {object} is too low to push below its centre of mass (the fingertips touch at '
        'z {height} m)', '{object} 太低，无法在其质心以下推动（指尖接触高度 z {height} m）'),
    'push_too_low_allowed': both('an object whose centre is higher than the fingertips',
                                 '中心高于指尖的物体'),
    'push_holding_fix': both(
        'Place it first with place_object (e.g. {{"target": {{"x": 0.45, "y": 0.2}}}}); nothing '
        'moved. ' + _RETURNS[0],
        '请先用 place_object 放下（例如 {{"target": {{"x": 0.45, "y": 0.2}}}}）；没有任何运动。'
        + _RETURNS[1]),
    'push_not_closed': both('the fingers stopped at {gap} mm instead of closing',
                            '手指停在 {gap} mm 处，未能闭合'),
    'push_not_closed_fix': both(
        'Something is between the fingers: check with read_gripper_state, clear it, call again. '
        + _RETURNS[0],
        '手指之间有东西：请用 read_gripper_state 检查并清除后再次调用。' + _RETURNS[1]),
    'sim_push_cap': both('the hand pushed on the object with {force} N, above the {cap} N cap',
                         '手对物体的推力为 {force} N，超过 {cap} N 的上限'),
    'push_cap_hit': both('pushing the {object} took more than max_force_n {cap} N ({how}); the '
                         'arm stopped', '推动 {object} 所需的力超过 max_force_n {cap} N（{how}）；'
                         '机械臂已停止'),
    'push_cap_fix': both(
        'It is heavier, stuck or blocked: look with capture_scene_image; call again with a '
        'larger max_force_n (at most {limit} N) or another direction. ' + _RETURNS[0],
        '物体较重、被卡住或被挡住：请用 capture_scene_image 查看；用更大的 max_force_n（最多 {limit} N）'
        '或其他方向再次调用。' + _RETURNS[1]),
    'push_contact_fix': both(
        'Something other than the object was touched: look with capture_scene_image, then push '
        'in another direction or move the obstacle first. ' + _RETURNS[0],
        '接触到了该物体以外的东西：请用 capture_scene_image 查看，然后换一个方向推，或先移开障碍物。'
        + _RETURNS[1]),
    'push_so_far': both(
        ' The {object} moved {moved} mm along the direction, {lateral} mm sideways, tilted {tilt} '
        'deg.', '{object} 沿该方向移动了 {moved} mm，侧向 {lateral} mm，倾斜 {tilt} deg。'),
    'push_off': both(
        'the {object} moved {moved} mm of {distance} mm, {lateral} mm sideways, tilted {tilt} deg',
        '{object} 移动了 {moved} mm（目标 {distance} mm），侧向 {lateral} mm，倾斜 {tilt} deg'),
    'push_fix_SHORT': both(
        'Push again by the remaining distance (slipping or blocked objects fall short). '
        + _RETURNS[0], '请按剩余距离再推一次（打滑或受阻的物体会推不到位）。' + _RETURNS[1]),
    'push_fix_LONG': both(
        'It slid on: push it back by the excess with the opposite direction. ' + _RETURNS[0],
        '物体滑过了头：请沿相反方向推回多出的距离。' + _RETURNS[1]),
    'push_fell': both(
        'the {object} fell off the table: its centre is {dropped} mm lower, {moved} mm along',
        '{object} 从桌边掉落：其中心低了 {dropped} mm，沿推动方向移动了 {moved} mm'),
    'push_fix_FELL': both(
        'It is off the table: it cannot be pushed or picked there. Push toward the middle of the '
        'table, not over its edge.',
        '物体已不在桌面上，无法在那里推动或拾取。请朝桌面中间推，不要推过桌边。'),
    'push_fix_TIPPED': both(
        'It tipped over or leans: look with capture_scene_image; stand it up with pick_object '
        'and place_object before pushing again. ' + _RETURNS[0],
        '物体倾倒或倾斜：请用 capture_scene_image 查看；先用 pick_object 和 place_object 把它扶正再推。'
        + _RETURNS[1]),
    'push_done': both(
        'PUSHED the {object} {moved} mm (commanded {distance} mm), {lateral} mm sideways, tilted '
        '{tilt} deg.', 'PUSHED：{object} 移动了 {moved} mm（指令 {distance} mm），侧向 {lateral} '
        'mm，倾斜 {tilt} deg。'),
}
