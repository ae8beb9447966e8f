"""Texts of the gripper: grasp, release, the gripper state and slip in arm motions."""

from mcp_ros_bridge.messages.table import both

TABLE: dict[str, tuple[str, str]] = {
    'grip_force_measured': both('grip force {force} N', '夹持力 {force} N'),
    'grip_force_commanded': both(
        'commanded effort {force} N (this gripper measures no force)',
        '指令力 {force} N（该夹爪不测量力）'),
    'grasp_holding': both(
        'HOLDING an object: finger gap {gap} mm, {force} (requested {requested} N).',
        'HOLDING：已夹住物体，指间距离 {gap} mm，{force}（请求 {requested} N）。'),
    'grasp_empty': both(
        'EMPTY: the fingers closed to {gap} mm without touching anything. Open with '
        'release_object, move the gripper so the object is between the fingers (check with '
        'list_objects), then grasp again.',
        'EMPTY：手指闭合到 {gap} mm，未接触任何物体。请用 release_object 张开，把夹爪移到物体两侧'
        '（可用 list_objects 确认），再重新抓取。'),
    'grasp_ended': both('Grasp ended with {status}: {message}. Finger gap {gap} mm, {force}.',
                        '抓取以 {status} 结束：{message}。指间距离 {gap} mm，{force}。'),
    'grasp_still_squeezing': both(' The fingers keep squeezing the object.', '手指仍夹紧物体。'),
    'release_open': both('OPEN: finger gap {gap} mm; nothing is held.',
                         'OPEN：指间距离 {gap} mm；未夹持物体。'),
    'release_ended': both('Release ended with {status}: {message}.',
                          '张开以 {status} 结束：{message}。'),
    'gripper_holding': both('HOLDING the {object}', 'HOLDING：正夹持 {object}'),
    'gripper_lost': both('LOST: the {object} is no longer between the fingers',
                         'LOST：{object} 已不在手指之间'),
    'gripper_empty': both('EMPTY: closed on nothing', 'EMPTY：已闭合，未夹到物体'),
    'gripper_open': both('OPEN: nothing is held', 'OPEN：未夹持物体'),
    'gripper_slip': both(', slip since the grasp {slip} mm ({method})',
                         '，抓取以来滑移 {slip} mm（{method}）'),
    'gripper_state': both('{what}. Finger gap {gap} mm, {force}{slip}.',
                          '{what}。指间距离 {gap} mm，{force}{slip}。'),
    'grip_unnamed': both('object', '物体'),
    'grip_unchecked': both(' The grip could not be checked: {message}.',
                           '无法检查夹持：{message}。'),
    'grip_lost': both(
        ' The {object} was lost: it is no longer between the fingers. Check with '
        'read_gripper_state and list_objects.',
        '{object} 已掉落：不再位于手指之间。请用 read_gripper_state 和 list_objects 检查。'),
    'grip_slipped': both(
        ' The {object} slipped {slip} mm in the grip ({method}); a firmer '
        'grasp_object_force_control re-regulates without opening.',
        '{object} 在夹持中滑移了 {slip} mm（{method}）；用更大的力再次调用 '
        'grasp_object_force_control 可在不张开的情况下重新调节。'),
    'grip_stayed': both(' The {object} stayed in the grip (slip {slip} mm).',
                        '{object} 仍夹持稳定（滑移 {slip} mm）。'),
    'close_closed': both('CLOSED: finger gap {gap} mm; nothing is held.',
                         'CLOSED：指间距离 {gap} mm；未夹持物体。'),
    'close_blocked': both(
        'BLOCKED: the fingers stopped at {gap} mm, short of {target} mm: something is between '
        'them; they eased off to {eased} mm and do not squeeze it. To hold it use '
        'grasp_object_force_control; to free it, release_object.',
        'BLOCKED：手指停在 {gap} mm，未到 {target} mm：手指之间有物体；手指已退到 {eased} mm，不再挤压。要夹持请用 '
        'grasp_object_force_control；要松开请用 release_object。'),
    'close_holding': both(
        'the gripper holds the {object}; close_gripper does not squeeze a held object',
        '夹爪正夹持 {object}；close_gripper 不会挤压已夹持的物体'),
    'close_holding_fix': both(
        'Call grasp_object_force_control with a force_n to change the grip, or '
        'release_object first; then close_gripper returns CLOSED and the gap.',
        '用 grasp_object_force_control 并给出 force_n 来改变夹持力，或先调用 release_object；'
        '之后 close_gripper 返回 CLOSED 和指间距离。'),
    'close_ended': both('Closing ended with {status}: {message}.',
                        '闭合以 {status} 结束：{message}。'),
    'scene_changed': both(
        ' The {object} (not held) moved {moved} mm and tilted {tilted}° during the motion.',
        '运动期间 {object}（未夹持）移动了 {moved} mm，倾斜了 {tilted}°。'),
}
