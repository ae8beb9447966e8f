"""
The real server in a subprocess: stdio in both protocol modes, and Streamable HTTP hardening.

The subprocess comes from ``server_process`` (fast simulation, or the recording
double where the simulation does not import).
"""

from __future__ import annotations

import re
import sys

import anyio
from bridge_kit import make_bridge, MODES, REPO, text_of
from doubles import RecordingBackend
import httpx2
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp_ros_bridge.server.app import serve, ServeOptions
from mcp_ros_bridge.server.http_transport import build_app, is_loopback
import pytest
from server_process import http_server, serve_argv, server_env

pytestmark = [pytest.mark.contract, pytest.mark.anyio]

TOKEN = 'test-token-7f3a9c'
REACHABLE = {'position': {'x': 0.4, 'y': 0.1, 'z': 0.35}}
INIT = {'jsonrpc': '2.0', 'id': 1, 'method': 'initialize',
        'params': {'protocolVersion': '2025-11-25', 'capabilities': {},
                   'clientInfo': {'name': 'raw', 'version': '0'}}}
JSON_HEADERS = {'Accept': 'application/json, text/event-stream',
                'Content-Type': 'application/json'}


@pytest.mark.parametrize('mode', MODES)
async def test_stdio_subprocess(mode: str) -> None:
    """The real server over stdio: list, a read call and a motion call."""
    params = StdioServerParameters(command=sys.executable, args=serve_argv(), cwd=REPO,
                                   env=server_env(None))
    with anyio.fail_after(120):
        async with Client(params, mode=mode) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert {'move_arm_to_pose', 'get_joint_states', 'stop_arm'} <= names
            read = await client.call_tool('get_joint_states', {})
            assert not read.is_error, text_of(read)
            assert len(read.structured_content['joints']) == 9
            moved = await client.call_tool('move_arm_to_pose', REACHABLE)
            assert not moved.is_error, text_of(moved)
            assert moved.structured_content['status'] == 'SUCCEEDED'
            bad = await client.call_tool('move_arm_to_pose', {'position': {'x': '0.4'}})
            assert bad.is_error and 'position.x' in text_of(bad)


async def test_http_subprocess_hardening_and_session() -> None:
    """Streamable HTTP: 401, 403, 421, 413, -32700, then a full authorised session."""
    async with http_server(TOKEN) as (url, log_lines):
        auth = {'Authorization': f'Bearer {TOKEN}'}
        with anyio.fail_after(60):
            async with httpx2.AsyncClient(timeout=httpx2.Timeout(20)) as h:
                r = await h.post(url, json=INIT, headers=JSON_HEADERS)
                assert r.status_code == 401
                assert r.headers['www-authenticate'].startswith('Bearer ')
                r = await h.post(url, json=INIT,
                                 headers={**JSON_HEADERS, 'Authorization': 'Bearer wrong'})
                assert r.status_code == 401
                r = await h.post(url, json=INIT, headers={**JSON_HEADERS, **auth,
                                                          'Origin': 'http://evil.example'})
                assert r.status_code == 403
                r = await h.post(url, json=INIT, headers={**JSON_HEADERS, **auth,
                                                          'Host': 'evil.example:80'})
                assert r.status_code == 421
                big = b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"pad": "' + \
                    b'x' * 1_100_000 + b'"}}'
                r = await h.post(url, content=big, headers={**JSON_HEADERS, **auth})
                assert r.status_code == 413
                r = await h.post(url, content=b'{"jsonrpc": "2.0", "id": 1, "method": ',
                                 headers={**JSON_HEADERS, **auth})
                assert r.status_code == 400
                assert r.json()['error']['code'] == -32700
                r = await h.post(url, json=INIT, headers={**JSON_HEADERS, **auth})
                assert r.status_code == 200
                if r.headers.get('mcp-session-id'):
                    await h.delete(url, headers={**auth,
                                                 'mcp-session-id': r.headers['mcp-session-id']})
            for mode in MODES:
                hc = httpx2.AsyncClient(headers=auth, timeout=httpx2.Timeout(30, read=60))
                async with hc, Client(streamable_http_client(url, http_client=hc),
                                      mode=mode) as client:
                    tools = (await client.list_tools()).tools
                    assert len(tools) >= 11
                    read = await client.call_tool('get_end_effector_pose', {})
                    assert not read.is_error, text_of(read)
                    moved = await client.call_tool('move_arm_to_pose', REACHABLE)
                    assert not moved.is_error, text_of(moved)
        assert not [line for line in log_lines if TOKEN in line], 'the token was logged'


def test_build_app_refuses_non_loopback_without_token() -> None:
    """build_app: a non-loopback bind needs a token; loopback does not."""
    bridge, _ = make_bridge()
    for host in ('0.0.0.0', '::', '192.168.1.20', 'robot.local'):
        assert not is_loopback(host)
        with pytest.raises(ValueError, match=f'refusing to bind {re.escape(host)}'):
            build_app(bridge.server, host, 8765, None)
        assert build_app(bridge.server, host, 8765, TOKEN) is not None
    for host in ('127.0.0.1', 'localhost', '::1', '127.0.0.2'):
        assert is_loopback(host)
        assert build_app(bridge.server, host, 8765, None) is not None


async def test_serve_refuses_public_bind_before_starting_the_robot(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The refusal comes before the backend starts (no robot connection is opened)."""
    monkeypatch.delenv('MCP_ROS_BRIDGE_TOKEN', raising=False)
    backend = RecordingBackend()
    with anyio.fail_after(10), pytest.raises(ValueError, match='refusing to bind 0.0.0.0'):
        await serve(ServeOptions(transport='http', host='0.0.0.0', port=0, watch=False),
                    backend=backend)
    assert backend.calls == []


async def test_cli_refuses_non_loopback_bind_without_token() -> None:
    """``serve --transport http --host 0.0.0.0`` without a token exits non-zero, one line."""
    process = await anyio.open_process(
        [sys.executable, '-m', 'mcp_ros_bridge.cli', 'serve', '--transport', 'http',
         '--host', '0.0.0.0', '--port', '0', '--no-watch'], cwd=REPO, env=server_env(None))
    try:
        with anyio.fail_after(90):
            chunks = [chunk async for chunk in process.stderr]
            rc = await process.wait()
    finally:
        if process.returncode is None:
            process.kill()
            with anyio.move_on_after(10, shield=True):
                await process.wait()
    stderr = b''.join(chunks).decode('utf-8', 'replace').strip().splitlines()
    assert rc != 0
    errors = [line for line in stderr if line.startswith('mcp-ros-bridge:')]
    assert len(errors) == 1, stderr
    assert 'refusing to bind 0.0.0.0' in errors[0] and 'token' in errors[0]
    assert not [line for line in stderr if line.startswith('Traceback')]
