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
}
