"""
The motion rate limit keys on what a client cannot forge (its network peer), on real HTTP.

A 2026-07-28 client that sends a fresh random ``mcp-session-id`` header with each
request still shares one bucket: a burst beyond the limit is refused in part.
"""

from __future__ import annotations

import secrets
from types import SimpleNamespace

import anyio
from bridge_kit import error_code, HOME
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_ros_bridge.server.calls import CallSettings
from mcp_ros_bridge.server.identity import peer, session_scope
import pytest
from server_process import http_server

pytestmark = [pytest.mark.contract, pytest.mark.anyio]

BURST = CallSettings().motion_burst + 4


async def _forge_session(request: httpx2.Request) -> None:
    request.headers['mcp-session-id'] = secrets.token_hex(8)


async def test_random_session_headers_do_not_buy_a_fresh_bucket() -> None:
    """A concurrent burst with forged session ids: some calls are RATE_LIMITED."""
    codes: list[str] = []
    async with http_server(None) as (url, _):
        hc = httpx2.AsyncClient(event_hooks={'request': [_forge_session]},
                                timeout=httpx2.Timeout(30, read=60))
        with anyio.fail_after(90):
            async with hc, Client(streamable_http_client(url, http_client=hc),
                                  mode='2026-07-28') as client:
                async def move() -> None:
                    r = await client.call_tool('move_arm_joints', {'positions': HOME})
                    codes.append(error_code(r) or 'OK')

                async with anyio.create_task_group() as tg:
                    for _ in range(BURST):
                        tg.start_soon(move)
    assert len(codes) == BURST
    assert 'RATE_LIMITED' in codes, codes


def _ctx(protocol: str, host: str | None, session_header: str | None = None) -> object:
    headers = {'mcp-session-id': session_header} if session_header else {}
    client = SimpleNamespace(host=host) if host else None
    request = SimpleNamespace(headers=headers, client=client)
    return SimpleNamespace(protocol_version=protocol, request=request, request_id=1)


def test_keys_name_the_peer_and_only_server_issued_sessions() -> None:
    """Peers differ by address; a 2026 session header is ignored, a 2025 one scopes keys."""
    assert peer(_ctx('2026-07-28', '10.0.0.1', 'forged')) == 'peer:10.0.0.1'
    assert peer(_ctx('2026-07-28', '10.0.0.2')) != peer(_ctx('2026-07-28', '10.0.0.1'))
    assert session_scope(_ctx('2026-07-28', '10.0.0.1', 'forged')) == 'peer:10.0.0.1'
    assert session_scope(_ctx('2025-11-25', '10.0.0.1', 'abc')) == 'session:abc'
    assert peer(_ctx('2025-11-25', '10.0.0.1', 'abc')) == 'peer:10.0.0.1'
