"""
Serving the console: beside ``/mcp`` on the HTTP app, or alone on a loopback port (stdio).

Console requests pass the same Host/Origin guard as ``/mcp`` and get the
console's security headers; everything else goes to the MCP app unchanged.
"""

from __future__ import annotations

from typing import Any

from mcp_ros_bridge.server.console.routes import ConsoleRoutes, SecurityHeaders
from mcp_ros_bridge.server.host_guard import HostOriginGuard

PREFIX = '/console'


def guarded_console(routes: ConsoleRoutes) -> Any:
    """Return the console's ASGI app behind the Host/Origin guard, with its headers."""
    return SecurityHeaders(HostOriginGuard(routes.app(), routes.policy))


class ConsoleBeside:
    """Pure ASGI: ``/console`` and below to the console, the rest to ``app``."""

    def __init__(self, app: Any, console: Any) -> None:
        """Route between ``app`` (MCP) and ``console``."""
        self.app, self.console = app, console

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Dispatch by path."""
        path = scope.get('path', '') if scope['type'] == 'http' else ''
        if path == PREFIX or path.startswith(PREFIX + '/'):
            await self.console(scope, receive, send)
            return
        await self.app(scope, receive, send)
