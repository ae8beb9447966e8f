"""
Who is calling: keys for per-session state, the rate limit and the HTTP deadman.

Nothing here trusts a header a client may invent. On handshake-era HTTP the
``mcp-session-id`` is issued by the server and the SDK refuses unknown ids, so
it names a session; 2026-07-28 has no sessions (and its header is not checked),
so there the network peer is the client. The rate limit always keys on the
peer: sessions are free to open, addresses are not (clients behind one NAT
share a bucket). stdio serves one client.
"""

from __future__ import annotations

import itertools
from typing import Any
import weakref

from mcp.server import ServerRequestContext
from mcp.server.connection import Connection
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

RequestContext = ServerRequestContext[Any, Any]
"""What the low-level SDK hands every request handler."""

_serials = itertools.count(1)
_session_serials: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()


def _http_request(ctx: RequestContext) -> Any:
    request = getattr(ctx, 'request', None)
    return request if getattr(request, 'headers', None) is not None else None


def _modern(ctx: RequestContext) -> bool:
    return getattr(ctx, 'protocol_version', None) in MODERN_PROTOCOL_VERSIONS


def peer(ctx: RequestContext) -> str:
    """Return the caller's network address on HTTP, ``'local'`` on stdio or in memory."""
    request = _http_request(ctx)
    client = getattr(request, 'client', None)
    return f'peer:{client.host}' if client is not None else 'local'


def http_session(ctx: RequestContext) -> str | None:
    """Return the server-issued session id of a handshake-era HTTP call, else None."""
    request = _http_request(ctx)
    if request is None or _modern(ctx):
        return None
    return request.headers.get('mcp-session-id') or None


def session_scope(ctx: RequestContext) -> str:
    """Return the session that idempotency keys and similar per-session state belong to."""
    session = http_session(ctx)
    if session is not None:
        return f'session:{session}'
    if _http_request(ctx) is not None or _modern(ctx):
        return peer(ctx)
    connection = client_connection(ctx)
    serial = _session_serials.get(connection)
    if serial is None:
        serial = _session_serials[connection] = next(_serials)
    return f'connection:{serial}'


def client_connection(ctx: RequestContext) -> Connection:
    """
    Return the SDK connection a request arrived on (what outlives its per-request session).

    The low-level server's context has no public accessor for it, so this reads the
    session's private attribute and fails loudly (AttributeError) if the SDK renames
    it; test/contract/test_sdk_connection.py pins the behaviour that depends on it.
    """
    connection = ctx.session._connection
    if not isinstance(connection, Connection):
        raise TypeError(f'the SDK session holds {type(connection).__name__}, not a Connection')
    return connection


def client_name(ctx: RequestContext) -> str:
    """Return the name the client gave itself (clientInfo), '' when it gave none."""
    params = client_connection(ctx).client_params
    return params.client_info.name if params is not None else ''


def scope_or_none(ctx: RequestContext) -> str | None:
    """Return :func:`session_scope`, or None for a context without a session (in memory)."""
    try:
        return session_scope(ctx)
    except Exception:  # noqa: BLE001 - the audit line is written whatever the context
        return None


def requester_key(ctx: RequestContext) -> tuple[str, str] | None:
    """Return (HTTP session id, JSON-RPC id) of a handshake-era HTTP call, else None."""
    session = http_session(ctx)
    return (session, str(ctx.request_id)) if session is not None else None
