"""
The console's connections, booked like MCP's: viewers in their own pool, STOP in the reserve.

Pure ASGI middleware in front of the console's routes, over HTTP and beside a
stdio host alike. A ``GET /console/events`` stream moves its connection into the
book's viewer pool (outside the ceiling and the reserve; the oldest viewer is
dropped when it is full). On a reserved connection only ``POST /console/stop``
passes (the operator's STOP is a stop); anything else gets 503. Every POST body
must arrive within the body deadline (:class:`RequestGate`).
"""

from __future__ import annotations

import json
from typing import Any

from mcp_ros_bridge.messages import t
from mcp_ros_bridge.server.connection_guard import ConnectionBook
from mcp_ros_bridge.server.request_gate import jsonrpc_error, RequestGate, respond
from mcp_ros_bridge.server.request_ids import InFlight
from mcp_types import INTERNAL_ERROR

EVENTS_PATH = '/console/events'
STOP_PATH = '/console/stop'
MAX_CONSOLE_BODY = 4096  # the console's own limit (a longer body gets its 400)
STOP_EXAMPLE = json.dumps({})


class ConsoleConnections:
    """Pure ASGI middleware: the book's rules for console requests, and a body deadline."""

    def __init__(self, app: Any, book: ConnectionBook, body_timeout_s: float) -> None:
        """Wrap the console's ``app``."""
        self.book = book
        self.app = RequestGate(app, InFlight(), lambda _: False, MAX_CONSOLE_BODY,
                               body_timeout_s)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Book the request's connection, then serve it."""
        if scope['type'] == 'http':
            client = scope.get('client')
            if self.book.is_reserved(client) and \
                    (scope['method'], scope['path']) != ('POST', STOP_PATH):
                await respond(send, 503, jsonrpc_error(INTERNAL_ERROR, t(
                    'transport_reserved_console', seconds=1, example=STOP_EXAMPLE)), close=True)
                return
            if scope['method'] == 'GET' and scope['path'] == EVENTS_PATH:
                self.book.become_viewer(client)
        await self.app(scope, receive, send)
