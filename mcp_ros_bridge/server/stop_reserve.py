"""
The reserved HTTP connections carry only a stop: ``stop_arm`` of an open session, its DELETE.

When every ordinary connection is busy, :class:`ConnectionBook` admits a few more
as reserved. On those this ASGI middleware lets through a ``tools/call`` of a
stop tool, a ``notifications/cancelled`` and a DELETE, each for an open session
(the deadman's ways in); anything else gets 503 and the connection is closed.
"""

from __future__ import annotations

from collections.abc import Callable
import json
from typing import Any

import anyio
from mcp_ros_bridge.messages import t
from mcp_ros_bridge.server.connection_guard import ConnectionBook, RESERVED_HEAD_S
from mcp_ros_bridge.server.host_guard import asgi_header
from mcp_ros_bridge.server.request_gate import jsonrpc_error, respond, SESSION_HEADER
from mcp_types import INTERNAL_ERROR

STOP_EXAMPLE = json.dumps({'jsonrpc': '2.0', 'id': 9, 'method': 'tools/call',
                           'params': {'name': 'stop_arm', 'arguments': {}}})


def carries_stop(body: bytes, is_stop_tool: Callable[[str], bool]) -> bool:
    """Return True for a stop tool call or a cancellation."""
    try:
        message = json.loads(body)
    except (ValueError, RecursionError):
        return False
    if not isinstance(message, dict):
        return False
    params = message.get('params')
    params = params if isinstance(params, dict) else {}
    return message.get('method') == 'notifications/cancelled' or \
        message.get('method') == 'tools/call' and isinstance(params.get('name'), str) and \
        is_stop_tool(params['name'])


class StopReserve:
    """Pure ASGI middleware: reserved connections serve stops of open sessions only."""

    def __init__(self, app: Any, book: ConnectionBook, live: Callable[[str], bool],
                 is_stop_tool: Callable[[str], bool], max_body: int) -> None:
        """Wrap ``app``."""
        self.app, self.book, self.live, self.is_stop_tool = app, book, live, is_stop_tool
        self.max_body = max_body

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Pass ordinary connections through; check what a reserved one carries."""
        if scope['type'] != 'http' or not self.book.is_reserved(scope.get('client')):
            await self.app(scope, receive, send)
            return
        session = asgi_header(scope, SESSION_HEADER)
        body = b''
        if scope['method'] == 'POST':
            with anyio.move_on_after(RESERVED_HEAD_S):
                message = await receive()
                body = message.get('body', b'') if not message.get('more_body') else b''
        allowed = session is not None and self.live(session) and (
            scope['method'] == 'DELETE' or carries_stop(body, self.is_stop_tool))
        if not allowed:
            await respond(send, 503, jsonrpc_error(INTERNAL_ERROR, t(
                'transport_reserved', seconds=1, example=STOP_EXAMPLE)), close=True)
            return
        replayed = False

        async def replay() -> Any:
            nonlocal replayed
            if scope['method'] == 'POST' and not replayed:
                replayed = True
                return {'type': 'http.request', 'body': body, 'more_body': False}
            return await receive()

        await self.app(scope, replay, send)
