"""Texts of refusals and failures: backend errors, safety limits, the call pipeline."""

from mcp_ros_bridge.messages.table import both

TABLE: dict[str, tuple[str, str]] = {
    # contract/results.py: a BackendError as the model reads it.
    'backend_failed': both('{tool} failed: {code}: {message}.', '{tool} 失败：{code}：{message}。'),
    'advice_NO_IK_SOLUTION': both(
        'The pose is out of reach; try a point closer to the base or another orientation '
        '(fingers down is roll 180, pitch 0).',
        '该位姿无法到达；请尝试离基座更近的点或其他姿态（手指向下为 roll 180、pitch 0）。'),
    'advice_GOAL_IN_COLLISION': both(
        'The target collides with the robot, the table or an object; raise the target or move '
        'it away from obstacles.',
        '目标与机器人、桌子或物体碰撞；请抬高目标或让它远离障碍物。'),
    'advice_PLANNING_FAILED': both(
        'No collision-free path was found; try an intermediate pose first.',
        '没有找到无碰撞路径；请先移动到一个中间位姿。'),
    'advice_SENSOR_STALE': both(
        'The sensor stream is late or stopped; check the driver and try again.',
        '传感器数据延迟或已停止；请检查驱动后重试。'),
    'advice_TIMED_OUT': both(
        'The goal was cancelled after its timeout; check the robot state.',
        '目标超时后已被取消；请检查机器人状态。'),
    'advice_UNAVAILABLE': both(
        'The robot interface is not reachable; check that the driver or MoveIt is running.',
        '无法连接机器人接口；请确认驱动或 MoveIt 正在运行。'),
    'advice_LIMIT_EXCEEDED': both(
        'Adjust the value to the allowed range and call again.',
        '请把数值调整到允许范围内再调用。'),
    'binding_unchecked': both(
        '{name} ({type}) commands arm or gripper motion that the safety envelope cannot check',
        '{name}（{type}）会驱动机械臂或夹爪运动，安全包络无法检查'),
    'binding_unchecked_fix': both(
        "use the bridge's own arm and gripper tools instead: their paths are checked before "
        'anything moves. Nothing moved.',
        '请改用桥接自带的机械臂和夹爪工具：它们的路径会在运动前检查。没有任何运动。'),
    'advice_BUSY': both(
        'Wait for the running motion to finish, or call stop_arm first.',
        '请等待当前运动结束，或先调用 stop_arm。'),
    # server/calls.py and safety/arbiter.py, approval.py.
    'rate_limited': both(
        '{tool} refused: too many motion calls; try again in {wait} s. Nothing moved.',
        '{tool} 被拒绝：运动调用过多；请在 {wait} 秒后重试。没有任何运动。'),
    'refused': both('{tool} refused: {reason}', '{tool} 被拒绝：{reason}'),
    'busy': both(
        'the arm is busy with {tool} (running for {age} s); only one motion runs at a time. '
        'Wait for it to finish and call again, or call stop_arm to cancel it first. Read-only '
        'tools keep working meanwhile.',
        '机械臂正忙于 {tool}（已运行 {age} 秒）；同一时间只运行一个运动。请等它结束后再调用，或先调用 stop_arm 取消它。只读工具在此期间照常可用。'),
    'not_approved': both('{tool} not executed: {reason}.', '{tool} 未执行：{reason}。'),
    'read_timed_out': both(
        '{tool} timed out after {timeout} s; the request was cancelled.',
        '{tool} 在 {timeout} 秒后超时；请求已取消。'),
    'internal_error': both(
        '{tool} failed with an internal error ({error}); the arm holds its position. Check the '
        'server log.',
        '{tool} 因内部错误（{error}）失败；机械臂保持当前位置。请查看服务器日志。'),
    'stopped_started': both(
        '{tool} stopped; the arm holds its position ({why}).',
        '{tool} 已停止；机械臂保持当前位置（{why}）。'),
    'stopped_not_started': both(
        '{tool} not started; nothing moved. Call again to move ({why}).',
        '{tool} 未开始；没有任何运动。请再次调用以运动（{why}）。'),
    # safety/envelope.py: limits.
    'limit_is': both('{limit} is {value}, allowed {allowed}', '{limit} 为 {value}，允许 {allowed}'),
    'workspace_allowed': both(
        'x in [{x0}, {x1}], y in [{y0}, {y1}], z in [{z0}, {z1}] m in {frame}',
        '{frame} 中 x 在 [{x0}, {x1}]、y 在 [{y0}, {y1}]、z 在 [{z0}, {z1}] 米内'),
    'workspace_point_hint': both('Choose a point inside the workspace box.', '请选择工作空间长方体内的点。'),
    'plan_tip_speed_fix': both(
        'Nothing moved: the plan would move the fingertip faster than its speed limit. Call '
        'again with a lower velocity_scaling.',
        '没有任何运动：该规划会使指尖快于速度上限。请用更小的 velocity_scaling 重新调用。'),
    'path_hint': both(
        'The motion between allowed end points would sweep the tip out of the workspace box; '
        'nothing moved. Go through an intermediate pose nearer the base (or lower), or follow a '
        'straight line with the Cartesian path tool.',
        '在允许的端点之间运动会让指尖扫出工作空间长方体；没有任何运动。请经过一个离基座更近（或更低）的中间位姿，或用笛卡尔路径工具走直线。'),
    'cone_allowed': both(
        'at most {cone} deg between the finger axis and straight down',
        '手指轴与竖直向下之间至多 {cone} 度'),
    'cone_target': both(
        'Nothing moved. The fingers would point {angle} deg away from straight down (0 is down, '
        '90 horizontal, 180 up). Orientation angles are degrees: roll 180, pitch 0 points the '
        'fingers straight down.',
        '没有任何运动。手指将偏离竖直向下 {angle} 度（0 为向下，90 为水平，180 为向上）。姿态角单位是度：roll 180、pitch 0 使手指竖直向下。'),
    'cone_path': both(
        'Nothing moved. The motion would turn the fingers {angle} deg away from straight down '
        '(0 is down, 90 horizontal, 180 up). Orientation angles are degrees: roll 180, pitch 0 '
        'points the fingers straight down.',
        '没有任何运动。该运动会使手指偏离竖直向下 {angle} 度（0 为向下，90 为水平，180 为向上）。姿态角单位是度：roll 180、pitch 0 使手指竖直向下。'),
    'sensor_stale': both(
        'the F/T sample is {age} s old, older than {max_age} s; force control needs fresh data',
        '力/力矩样本已有 {age} 秒，超过 {max_age} 秒；力控需要新数据'),
    # capabilities/motion_advice.py: the likely unit mistake.
    'radians_suspect': both(
        '{axis} {value} looks like radians: {degrees} deg',
        '{axis} {value} 看起来是弧度：{degrees} 度'),
    'radians_join': both('; ', '；'),
    'radians_said': both(
        '{said}. Orientation angles are degrees (roll 180 points the fingers down).',
        '{said}。姿态角单位是度（roll 180 使手指向下）。'),
    'radians_fixed': both(' In degrees: "orientation": {fixed}.', '换算成度："orientation": {fixed}。'),
    # safety/envelope.py: clamps and joint names.
    'clamped': both(
        '{label} clamped from {value} to {clamped}',
        '{label} 已从 {value} 限幅到 {clamped}'),
    'joints_unknown': both(
        'no limits for joints {unknown}; nothing moved',
        '关节 {unknown} 没有限位；没有任何运动'),
    'joints_unknown_fix': both('name only the arm joints {joints}', '只能指定机械臂关节 {joints}'),
    'joints_count': both(
        'positions holds {got} values but the arm has {n} joints; nothing moved',
        'positions 有 {got} 个值，但机械臂有 {n} 个关节；没有任何运动'),
    'joints_count_fix': both(
        'Send exactly {n} angles (rad), one per joint in the order {joints}, e.g. '
        '{{"positions": {example}}}; a corrected call returns the reached joint angles.',
        '请发送恰好 {n} 个角度（弧度），按 {joints} 的顺序每个关节一个，例如 '
        '{{"positions": {example}}}；改正后的调用会返回到达的关节角。'),
    'path_farther_out': both(
        'The arm is outside this limit now, so a motion may only bring it closer with every '
        'sample; the way back is a named posture (move_arm_to_posture home) or a pose with the '
        'fingers down inside the workspace.',
        '机械臂当前已在该限制之外，因此运动的每个样本都必须更靠近限制之内；回去的办法是命名姿态'
        '（move_arm_to_posture home）或在工作空间内手指朝下的位姿。'),
    'path_sample': both(
        '{label} at t={at} s, sample {i} of {n}',
        '{label}，t={at} 秒，第 {i}/{n} 个样本'),
    # safety/idempotency.py.
    'keys_session': both(
        'this session already used {count} idempotency keys in the last {ttl} s; reuse a key '
        'only to repeat a call, or call without one',
        '本会话在最近 {ttl} 秒内已使用 {count} 个 idempotency_key；只有重复调用时才复用键，否则请不带键调用'),
    'keys_server': both(
        'the server holds {count} idempotency keys from all sessions; call without one or try '
        'again later',
        '服务器已保存所有会话的 {count} 个 idempotency_key；请不带键调用或稍后再试'),
    'key_reused': both(
        'idempotency_key {key} was already used for {tool} with different arguments; use a new '
        'key for a new request',
        'idempotency_key {key} 已用于参数不同的 {tool} 调用；新请求请使用新键'),
    'key_abandoned': both(
        'the first call with idempotency_key {key} was cancelled before it finished',
        '使用 idempotency_key {key} 的第一次调用在完成前被取消'),
    # safety/approval.py: what the user is asked, and why a motion was not approved.
    'approval_asks': both('{title} ({tool}) asks to move the robot.', '{title}（{tool}）请求移动机器人。'),
    'approval_target': both(
        'Target: x={x} y={y} z={z} m in {frame}.',
        '目标：{frame} 中 x={x} y={y} z={z} m。'),
    'approval_plan': both(
        'The plan: {duration} s, fingertip up to {speed} mm/s along {length} m{object}.',
        '规划：{duration} 秒，指尖最高 {speed} mm/s，路径 {length} m{object}。'),
    'approval_job_plan': both(
        "The job's {motions} arm motions, each planned from where the one before ends: "
        '{duration} s in all, fingertip up to {speed} mm/s along {length} m{object}; '
        'approving runs these plans, except a motion after a guarded touch, which is '
        'planned again from where the touch ended.',
        '作业的 {motions} 段手臂运动（每段从上一段的终点规划）：共 {duration} 秒，指尖最高 {speed} mm/s，'
        '路径 {length} m{object}；批准后按这些规划运行，只有接触探测之后的运动从接触停止处重新规划。'),
    'approval_plan_object': both(', holding the {object}', '，手持 {object}'),
    'approval_distance': both('Distance: {dist} m.', '距离：{dist} m。'),
    'approval_distance_unknown': both(
        'Distance: unknown (current pose unavailable).',
        '距离：未知（无法获取当前位姿）。'),
    'approval_joints': both('Target joints: {joints}.', '目标关节：{joints}。'),
    'approval_offset': both('Offset: x={x} y={y} z={z} m in {frame}.',
                            '偏移：{frame} 中 x={x} y={y} z={z} m。'),
    'approval_guarded': both(
        'Straight {direction}, at most {dist} m at {speed} mm/s, until a force above {force} N.',
        '沿 {direction} 直线移动，至多 {dist} m，速度 {speed} mm/s，直到力超过 {force} N。'),
    'approval_push': both('Push the {object} {direction} by {dist} m, at most {force} N.',
                          '把 {object} 向 {direction} 推 {dist} m，至多 {force} N。'),
    'approval_pick': both('Object: the {object}.', '物体：{object}。'),
    'approval_place_at': both('Put it down at x={x} y={y} m in {frame}.',
                              '放在 {frame} 中 x={x} y={y} m 处。'),
    'approval_held_object': both('held object', '所夹物体'),
    'approval_place_from': both(
        'Put it down {x} m forward, {y} m left of where the {origin} is now.',
        '放在 {origin} 当前位置向前 {x} m、向左 {y} m 处。'),
    'approval_place_toward': both(
        'Put it down {x} m toward the {toward} (from the {origin}), {y} m left of that line.',
        '放在从 {origin} 朝 {toward} 方向 {x} m、该方向左侧 {y} m 处。'),
    'approval_place_on': both('Put it down on the {on}.', '放在 {on} 上。'),
    'approval_release': both('Then open the gripper.', '然后张开夹爪。'),
    'approval_keep': both('Then keep holding it.', '然后继续夹持。'),
    'approval_posture': both('Posture: {posture}.', '姿态：{posture}。'),
    'approval_force': both('Grip force: {force} N.', '夹持力：{force} N。'),
    'approval_speed': both('Speed scaling: {scaling} of maximum.', '速度比例：最大值的 {scaling}。'),
    'approval_declined': both('the user declined the motion; nothing moved', '用户拒绝了该运动；没有任何运动'),
    'approval_cancelled': both('the user cancelled the motion; nothing moved', '用户取消了该运动；没有任何运动'),
    # capabilities/preview.py, weighing.py, ros_bindings.py.
    'plan_only_unsupported': both(
        'plan_only is not available on this backend; nothing moved',
        '此后端不支持 plan_only；没有任何运动'),
    'plan_only_unsupported_fix': both(
        'Call again without "plan_only" to move, or preview on the simulation (--backend sim).',
        '去掉 "plan_only" 再次调用即可运动，或在仿真上预览（--backend sim）。'),
    'sensor_orientation_unknown': both(
        'the sensor orientation is unknown ({message})',
        '传感器姿态未知（{message}）'),
    'ros_topic_latest': both('Latest message on {name}: {body}', '{name} 上的最新消息：{body}'),
    'ros_service_response': both('Response from {name}: {body}', '{name} 的响应：{body}'),
    'ros_action_result': both(
        'Action {status} from {name}: {body}',
        '动作 {name} 返回 {status}：{body}'),
    'ros_action_ABORTED': both(
        'The action server aborted the goal; check its log and the goal values before retrying.',
        '动作服务器中止了目标；重试前请检查其日志和目标值。'),
    'ros_action_CANCELED': both(
        'The goal was cancelled before it finished (stop_arm or the action server).',
        '目标在完成前被取消（stop_arm 或动作服务器）。'),
    'ros_action_TIMED_OUT': both(
        'No result within the timeout of {timeout} s; the goal was cancelled. Check that the '
        'action server is running and answering.',
        '在 {timeout} 秒超时内没有结果；目标已取消。请确认动作服务器正在运行并响应。'),
    'ros_action_failed': both('The action did not succeed.', '动作未成功。'),
    # server/calls.py: why a motion was stopped or not started.
    'why_stop_arm': both('stop_arm was called', '调用了 stop_arm'),
    'why_stop_arm_after': both(
        'stop_arm was called after this call arrived',
        '本调用到达后调用了 stop_arm'),
    'why_cancelled': both('its request was cancelled', '其请求被取消'),
    'why_gone_before': both('its client disconnected before it started', '其客户端在开始前断开了连接'),
    'why_client_gone': both('the client that requested it disconnected', '发起请求的客户端断开了连接'),
    'why_session_ended': both('the client ended its session', '客户端结束了会话'),
    'why_client_silent': both('its client stopped answering pings (heartbeat_timeout_s)',
                              '其客户端不再响应 ping（heartbeat_timeout_s）'),
    # server/repeats.py: idempotency keys.
    'key_refused': both('{tool} refused: {reason}. Nothing moved.', '{tool} 被拒绝：{reason}。没有任何运动。'),
    'key_not_repeated': both(
        '{tool} not repeated: {reason}; this repeat did not move. Call again with the same key '
        'to run it.',
        '{tool} 未重复执行：{reason}；本次重复调用没有运动。用同一键再次调用即可执行。'),
    'key_waited': both(
        '(This repeat waited for the first call with idempotency_key {key}, which ended '
        '{earlier}; nothing moved again. Call again with the same key to retry.)',
        '（本次重复调用等待了使用 idempotency_key {key} 的第一次调用，它以 {earlier} 结束；没有再次运动。用同一键再次调用即可重试。）'),
    'key_replayed': both(
        '(Replayed the earlier result for idempotency_key {key}; nothing moved again.)',
        '（重放了 idempotency_key {key} 的先前结果；没有再次运动。）'),
    'key_not_replayed': both(
        '(An earlier call with idempotency_key {key} ended {earlier} and is not replayed; this '
        'call ran.)',
        '（使用 idempotency_key {key} 的先前调用以 {earlier} 结束，不会重放；本次调用已执行。）'),
    # backends/sim: planning refusals and the contact guard.
    'sim_target_at': both('({x}, {y}, {z}) m in {frame}', '{frame} 中 ({x}, {y}, {z}) m'),
    'sim_ik_collides': both(
        'every IK solution for the target at {where} collides: {contacts}',
        '目标 {where} 的所有逆解都发生碰撞：{contacts}'),
    'sim_ik_collides_fix': both(
        'raise the target above the table or move it away from the obstacle',
        '请把目标抬高到桌面以上或让它远离障碍物'),
    'sim_no_ik': both(
        'no joint configuration reaches the target at {where} with the requested orientation',
        '没有关节构型能以所要求的姿态到达目标 {where}'),
    'sim_no_ik_fix': both(
        'Nothing moved. The target is {reach} m from the shoulder (x {sx}, y {sy}, z {sz} m in '
        '{frame}); {reachable} Move the target closer.',
        '没有任何运动。目标距肩部 {reach} m（{frame} 中 x {sx}、y {sy}、z {sz} m）；{reachable}'
        '请把目标移近。'),
    'sim_reach_panda': both(
        'with the fingers down (roll 180, pitch 0) targets within 0.70 m of it are reachable, '
        'up to 0.80 m near table height.',
        '手指向下（roll 180、pitch 0）时，距肩部 0.70 m 以内的目标可达，接近桌面高度时可达 0.80 m。'),
    'sim_reach_arm': both(
        'the fingertips reach at most {max} m from it, less with the fingers down.',
        '指尖距肩部最远 {max} m，手指向下时更近。'),
    'sim_goal_collides': both(
        'the goal configuration collides: {contacts}',
        '目标构型发生碰撞：{contacts}'),
    'sim_path_collides': both(
        'the joint-space path to the goal collides: {contacts}',
        '到目标的关节空间路径发生碰撞：{contacts}'),
    'sim_path_collides_fix': both(
        'go through an intermediate pose higher above the table',
        '请经过一个离桌面更高的中间位姿'),
    'sim_path_meets_object': both(
        'the planned path runs into {objects} {at} s after the start ({contacts}); nothing '
        'moved',
        '规划的路径在开始后 {at} 秒撞到 {objects}（{contacts}）；没有任何运动'),
    'sim_path_meets_object_fix': both(
        'go around or above it through an intermediate pose; to touch it on purpose use '
        'move_until_contact or push_object, which watch the force',
        '请经过一个中间位姿绕开或越过它；要有意接触它，请用会监测力的 move_until_contact 或 push_object'),
    'sim_contact_abort': both(
        'contact force {force} N exceeded the {limit} N limit ({pair}); the arm stopped and '
        'backed off',
        '接触力 {force} N 超过 {limit} N 的限值（{pair}）；机械臂已停止并后退'),
    'approval_not_elicitation': both(
        'the approval answer was not an elicitation result; nothing moved',
        '审批答复不是 elicitation 结果；没有任何运动'),
    'approval_unsupported': both(
        "this tool needs the user's approval, but the client cannot ask the user (no "
        'elicitation support); nothing moved. Ask the user to approve in a client that supports '
        'elicitation, or to change the approval policy',
        '此工具需要用户批准，但客户端无法询问用户（不支持 elicitation）；没有任何运动。请让用户在支持 elicitation 的客户端中批准，或更改审批策略'),
    # backends/sim: names, busy arm, settled motions.
    'sim_unknown_object': both(
        'no object named {name}; known objects: {known}',
        '没有名为 {name} 的物体；已知物体：{known}'),
    'sim_unknown_joints': both('unknown joints {unknown}', '未知关节 {unknown}'),
    'sim_unknown_joints_fix': both('use the arm joints {joints}', '请使用机械臂关节 {joints}'),
    'sim_joints_outside': both('joint goal outside the limits: {bad}', '关节目标超出限位：{bad}'),
    'sim_unknown_camera': both(
        'no camera {camera}; cameras: {cameras}',
        '没有相机 {camera}；可用相机：{cameras}'),
    'sim_unknown_frame': both('unknown frame {name}', '未知坐标系 {name}'),
    'sim_unknown_frame_fix': both(
        'use the base frame {base} or a link of the robot',
        '请使用基座坐标系 {base} 或机器人的某个连杆'),
    'sim_arm_busy': both('another arm motion is still running', '另一个机械臂运动仍在进行'),
    'sim_arm_busy_fix': both('wait for it to finish or call stop first', '请等待它结束或先调用停止'),
    'sim_settled_off': both(
        'settled {mm} mm / {deg} deg from the target',
        '停在距目标 {mm} mm / {deg} deg 处'),
    'sim_reached_pose': both(
        'reached the pose within {mm} mm and {deg} deg in {s} s',
        '在 {s} 秒内到达位姿，误差 {mm} mm、{deg} deg'),
    'sim_reached_joints': both(
        'reached the joint goal (max error {err} rad)',
        '到达关节目标（最大误差 {err} rad）'),
    'sim_stale': both('{what} are {age} s old', '{what}已有 {age} 秒'),
    'sim_stale_fix': both('start the backend; the simulation is not stepping', '请启动后端；仿真没有在运行'),
    'sim_max_step': both('max_step_m must be > 0', 'max_step_m 必须 > 0'),
    'sim_render_failed': both('offscreen rendering failed: {error}', '离屏渲染失败：{error}'),
    'sim_render_fix': both(
        'install libegl1 libegl-mesa0 libgl1-mesa-dri (EGL) or libosmesa6 with MUJOCO_GL=osmesa',
        '请安装 libegl1 libegl-mesa0 libgl1-mesa-dri（EGL），或安装 libosmesa6 并设置 MUJOCO_GL=osmesa'),
    'sim_zero_quaternion': both('the orientation quaternion has zero length', '姿态四元数长度为零'),
    'sim_zero_quaternion_fix': both(
        'send a unit quaternion (w, x, y, z), e.g. (0, 1, 0, 0)',
        '请发送单位四元数 (w, x, y, z)，例如 (0, 1, 0, 0)'),
    'sim_link_unknown': both('cannot plan for link {link}', '无法为连杆 {link} 规划'),
    'sim_link_unknown_fix': both('use one of {links}', '请使用以下之一：{links}'),
    'sim_ros_only': both(
        '{what} needs the ros backend; the sim backend has no ROS graph',
        '{what} 需要 ros 后端；sim 后端没有 ROS 图'),
    'sim_ros_only_fix': both(
        'run with --backend ros against a ROS 2 system',
        '请用 --backend ros 连接 ROS 2 系统运行'),
    'sim_too_slow': both(
        'velocity_scaling {scaling} would make this motion take {took} s, longer than its '
        '{timeout} s timeout',
        'velocity_scaling {scaling} 会使该运动耗时 {took} 秒，超过其 {timeout} 秒超时'),
    'sim_too_slow_split': both('Split the motion into shorter moves.', '请把运动拆成更短的几段。'),
    'sim_too_slow_fix': both(
        'Send velocity_scaling >= {slowest} (the slowest this motion allows), or split it into '
        'shorter moves.',
        '请发送 velocity_scaling >= {slowest}（该运动允许的最慢值），或拆成更短的几段。'),
}
