"""
Checks on each POSTed JSON-RPC body before the SDK sees it: time, size, nesting, id in use.

Pure ASGI middleware. It reads the whole body within ``body_timeout_s`` (a slow
body gets 408), refuses a body nested deeper than MAX_JSON_DEPTH (JSON-RPC -32700,
no traceback) and a request whose id is already in flight in its session
(-32600, id null so no client mistakes it for the first call's answer), then
hands the body on unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
import json
from typing import Any

import anyio
from mcp_ros_bridge.messages import t
from mcp_ros_bridge.server.host_guard import asgi_header
from mcp_ros_bridge.server.json_depth import MAX_JSON_DEPTH, SHALLOW_EXAMPLE, too_deep
from mcp_ros_bridge.server.request_ids import InFlight
from mcp_types import INVALID_REQUEST, PARSE_ERROR

SESSION_HEADER = b'mcp-session-id'


def jsonrpc_error(code: int, text: str) -> bytes:
    """Return a JSON-RPC error body without an id."""
    return json.dumps({'jsonrpc': '2.0', 'id': None,
                       'error': {'code': code, 'message': text}}, ensure_ascii=False).encode()


async def respond(send: Any, status: int, body: bytes, close: bool = False) -> None:
    """Send a whole JSON response."""
    headers = [(b'content-type', b'application/json'),
               (b'content-length', str(len(body)).encode())]
    await send({'type': 'http.response.start', 'status': status,
                'headers': headers + ([(b'connection', b'close')] if close else [])})
    await send({'type': 'http.response.body', 'body': body})


def request_id(body: bytes) -> str | None:
    """Return the id of a JSON-RPC request body (not a notification or a batch), else None."""
    try:
        message = json.loads(body)
    except (ValueError, RecursionError):
        return None
    if isinstance(message, dict) and 'method' in message and \
            isinstance(message.get('id'), (str, int)) and not isinstance(message['id'], bool):
        return str(message['id'])
    return None


class RequestGate:
    """Pure ASGI middleware: bounded body time, bounded nesting, one request per id in flight."""

    def __init__(self, app: Any, in_flight: InFlight, live: Callable[[str], bool],
                 max_body: int, body_timeout_s: float) -> None:
        """Wrap ``app``; ``live(session)`` says whether a session id is open."""
        self.app, self.in_flight, self.live = app, in_flight, live
        self.max_body, self.body_timeout_s = max_body, body_timeout_s

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Check POST bodies; pass everything else through."""
        if scope['type'] != 'http' or scope['method'] != 'POST':
            await self.app(scope, receive, send)
            return
        body = bytearray()
        complete = False
        with anyio.move_on_after(self.body_timeout_s):
            while True:
                message = await receive()
                if message['type'] != 'http.request':
                    return  # the client left before its body was complete
                body.extend(message.get('body', b''))
                if len(body) > self.max_body or not message.get('more_body'):
                    complete = True
                    break
        if complete:
            await self._checked(scope, bytes(body), receive, send)
            return
        await respond(send, 408, jsonrpc_error(INVALID_REQUEST, t(
            'transport_body_slow', seconds=self.body_timeout_s, limit=self.max_body)), True)

    async def _checked(self, scope: dict[str, Any], body: bytes, receive: Any,
                       send: Any) -> None:
        if too_deep(body):
            await respond(send, 400, jsonrpc_error(PARSE_ERROR, t(
                'transport_too_deep', limit=MAX_JSON_DEPTH, example=SHALLOW_EXAMPLE)))
            return
        session = asgi_header(scope, SESSION_HEADER)
        rid = request_id(body) if session is not None and self.live(session) else None
        claim = None
        if session is not None and rid is not None:
            claim = self.in_flight.claim(session, rid)
            if claim is None:
                await respond(send, 409, jsonrpc_error(INVALID_REQUEST, t(
                    'transport_id_in_use', id=json.dumps(json.loads(body)['id']),
                    example=json.dumps({'id': f'{rid}-2'}))))
                return
        await self._pass_on(scope, body, receive, send, session, rid, claim)

    async def _pass_on(self, scope: dict[str, Any], body: bytes, receive: Any, send: Any,
                       session: str | None, rid: str | None, claim: object) -> None:
        replayed = False
        streamed = False

        async def replay() -> Any:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {'type': 'http.request', 'body': body, 'more_body': False}
            return await receive()

        async def watch(message: dict[str, Any]) -> None:
            nonlocal streamed
            if message['type'] == 'http.response.start':
                streamed = any(k == b'content-type' and v.startswith(b'text/event-stream')
                               for k, v in message.get('headers', []))
            await send(message)

        try:
            await self.app(scope, replay, watch)
        finally:
            if claim is not None and session is not None and rid is not None and not streamed:
                self.in_flight.release(session, rid, claim)
