"""
Streamable HTTP: loopback by default, Host/Origin checks (host_guard), bearer token, body limit.

A non-loopback bind refuses to start without a token. With a token every
request needs ``Authorization: Bearer <token>`` (compared in constant time);
a missing or wrong one gets 401 with ``WWW-Authenticate``. The token is never
logged.
"""

from __future__ import annotations

from collections.abc import Callable
import hmac
import ipaddress
import json
from typing import Any

from mcp.server.lowlevel import Server
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp
from mcp.server.transport_security import TransportSecuritySettings
from mcp_ros_bridge.server.connection_guard import ConnectionBook
from mcp_ros_bridge.server.event_store import EventLog, RETRY_MS
from mcp_ros_bridge.server.host_guard import host_policy, HostOriginGuard
from mcp_ros_bridge.server.http_sessions import ScopedSessionManager
from mcp_ros_bridge.server.request_gate import RequestGate
from mcp_ros_bridge.server.request_ids import InFlight
from mcp_ros_bridge.server.requester_watch import OnGone, RequesterWatch
from mcp_ros_bridge.server.stop_reserve import StopReserve
from starlette.applications import Starlette
from starlette.routing import Route

MAX_BODY_BYTES = 1_000_000
BODY_TIMEOUT_S = 10.0


def is_loopback(host: str) -> bool:
    """Return True for 127.0.0.0/8, ::1 and localhost."""
    if host == 'localhost':
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class BearerAuth:
    """Pure ASGI middleware: 401 unless the bearer token matches."""

    def __init__(self, app: Any, token: str) -> None:
        """Wrap ``app``; ``token`` must be non-empty."""
        self.app = app
        self._token = token.encode()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Check the Authorization header of HTTP requests."""
        if scope['type'] != 'http':
            await self.app(scope, receive, send)
            return
        supplied = b''
        for name, value in scope.get('headers', []):
            if name == b'authorization' and value[:7].lower() == b'bearer ':
                supplied = value[7:].strip()
        if supplied and hmac.compare_digest(supplied, self._token):
            await self.app(scope, receive, send)
            return
        body = json.dumps({'error': 'unauthorized',
                           'error_description': 'a valid bearer token is required'}).encode()
        await send({'type': 'http.response.start', 'status': 401, 'headers': [
            (b'content-type', b'application/json'),
            (b'www-authenticate', b'Bearer realm="mcp_ros_bridge", error="invalid_token"'),
            (b'content-length', str(len(body)).encode())]})
        await send({'type': 'http.response.body', 'body': body})


def check_bind(host: str, token: str | None) -> None:
    """Raise ValueError when ``host`` is not loopback and there is no token."""
    if not is_loopback(host) and not token:
        raise ValueError(f'refusing to bind {host}: a non-loopback address needs a bearer '
                         'token (--token-file or MCP_ROS_BRIDGE_TOKEN)')


def mcp_app(server: Server, log: EventLog, in_flight: InFlight
            ) -> tuple[Any, ScopedSessionManager]:
    """Return the SDK's Streamable HTTP endpoint at ``/mcp`` on per-session event stores."""
    manager = ScopedSessionManager(
        server, log, in_flight, max_request_body_size=MAX_BODY_BYTES, retry_interval=RETRY_MS,
        security_settings=TransportSecuritySettings(enable_dns_rebinding_protection=False))
    app = Starlette(routes=[Route('/mcp', endpoint=StreamableHTTPASGIApp(manager))],
                    lifespan=lambda _: manager.run())
    return app, manager


def build_app(server: Server, host: str, port: int, token: str | None,
              allowed_origins: list[str] | None = None,
              on_requester_gone: OnGone | None = None,
              allowed_hosts: list[str] | None = None,
              body_timeout_s: float = BODY_TIMEOUT_S, book: ConnectionBook | None = None,
              is_stop_tool: Callable[[str], bool] | None = None) -> Any:
    """Return the ASGI app serving MCP at ``/mcp``; ``book`` names reserved connections."""
    check_bind(host, token)
    in_flight = InFlight()
    app, manager = mcp_app(server, EventLog(), in_flight)
    if on_requester_gone is not None:
        app = RequesterWatch(app, on_requester_gone, MAX_BODY_BYTES)
    app = RequestGate(app, in_flight, manager.live.__contains__, MAX_BODY_BYTES, body_timeout_s)
    if book is not None and is_stop_tool is not None:
        app = StopReserve(app, book, manager.live.__contains__, is_stop_tool, MAX_BODY_BYTES)
    app = HostOriginGuard(app, host_policy(host, token, allowed_hosts or [],
                                           allowed_origins or []))
    return BearerAuth(app, token) if token else app
