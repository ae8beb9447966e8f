"""Texts of the HTTP and stdio transports: refused requests (too deep, id in use, slow, busy)."""

from mcp_ros_bridge.messages.table import both

TABLE: dict[str, tuple[str, str]] = {
    'transport_too_deep': both(
        'Parse error: the JSON is nested deeper than {limit} levels (objects and arrays). '
        'Send at most {limit} levels, e.g. {example}; the corrected request is answered as '
        'usual.',
        '解析错误：JSON 嵌套超过 {limit} 层（对象和数组）。最多发送 {limit} 层，例如 {example}；'
        '改正后的请求照常得到答复。'),
    'transport_parse_error': both(
        'Parse error: the line is not one JSON-RPC message ({detail}). Send one JSON object '
        'per line, e.g. {example}; it is then answered as usual.',
        '解析错误：该行不是一条 JSON-RPC 消息（{detail}）。每行发送一个 JSON 对象，例如 {example}；'
        '这样它会照常得到答复。'),
    'transport_id_in_use': both(
        'Invalid request: id {id} is already in use by a request of this session that is '
        'still in flight. Send it with a new id, e.g. {example}; it is then answered as usual, '
        'and the first request still gets its own answer.',
        '无效请求：id {id} 已被本会话中仍在处理的请求占用。请换一个新 id 发送，例如 {example}；'
        '这样它会照常得到答复，第一个请求也仍会得到自己的答复。'),
    'transport_body_slow': both(
        'Request timeout: the request body did not arrive within {seconds} s. Send the whole '
        'body at once (at most {limit} bytes); the request is then answered as usual.',
        '请求超时：请求体未在 {seconds} 秒内到达。请一次发送完整的请求体（最多 {limit} 字节）；'
        '这样请求会照常得到答复。'),
    'transport_reserved': both(
        'Server busy: every connection is in use; the reserved connections carry only '
        'stop_arm calls, cancellations and DELETE of an open session. Retry in {seconds} s, '
        'or send stop_arm with your session id, e.g. {example}.',
        '服务器繁忙：所有连接都在使用中；保留的连接只接受 stop_arm 调用、取消通知和对已打开会话的 '
        'DELETE。请在 {seconds} 秒后重试，或带上会话 id 发送 stop_arm，例如 {example}。'),
    'transport_reserved_console': both(
        'Server busy: every connection is in use; on the console the reserved connections '
        "carry only the operator's STOP (POST /console/stop). Retry in {seconds} s, or send "
        'STOP now, e.g. POST /console/stop with body {example}.',
        '服务器繁忙：所有连接都在使用中；在操作台上，保留的连接只接受操作员的 STOP（POST /console/stop）。'
        '请在 {seconds} 秒后重试，或立即发送 STOP，例如以请求体 {example} 发送 POST /console/stop。'),
}
