"""
The SDK's Streamable HTTP session manager, with one event store and one id registry per session.

The SDK hands every session's transport the same event store and keys its
streams by JSON-RPC id, which SDK clients number from 0 in every session; so here
each new session's transport gets its own view of the :class:`EventLog`, and
when a session ends (DELETE, idle timeout, crash) its events and ids are freed.

One client address holds at most SESSIONS_PER_ADDRESS open sessions (a new one
beyond gets the SDK's 503 "Too many open sessions"), so one client cannot use up
the SDK's cap (10,000) for everyone. Clients on one address (every local process
on loopback, hosts behind one NAT) share the budget: refusing the newest keeps
every open session working, which evicting the oldest would not.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any
from uuid import uuid4

from mcp.server.auth.middleware.bearer_auth import AuthorizationContext
from mcp.server.streamable_http import StreamableHTTPServerTransport
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp_ros_bridge.server.event_store import EventLog
from mcp_ros_bridge.server.request_ids import InFlight

SESSIONS_PER_ADDRESS = 256
_opener: ContextVar[str] = ContextVar('opener', default='')


class ScopedSessionManager(StreamableHTTPSessionManager):
    """Sessions whose events and request ids are their own."""

    def __init__(self, app: Any, log: EventLog, in_flight: InFlight, **options: Any) -> None:
        """Manage the sessions of ``app``; ``options`` go to the SDK's manager."""
        super().__init__(app, **options)
        self.log, self.in_flight = log, in_flight
        self.live: set[str] = set()
        self.by_address: dict[str, set[str]] = {}
        self._address_of: dict[str, str] = {}

    async def _handle_stateful_request(self, scope: Any, receive: Any, send: Any) -> None:
        client = scope.get('client')
        _opener.set(str(client[0]) if client else '')
        await super()._handle_stateful_request(scope, receive, send)

    def _admit_session(self, requestor: AuthorizationContext | None
                       ) -> StreamableHTTPServerTransport | None:
        # As the SDK's, but the transport's event store is this session's own view.
        if self.max_sessions is not None and len(self._server_instances) >= self.max_sessions:
            return None
        address = _opener.get()
        if len(self.by_address.get(address, ())) >= SESSIONS_PER_ADDRESS:
            return None
        session_id = uuid4().hex
        transport = StreamableHTTPServerTransport(
            mcp_session_id=session_id, is_json_response_enabled=self.json_response,
            event_store=self.log.view(session_id, self.in_flight.answered),
            security_settings=self.security_settings, retry_interval=self.retry_interval,
            idle_timeout=self.session_idle_timeout)
        if requestor is not None:
            self._session_owners[session_id] = requestor
        self._server_instances[session_id] = transport
        self.live.add(session_id)
        self.by_address.setdefault(address, set()).add(session_id)
        self._address_of[session_id] = address
        return transport

    async def _discard_session(self, session_id: str,
                               transport: StreamableHTTPServerTransport) -> None:
        self.live.discard(session_id)
        address = self._address_of.pop(session_id, '')
        held = self.by_address.get(address, set())
        held.discard(session_id)
        if not held:
            self.by_address.pop(address, None)
        self.log.forget(session_id)
        self.in_flight.forget(session_id)
        await super()._discard_session(session_id, transport)
