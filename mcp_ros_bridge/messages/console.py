"""Texts of the operator console: refusals, approvals, the operator hold, the page labels."""

from mcp_ros_bridge.messages.table import both

TABLE: dict[str, tuple[str, str]] = {
    # server/calls.py, server/console/hold.py: the operator's STOP holds the arm.
    'operator_hold': both(
        '{tool} refused: OPERATOR_HOLD: a person pressed STOP in the operator console {age} s '
        'ago and holds the arm. Nothing moved. Only a person can release the hold (the '
        'release button of the console); read-only tools still work. Ask the user to release '
        'it, then call {tool} again: it will then run.',
        '{tool} 被拒绝：OPERATOR_HOLD：操作员在 {age} 秒前于操作台按下了 STOP 并保持机械臂停止。'
        '没有任何运动。只有人可以解除保持（操作台的解除按钮）；只读工具仍可使用。请让用户解除后'
        '再调用 {tool}：届时它将执行。'),
    'why_operator_stop': both('a person pressed STOP in the operator console',
                              '操作员在操作台按下了 STOP'),
    # safety/approval.py through server/console/desk.py: approvals decided in the console.
    'approval_console_denied': both('a person denied it in the operator console ({who})',
                                    '操作员在操作台拒绝了它（{who}）'),
    'approval_console_timeout': both(
        'nobody decided in the operator console within {seconds} s',
        '{seconds} 秒内没有人在操作台作出决定'),
    'approval_console_expired': both('nobody: expired, denied automatically',
                                     '无人：已过期，自动拒绝'),
    'approval_withdrawn_held': both('withdrawn: the arm was held by {who}',
                                    '已撤回：机械臂被 {who} 保持'),
    # server/console/routes.py: refusals of console requests (JSON error bodies).
    'console_needs_secret': both(
        'this needs the operator secret (not the MCP token): open the console URL the bridge '
        'printed at start (…/console#secret=…) or enter the secret in the page',
        '此操作需要操作员密钥（不是 MCP 令牌）：请打开桥接启动时打印的操作台地址'
        '（…/console#secret=…）或在页面中输入密钥'),
    'console_wrong_secret': both(
        'wrong operator secret: nothing was done; use the secret the bridge printed at start '
        '(a restart makes a new one unless --operator-secret-file is given)',
        '操作员密钥错误：未执行任何操作；请使用桥接启动时打印的密钥（除非指定 '
        '--operator-secret-file，否则每次重启都会生成新密钥）'),
    'console_bad_origin': both(
        'refused: a console action must come from the console page (Origin {origin})',
        '已拒绝：操作台操作必须来自操作台页面（Origin {origin}）'),
    'console_bad_body': both(
        'refused: the body must be a JSON object, for example {example}',
        '已拒绝：请求体必须是 JSON 对象，例如 {example}'),
    'console_unknown_approval': both(
        'no call waits for approval {id}: it was decided, cancelled or never issued',
        '没有等待批准 {id} 的调用：它已被决定、取消或从未发出'),
    'console_not_held': both('the arm is not held; nothing to release',
                             '机械臂未被保持；无需解除'),
    'console_no_answer': both('no answer within {seconds} s', '{seconds} 秒内没有应答'),
    'console_hold_restored': both(
        'the arm is HELD: a person pressed STOP at {since} ({by}) and the hold was kept across '
        'the restart ({path}); every motion is refused until a person releases it in the '
        'operator console',
        '机械臂处于保持状态：操作员于 {since} 按下了 STOP（{by}），该保持在重启后仍然有效（{path}）；'
        '在有人于操作台解除之前所有运动都会被拒绝'),
    'console_url': both('operator console at {url}', '操作台地址 {url}'),
    'console_secret_url': both(
        'operator console at {url} (for the person at the robot: the fragment is the operator '
        'secret every console action needs; do not give it to the agent)',
        '操作台地址 {url}（供机器人旁的人使用：片段是所有操作台操作所需的操作员密钥；不要交给智能体）'),
    # The page's labels (served by /console/labels in the server's or the asked language).
    'console_label_title': both('Robot operator console', '机器人操作台'),
    'console_label_joints': both('Joints', '关节'),
    'console_label_tip': both('Tip pose', '末端位姿'),
    'console_label_wrench': both('Wrist force (N), last seconds', '腕部力（N），最近几秒'),
    'console_label_gripper': both('Gripper', '夹爪'),
    'console_label_scene': both('Scene', '场景'),
    'console_label_capture': both('Capture image', '拍摄图像'),
    'console_label_motion': both('Motion', '运动'),
    'console_label_idle': both('idle', '空闲'),
    'console_label_stopping': both('stopping', '正在停止'),
    'console_label_envelope': both('Envelope', '安全范围'),
    'console_label_queue': both('Waiting for approval', '等待批准'),
    'console_label_none': both('none', '无'),
    'console_label_approve': both('Approve', '批准'),
    'console_label_deny': both('Deny', '拒绝'),
    'console_label_audit': both('Audit trail', '审计记录'),
    'console_label_stop': both('STOP', '停止'),
    'console_label_release': both('Release hold', '解除保持'),
    'console_label_held': both('HELD by the operator: every motion is refused until a person '
                               'releases it', '操作员保持中：在有人解除之前所有运动都会被拒绝'),
    'console_label_readonly': both(
        'Read-only view: open the URL the bridge printed (…/console#secret=…) or enter the '
        'operator secret to act; the audit trail and camera need it too',
        '只读视图：打开桥接打印的地址（…/console#secret=…）或输入操作员密钥后才能操作；'
        '审计记录和相机也需要它'),
    'console_label_wrong_secret': both('Wrong operator secret: still read-only',
                                       '操作员密钥错误：仍为只读'),
    'console_label_token': both('Operator secret', '操作员密钥'),
    'console_label_use_token': both('Use secret', '使用密钥'),
    'console_label_operator': both('Operator: you can stop, approve and release',
                                   '操作员：可以停止、批准和解除'),
    'console_label_live': both('live', '实时'),
    'console_label_offline': both('NOT LIVE: the console lost the bridge; data shown is old',
                                  '非实时：操作台与桥接断开；显示的数据已过时'),
    'console_label_unreachable': both('NOT LIVE: the bridge cannot read the robot: {error}',
                                      '非实时：桥接无法读取机器人：{error}'),
    'console_label_refused': both('Refused: {error}', '已拒绝：{error}'),
    'console_label_shortcut': both('Space or Escape: STOP', '空格或 Esc：停止'),
    'console_label_not_estop': both(
        "This STOP cancels the bridge's motions in software; it is not an emergency stop. In "
        'danger, use the hardware emergency stop.',
        '此 STOP 在软件中取消桥接的运动；它不是急停。遇到危险请使用硬件急停按钮。'),
    'console_label_held_since': both('(since {since}, {by})', '（自 {since}，{by}）'),
    'console_label_title_waiting': both('WAITING FOR YOU ({n})', '等待您（{n}）'),
    'console_label_waiting_age': both('waiting {age} s', '已等待 {age} 秒'),
    'console_label_expires_in': both('denied automatically in {left} s', '{left} 秒后自动拒绝'),
    'console_label_gone_expired': both('expired — denied automatically', '已过期——自动拒绝'),
    'console_label_gone_held': both('withdrawn — the arm is held', '已撤回——机械臂被保持'),
    'console_label_gone': both('withdrawn (decided, or its client has gone)',
                               '已撤回（已决定或其客户端已离开）'),
    'console_label_fact_motions': both('motions {v}', '运动段数 {v}'),
    'console_label_fact_duration': both('duration {v} s', '时长 {v} 秒'),
    'console_label_fact_speed': both('peak tip speed {v} mm/s', '末端峰值速度 {v} 毫米/秒'),
    'console_label_fact_target': both('target {v}', '目标 {v}'),
    'console_label_fact_object': both('object {v}', '物体 {v}'),
    'console_label_stopping_now': both('STOPPING…', '正在停止…'),
    'console_label_stopped_still': both('STOPPED: the arm was still {still} s after the request',
                                        '已停止：请求后 {still} 秒机械臂静止'),
    'console_label_stopped_late': both(
        'STOPPED (confirmed late, {after} s after the click): the arm was still {still} s '
        'after the request reached the bridge',
        '已停止（确认较晚，点击后 {after} 秒）：请求到达桥接后 {still} 秒机械臂静止'),
    'console_label_stop_unconfirmed': both(
        'STOP NOT CONFIRMED — use the hardware emergency stop ({why})',
        'STOP 未确认——请使用硬件急停（{why}）'),
    'console_label_stop_no_answer': both('no confirmation within {ms} ms',
                                         '{ms} 毫秒内没有确认'),
    'console_label_stop_not_still': both('the bridge could not confirm the arm is still',
                                         '桥接无法确认机械臂已静止'),
    'console_label_no_bridge': both('the bridge did not answer', '桥接没有应答'),
    'console_lease_operator': both('the operator console', '操作台'),
    'console_lease_changed': both(
        'the lease shown is no longer in force (it ended, expired or changed hands): nothing '
        'was done; look again at who holds it now',
        '所显示的租约已不再有效（已结束、过期或易手）：未执行任何操作；请重新查看当前持有者'),
    # The state banner, the force view, the lease, the sound (page labels).
    'console_label_state_idle': both('IDLE', '空闲'),
    'console_label_state_moving': both('MOVING: {tool}', '运动中：{tool}'),
    'console_label_state_stopping': both('STOPPING: {tool} ({why})', '正在停止：{tool}（{why}）'),
    'console_label_state_waiting': both('WAITING FOR YOU ({n})', '等待您（{n}）'),
    'console_label_state_held': both('HELD since {since} by {by}', '自 {since} 起被 {by} 保持'),
    'console_label_state_offline': both('NOT LIVE', '非实时'),
    'console_label_moving_detail': both('{percent} % done, {elapsed} s so far{eta}',
                                        '已完成 {percent} %，已用 {elapsed} 秒{eta}'),
    'console_label_eta': both(', about {left} s left', '，约剩 {left} 秒'),
    'console_label_last': both('Last motion: {tool} {how} at {at}', '上次运动：{tool} {how}（{at}）'),
    'console_label_ended_ok': both('ended OK', '正常结束'),
    'console_label_ended_error': both('ended {code}', '以 {code} 结束'),
    'console_label_ended_cancelled': both('was cancelled', '已取消'),
    'console_label_faults': both('SENSOR FAULT: {faults}', '传感器故障：{faults}'),
    'console_label_fault_joints': both('joint states', '关节状态'),
    'console_label_fault_tip': both('tip pose', '末端位姿'),
    'console_label_fault_wrench': both('wrist force', '腕部力'),
    'console_label_fault_gripper': both('gripper', '夹爪'),
    'console_label_lease': both('Lease', '租约'),
    'console_label_lease_free': both('free: the next session that moves the robot takes it',
                                     '空闲：下一个使机器人运动的会话将获得它'),
    'console_label_lease_held': both('held by {client} since {since}, expires in {left} s '
                                     'unless renewed', '由 {client} 自 {since} 起持有，'
                                     '若不续期将在 {left} 秒后过期'),
    'console_label_lease_end': both('End lease', '结束租约'),
    'console_label_lease_take': both('Take over', '接管'),
    'console_label_sound': both('Sound on new approvals', '新审批时提示音'),
    'console_label_force_axis': both('N (net of gripper weight{tare})', 'N（已扣除夹爪重量{tare}）'),
    'console_label_force_tare': both(' and tare', '及去皮'),
    'console_label_force_raw': both('N (raw: {why})', 'N（原始：{why}）'),
    'console_label_force_time': both('s ago', '秒前'),
    'console_label_force_limit': both('contact limit {v} N', '接触力限值 {v} N'),
    'console_label_force_legend': both('|F| min–max per update; Fx Fy Fz max',
                                       '每次更新的 |F| 最小–最大；Fx Fy Fz 最大'),
    'console_label_force_peak': both('peak |F| {v} N during {tool}', '{tool} 期间 |F| 峰值 {v} N'),
    'console_label_force_peak_now': both('peak |F| {v} N so far in {tool}',
                                         '{tool} 中目前 |F| 峰值 {v} N'),
    'console_label_force_gap': both('some sensor samples were missed', '部分传感器样本遗漏'),
    'console_label_joint_name': both('joint', '关节'),
    'console_label_joint_position': both('position', '位置'),
    'console_label_joint_velocity': both('velocity', '速度'),
    'console_label_joint_limits': both('within limits', '限位内位置'),
    'console_label_scene_taken': both('taken at {at}', '拍摄于 {at}'),
    'console_label_show_reads': both('also show reads (joint states, sensor reads …)',
                                     '同时显示读取（关节状态、传感器读取…）'),
    'console_label_grip_HOLDING': both('holding', '夹持中'),
    'console_label_grip_EMPTY': both('closed on nothing', '空夹'),
    'console_label_grip_OPEN': both('open', '张开'),
    'console_label_grip_LOST': both('object lost', '物体掉落'),
    'console_label_grip_STOPPED': both('stopped', '已停止'),
    'console_label_grip_TIMED_OUT': both('timed out', '超时'),
    'console_label_grip_FAILED': both('failed', '失败'),
    'console_label_grip_object': both('holds {v}', '夹持 {v}'),
    'console_label_env_workspace_m': both('workspace (m)', '工作空间（米）'),
    'console_label_env_max_velocity_scaling': both('max velocity scaling',
                                                   '最大速度比例'),
    'console_label_env_max_cartesian_speed_mps': both('max tip speed (m/s)',
                                                      '最大末端速度（米/秒）'),
    'console_label_env_contact_force_limit_n': both('contact force limit (N)', '接触力限值（N）'),
    'console_label_env_approach_cone_deg': both('approach cone (°)', '接近锥角（°）'),
}
