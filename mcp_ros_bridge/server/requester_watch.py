"""
Deadman for handshake-era Streamable HTTP: notice when a call's requester vanishes.

On the 2025-11-25 wire a ``tools/call`` is one POST whose response streams back
as SSE. The SDK keeps the handler running when that stream dies, so this ASGI
middleware watches each POST: if the client disconnects (aborted request,
connection reset, closed SSE stream) before the response body was complete, it
reports the (session, JSON-RPC id) as gone. A DELETE ends the whole session.
"""

from __future__ import annotations

from collections.abc import Callable
import json
from typing import Any

from mcp_ros_bridge.server.host_guard import asgi_header

OnGone = Callable[[str, 'str | None'], None]
SESSION_HEADER = b'mcp-session-id'


def call_id(body: bytes) -> str | None:
    """Return the JSON-RPC id of a ``tools/call`` request body, else None."""
    try:
        message = json.loads(body)
    except (ValueError, RecursionError):
        return None
    if isinstance(message, dict) and message.get('method') == 'tools/call' and \
            isinstance(message.get('id'), (str, int)):
        return str(message['id'])
    return None


class RequesterWatch:
    """Pure ASGI middleware calling ``on_gone(session, request_id)`` for abandoned calls."""

    def __init__(self, app: Any, on_gone: OnGone, max_body: int) -> None:
        """Wrap ``app``; bodies longer than ``max_body`` are not inspected."""
        self.app = app
        self.on_gone = on_gone
        self.max_body = max_body

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Pass the request through, watching for a client that leaves early."""
        session = asgi_header(scope, SESSION_HEADER) if scope['type'] == 'http' else None
        if session is None:
            await self.app(scope, receive, send)
            return
        if scope['method'] == 'DELETE':
            await self.app(scope, receive, send)
            self.on_gone(session, None)
            return
        if scope['method'] != 'POST':
            await self.app(scope, receive, send)
            return
        await self._watch_post(session, scope, receive, send)

    async def _watch_post(self, session: str, scope: dict[str, Any], receive: Any,
                          send: Any) -> None:
        body = bytearray()
        state: dict[str, Any] = {'id': None, 'answered': False, 'reported': False}

        def gone() -> None:
            if state['id'] is not None and not state['answered'] and not state['reported']:
                state['reported'] = True
                self.on_gone(session, state['id'])

        async def watched_receive() -> dict[str, Any]:
            message: dict[str, Any] = await receive()
            if message['type'] == 'http.request' and len(body) <= self.max_body:
                body.extend(message.get('body', b''))
                if not message.get('more_body'):
                    state['id'] = call_id(bytes(body))
            elif message['type'] == 'http.disconnect':
                gone()
            return message

        async def watched_send(message: dict[str, Any]) -> None:
            if message['type'] == 'http.response.body' and not message.get('more_body'):
                state['answered'] = True
            await send(message)

        try:
            await self.app(scope, watched_receive, watched_send)
        finally:
            gone()
