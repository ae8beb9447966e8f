"""Texts of the guarded move and the pick and place jobs."""

from mcp_ros_bridge.messages.table import both

TABLE = {
    'returns_move_until_contact': both(
        'status CONTACT with what the fingers touched, the contact height (m), the force that '
        'stopped it and the peak force (N) and distance travelled, or NO_CONTACT after the '
        'whole distance',
        '状态 CONTACT 及手指接触的对象、接触高度 (m)、使其停止的力和峰值力 (N) 以及移动距离，或走完全程后的 '
        'NO_CONTACT'),
    'schema_stop_force': both('net force on the step it stopped (N)', '使其停止那一步的净力 (N)'),
    'schema_guarded_peak': both('highest net contact force (N), impact and stop included',
                                '最大净接触力 (N)，含冲击和停止过程'),
    'guarded_label': both('guarded move', '接触停止运动'),
    'guarded_contact': both(
        'CONTACT: {who} with {force} N at height {height} m after {travelled} m; peak force '
        '{peak} N. {after}.{where}',
        'CONTACT：{who}，力 {force} N，高度 {height} m，移动 {travelled} m；峰值力 {peak} N。'
        '{after}。{where}'),
    'guarded_by_fingers': both('the fingers touched {body}', '手指接触了 {body}'),
    'guarded_by_held_object': both('the held object touched {body}', '所持物体接触了 {body}'),
    'guarded_by_unknown': both('stopped on a contact (the wrist sensor does not say which part '
                               'touched)', '因接触而停止（腕部传感器无法判断是哪个部位接触）'),
    'guarded_part_hand': both('hand', '手部'),
    'guarded_part_arm': both('arm link', '手臂连杆'),
    'guarded_other_part': both(
        '{status}: the {part} ({link}), not the fingers, touched {body} with {force} N at '
        'height {height} m, {off} m from the fingertip centre (fingertips at z={tip} m). '
        '{after}.{where}',
        '{status}：接触 {body} 的是{part}（{link}），不是手指，力 {force} N，高度 {height} m，'
        '距指尖中心 {off} m（指尖 z={tip} m）。{after}。{where}'),
    'guarded_other_part_fix': both(
        "That height is not the fingertips'. To touch with the fingers, close the gripper "
        '(the open fingers straddle narrow objects) or put them over {body} with nothing '
        'else of the hand above it (its size: list_objects); then call again.',
        '该高度不是指尖的高度。要用手指接触，请闭合夹爪（张开的手指会跨过窄物体），或让手指位于 {body} '
        '上方且手部其他部分不在其上方（尺寸见 list_objects），然后再次调用。'),
    'guarded_backed_off': both('The arm backed off {back} mm and holds there',
                               '手臂后退了 {back} mm 并保持在该处'),
    'guarded_holds': both('The arm holds where it stopped', '手臂保持在停止处'),
    'guarded_pressing': both(', still pressing with {force} N', '，仍以 {force} N 按压'),
    'guarded_not_pressing': both(', no longer pressing', '，已不再按压'),
    'schema_contact_body': both('what was touched: an object name or table',
                                '被接触的对象：物体名称或 table'),
    'schema_contact_by': both('the robot part that touched it', '接触它的机器人部位'),
    'schema_contact_by_fingers': both('true when the fingers or the held object touched',
                                      '手指或所持物体接触时为 true'),
    'schema_contact_from_tip': both('distance from the contact point to the fingertip centre (m)',
                                    '接触点到指尖中心的距离 (m)'),
    'schema_contact_backed_off': both('how far the arm moved back after the stop (m)',
                                      '停止后手臂后退的距离 (m)'),
    'schema_contact_rest_force': both('contact force still pressing at rest (N)',
                                      '静止后仍在按压的接触力 (N)'),
    'schema_ended_by': both(
        'what ended the move: contact, distance (max_distance_m), workspace (the box cut the '
        'line), path (no further straight path), stop, timeout, failure',
        '结束原因：contact 接触、distance 走完、workspace 被工作空间截断、path 无直线、stop、timeout、'
        'failure'),
    'schema_path_limited_by': both(
        'why the line was shorter than max_distance_m; it ended the move only if ended_by says so',
        '直线短于 max_distance_m 的原因；是否由它结束运动见 ended_by'),
    'schema_guarded_line': both('length of the line after that cut (m)', '截断后直线的长度 (m)'),
    'guarded_contact_unlocated': both('CONTACT: {message}.{where}',
                                      'CONTACT：{message}。{where}'),
    'guarded_no_contact': both(
        'NO_CONTACT: moved {travelled} m without touching anything{limit}. To reach '
        'further, call again with a larger max_distance_m.{where}',
        'NO_CONTACT：移动了 {travelled} m，未接触任何物体{limit}。要走得更远，请用更大的 '
        'max_distance_m 再次调用。{where}'),
    'guarded_no_contact_touched': both(
        'NO_CONTACT: moved {travelled} m; it touched something, but the contact force stayed '
        'below the threshold (peak {peak} N){limit}.{where}',
        'NO_CONTACT：移动了 {travelled} m；接触到了东西，但接触力一直低于阈值（峰值 {peak} N）{limit}。{where}'),
    'guarded_threshold_fix': both(
        'At {speed} m/s the threshold may be at most {cap} N: the impact grows ~{per} N per '
        'mm/s, and the force at the stop must stay under the {limit} N limit. Lower '
        'contact_force_n, or approach slower (smaller speed_mps). Nothing moved; a corrected '
        'call returns CONTACT or NO_CONTACT.',
        '以 {speed} m/s 移动时阈值最多为 {cap} N：冲击力约每 mm/s 增加 {per} N，停止时的力必须低于 {limit} N '
        '的限值。请降低 contact_force_n，或更慢地接近（更小的 speed_mps）。没有任何运动；修正后的调用返回 '
        'CONTACT 或 NO_CONTACT。'),
    'guarded_limited': both(' (the line ended at: {by})', '（直线止于：{by}）'),
    'guarded_ended': both('Guarded move ended with {status}: {message}. {advice}{where}',
                          '接触停止运动以 {status} 结束：{message}。{advice}{where}'),
    'guarded_room_allowed': both(
        'at least {minimum} m of room along the direction inside the workspace; it has {room} m',
        '沿该方向在工作空间内至少需要 {minimum} m 的余量；当前只有 {room} m'),
    'guarded_room_fix': both(
        'Choose another direction (e.g. "up"), or move away from the workspace edge first. '
        'A corrected call returns status CONTACT or NO_CONTACT.',
        '请选择其他方向（例如 "up"），或先离开工作空间边缘。修正后的调用返回状态 CONTACT 或 NO_CONTACT。'),
    'guarded_too_slow': both(
        '{distance} m at {speed} m/s does not fit in the {timeout} s motion timeout',
        '以 {speed} m/s 移动 {distance} m 超出了 {timeout} 秒的运动超时'),
    'guarded_too_slow_fix': both(
        'Send speed_mps >= {slowest} (at most {fastest}) or a shorter max_distance_m (e.g. '
        '{{"direction": "down", "max_distance_m": 0.1, "speed_mps": {fastest}}}); nothing '
        'moved. A corrected call returns status CONTACT or NO_CONTACT.',
        '请发送 speed_mps >= {slowest}（至多 {fastest}）或更短的 max_distance_m（例如 '
        '{{"direction": "down", "max_distance_m": 0.1, "speed_mps": {fastest}}}）；没有任何运动。'
        '修正后的调用返回状态 CONTACT 或 NO_CONTACT。'),
    'sim_label_guarded': both('approaching until contact', '正在接近直到接触'),
    'sim_guarded_contact': both(
        'contact force {force} N passed the {threshold} N threshold ({pair}); holding',
        '接触力 {force} N 超过了 {threshold} N 的阈值（{pair}）；保持位置'),
    'sim_guarded_no_contact': both('no contact within {travelled} m',
                                   '{travelled} m 内没有接触'),
    'sim_guarded_no_path': both(
        'no straight line in that direction from here: {reason}; nothing moved',
        '从当前位置沿该方向没有可行直线：{reason}；没有任何运动'),
    'sim_guarded_no_path_fix': both(
        'Move the gripper away from the obstacle or choose another direction, then call again.',
        '请把夹爪移离障碍物或选择其他方向，然后再次调用。'),
    'returns_pick_object': both(
        'status HOLDING with the grasp and lift heights (m) and the steps done (PLANNED and '
        'the step plan with plan_only)',
        '状态 HOLDING、抓取和抬起高度 (m) 以及已完成的步骤（plan_only 时为 PLANNED 及步骤计划）'),
    'returns_place_object': both(
        'status PLACED with where the object came to rest (error m, tilt deg), SET_DOWN '
        'when release is false, or PLANNED and the step plan with plan_only',
        '状态 PLACED 及物体最终位置（误差 m、倾斜 deg）；release 为 false 时为 SET_DOWN；plan_only 时为 '
        'PLANNED 及步骤计划'),
    'step_started': both('started', '开始'),
    'step_check': both('checking', '检查'),
    'step_open': both('opening the gripper', '张开夹爪'),
    'step_above': both('moving above the object', '移动到物体上方'),
    'step_descend': both('descending', '下降'),
    'step_grasp': both('grasping', '抓取'),
    'step_lift': both('lifting', '抬起'),
    'step_verify': both('verifying', '确认'),
    'step_carry': both('carrying to the target', '搬运到目标'),
    'step_touch': both('touching down', '接触放下'),
    'step_release': both('releasing', '松开'),
    'step_retreat': both('retreating', '撤离'),
    'job_nothing_done': both('nothing', '无'),
    'job_preview_checked': both('nothing (plan_only; planned and checked: {steps})',
                                '无（plan_only；已规划并检查：{steps}）'),
    'job_planned': both(
        '{tool} planned and checked; nothing moved. Steps: {steps}. Lines between checked '
        'targets are planned when it runs. Call again without plan_only to run it.',
        '{tool} 已规划并检查；没有任何运动。步骤：{steps}。已检查目标之间的直线在实际运行时规划。'
        '去掉 plan_only 再次调用即可执行。'),
    'job_plan_step': both('{step}{where} ({check})', '{step}{where}（{check}）'),
    'job_plan_target': both(' to ({x}, {y}, {z}) m', ' 到 ({x}, {y}, {z}) m'),
    'job_check_planned': both('planned from here', '已从当前位置规划'),
    'job_check_contact': both('ends on contact, not planned', '以接触结束，未规划'),
    'job_check_gripper': both('gripper, not run', '夹爪动作，未执行'),
    'job_state_unknown': both('the robot state could not be read', '无法读取机器人状态'),
    'job_state_holding': both('holding the {object} with the fingertip at z {z} m',
                              '正夹持 {object}，指尖位于 z {z} m'),
    'job_state_empty': both('gripper {status}, fingertip at z {z} m',
                            '夹爪 {status}，指尖位于 z {z} m'),
    'job_step_still': both('this step did not move (the steps before it did)',
                           '此步骤没有运动（此前的步骤已运动）'),
    'clearance_nearest': both('Nearest object: {object}, {gap} mm from the hand; ',
                              '最近的物体：{object}，距手部 {gap} mm；'),
    'clearance_table': both("the hand's lowest point is {table} mm above the table.",
                            '手部最低点高出桌面 {table} mm。'),
    'schema_clearance': both(
        'where the motion ended: the nearest known object (not the held one), its gap to the '
        'fingers or hand and their height above the table (m; boxes, never more than the gap)',
        '运动结束处：最近的已知物体（不含所持物体）、其与手的间隙及手离桌面的高度（m，按包围盒，不大于真实间隙）'),
    'job_advice_PARTIAL': both(
        'This step did not move: its straight path is blocked or out of reach, and the job '
        'has no other way. Clear the way (move or push what the message names), or choose '
        'another object or target, then call again.',
        '此步骤没有运动：它的直线路径被阻挡或不可达，任务没有其他路线。请清出通路（移动或推开消息中提到的物体），'
        '或选择其他物体或目标，然后再次调用。'),
    'job_advice_PLANNING_FAILED': both(
        'This step did not move: no collision-free motion to it was found. Clear the way '
        '(move or push what the message names), or choose another object or target, then '
        'call again.',
        '此步骤没有运动：找不到无碰撞的运动。请清出通路（移动或推开消息中提到的物体），或选择其他物体或目标，'
        '然后再次调用。'),
    'job_failed': both(
        '{tool} stopped at step "{step}" with {code}: {message}. {advice} Done before: {done}. '
        'Now: {state}.',
        '{tool} 在步骤“{step}”停止，{code}：{message}。{advice} 此前已完成：{done}。当前：{state}。'),
    'job_grip_fix_OPEN': both(
        'Check the gripper with read_gripper_state; call again once it can open.',
        '请用 read_gripper_state 检查夹爪；能张开后再次调用。'),
    'job_grip_fix_HOLDING': both(
        'The object is not between the fingers: check it with list_objects, open with '
        'release_object and call pick_object again; a corrected call returns status HOLDING.',
        '物体不在手指之间：请用 list_objects 检查，用 release_object 张开后再次调用 pick_object；'
        '修正后的调用返回状态 HOLDING。'),
    'pick_holding': both('the gripper already holds the {object}',
                         '夹爪已夹持 {object}'),
    'pick_holding_fix': both(
        'Place it first with place_object (e.g. {{"target": {{"x": 0.45, "y": 0.2}}}}), then '
        'pick again; nothing moved. A corrected call returns status HOLDING.',
        '请先用 place_object 放下（例如 {{"target": {{"x": 0.45, "y": 0.2}}}}），再次拾取；没有任何运动。'
        '修正后的调用返回状态 HOLDING。'),
    'pick_too_wide': both(
        'the {object} is {width} mm across at its narrowest, wider than the open finger gap '
        '{gap} mm (gripper.max_width_m); nothing moved',
        '{object} 最窄处宽 {width} mm，大于手指张开间距 {gap} mm（gripper.max_width_m）；没有任何运动'),
    'pick_too_wide_fix': both(
        'Pick an object that fits between the fingers (here: {fits}); a corrected call returns '
        'status HOLDING.',
        '请拾取能放入两指之间的物体（此处：{fits}）；修正后的调用返回状态 HOLDING。'),
    'pick_lost': both('the {object} left the fingers while lifting',
                      '{object} 在抬起时离开了手指'),
    'pick_lost_fix': both(
        'Look where it is with list_objects, then call pick_object again (a larger force_n '
        'grips harder); a corrected call returns status HOLDING.',
        '请用 list_objects 查看其位置，再次调用 pick_object（更大的 force_n 夹得更紧）；'
        '修正后的调用返回状态 HOLDING。'),
    'pick_done': both('HOLDING the {object}, lifted to z {z} m.',
                      'HOLDING：已夹持 {object}，抬起到 z {z} m。'),
    'place_fix': both(
        'Fix {field}: allowed {allowed}; e.g. {example}. Nothing moved; a corrected call '
        'returns status PLACED.',
        '请修正 {field}：允许 {allowed}；例如 {example}。没有任何运动；修正后的调用返回状态 PLACED。'),
    'place_one_of': both('send exactly one of target and on',
                         '请只发送 target 与 on 中的一个'),
    'place_one_of_allowed': both(
        'target {{x, y}} (m; optional from/toward an object) or on: one of {names}',
        'target {{x, y}} (m；可选 from/toward 某物体) 或 on：{names} 之一'),
    'place_toward_here': both(
        'the {origin} is {mm} mm from the {toward}, so there is no direction toward it',
        '{origin} 距 {toward} 仅 {mm} mm，无法确定指向它的方向'),
    'place_toward_allowed': both(
        'toward an object at least 10 mm from the origin (from, else the held object)',
        'toward 的物体须距起点（from，否则所夹物体）至少 10 mm'),
    'place_on_itself': both('the {object} is the object being held',
                            '{object} 正是被夹持的物体'),
    'place_outside': both('the place target ({x}, {y}) m is outside the workspace',
                          '放置目标 ({x}, {y}) m 超出工作空间'),
    'place_outside_allowed': both('x in [{x0}, {x1}] m, y in [{y0}, {y1}] m',
                                  'x 在 [{x0}, {x1}] m 内，y 在 [{y0}, {y1}] m 内'),
    'place_not_holding': both('the gripper holds nothing (status {status})',
                              '夹爪未夹持物体（状态 {status}）'),
    'place_not_holding_fix': both(
        'Pick the object first with pick_object (e.g. {{"object": "box"}}); nothing moved. A '
        'corrected call returns status PLACED.',
        '请先用 pick_object 拾取物体（例如 {{"object": "box"}}）；没有任何运动。修正后的调用返回状态 PLACED。'),
    'place_unknown_held': both('the held object is not one of the known objects',
                               '所夹物体不是已知物体'),
    'place_unverified': both('placed; no pose source to check where it rests',
                             '已放置；没有位姿来源可确认其位置'),
    'place_off': both('the {object} came to rest {error} mm from the target, tilted {tilt} deg',
                      '{object} 停在距目标 {error} mm 处，倾斜 {tilt} deg'),
    'place_off_fix': both(
        'Look at it with list_objects or capture_scene_image; pick_object it again and '
        'place it; a corrected call returns status PLACED.',
        '请用 list_objects 或 capture_scene_image 查看；再次 pick_object 后放置；'
        '修正后的调用返回状态 PLACED。'),
    'place_done': both('PLACED the {object} on the {support} at ({x}, {y}), centre z {z} m.',
                       'PLACED：已把 {object} 放在 {support} 上 ({x}, {y})，中心 z {z} m。'),
    'place_measured': both(' It rests {error} mm from there, tilted {tilt} deg.',
                           '其静止位置与此相差 {error} mm，倾斜 {tilt} deg。'),
    'place_set_down': both('SET_DOWN: the {object} touches the surface and is still held.',
                           'SET_DOWN：{object} 已接触表面，仍被夹持。'),
    'ros_guarded_contact': both(
        'the wrist force changed by {force} N (threshold {threshold} N); the arm halted there',
        '腕部力变化了 {force} N（阈值 {threshold} N）；机械臂已在该处停止'),
    'ros_guarded_arm_collides': both(
        'the line brings an arm link into contact {at} of the way along ({pairs}); only the '
        'hand may touch; nothing moved',
        '该直线在 {at} 处使机械臂连杆发生接触（{pairs}）；只允许手接触；没有任何运动'),
    'ros_guarded_arm_collides_fix': both(
        'Move the arm so its links clear the obstacle (e.g. move_arm_to_pose higher or from '
        'another side), or choose another direction; a corrected call returns status CONTACT '
        'or NO_CONTACT.',
        '请移动机械臂使其连杆避开障碍物（例如用 move_arm_to_pose 升高或换一侧），或选择其他方向；'
        '修正后的调用返回状态 CONTACT 或 NO_CONTACT。'),
    'ros_guarded_partial': both('MoveIt computed only {fraction} of the line',
                                'MoveIt 只计算出 {fraction} 的直线'),
}
