"""
The README's remote recipe works as written: ``--host 0.0.0.0`` plus a token serves remote hosts.

The server binds every address; the client reaches it on a second loopback address
(127.0.0.2), so the Host header names an address that is not 127.0.0.1 — as a
remote client's would.
"""

from __future__ import annotations

import re

import anyio
from bridge_kit import MODES, text_of
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_ros_bridge.server.host_guard import host_name, host_policy, origin_key
import pytest
from raw_http import JSON_HEADERS, RawSession
from server_process import http_server

pytestmark = [pytest.mark.contract, pytest.mark.anyio]

TOKEN = 'remote-token-51c2'
AUTH = {'Authorization': f'Bearer {TOKEN}'}
INIT = {'jsonrpc': '2.0', 'id': 1, 'method': 'initialize',
        'params': {'protocolVersion': '2025-11-25', 'capabilities': {},
                   'clientInfo': {'name': 'raw', 'version': '0'}}}


async def test_wildcard_bind_with_token_answers_a_remote_address() -> None:
    """Any Host with the token (both protocol generations); without it 401; bad Origin 403."""
    async with http_server(TOKEN, host='0.0.0.0') as (url, _):
        remote = url.replace('0.0.0.0', '127.0.0.2')
        with anyio.fail_after(90):
            async with httpx2.AsyncClient(timeout=httpx2.Timeout(30, read=60)) as h:
                assert (await h.post(remote, json=INIT, headers=JSON_HEADERS)).status_code == 401
                r = await h.post(remote, json=INIT, headers={
                    **JSON_HEADERS, **AUTH, 'Origin': 'http://evil.example'})
                assert r.status_code == 403
                session = await RawSession(h, remote, AUTH).start()
                read = await session.call('get_joint_states', {})
                assert not read.get('isError')
            for mode in MODES:
                hc = httpx2.AsyncClient(headers=AUTH, timeout=httpx2.Timeout(30, read=60))
                async with hc, Client(streamable_http_client(remote, http_client=hc),
                                      mode=mode) as client:
                    moved = await client.call_tool('get_end_effector_pose', {})
                    assert not moved.is_error, text_of(moved)


async def test_allowed_hosts_restrict_a_wildcard_bind() -> None:
    """With --allowed-host only that name (and loopback) is served; others get 421."""
    async with http_server(TOKEN, host='0.0.0.0',
                           flags=('--allowed-host', 'robot.lan')) as (url, _):
        port = url.rsplit(':', 1)[1].split('/')[0]
        remote = url.replace('0.0.0.0', '127.0.0.2')
        with anyio.fail_after(60):
            async with httpx2.AsyncClient(timeout=httpx2.Timeout(30)) as h:
                ok = await h.post(remote, json=INIT, headers={
                    **JSON_HEADERS, **AUTH, 'Host': f'robot.lan:{port}'})
                assert ok.status_code == 200, ok.text
                other = await h.post(remote, json=INIT, headers={**JSON_HEADERS, **AUTH})
                assert other.status_code == 421


def test_host_policy_names_and_origins() -> None:
    """Ports do not matter; IPv6 is bracketed; a loopback bind never accepts any Host."""
    assert host_name('[::1]:8765') == '[::1]' and host_name('::1') == '[::1]'
    assert host_name('Robot.LAN:80') == 'robot.lan'
    assert origin_key('https://app.example:3000') == 'https://app.example'
    local = host_policy('127.0.0.1', None, [], ['http://app.example:*'])
    assert local.hosts is not None and 'evil.example' not in local.hosts
    assert 'http://app.example' in local.origins
    assert host_policy('0.0.0.0', TOKEN, [], []).hosts is None
    assert host_policy('0.0.0.0', None, [], []).hosts is not None
    assert '192.168.1.20' in host_policy('192.168.1.20', TOKEN, [], []).hosts


async def test_remote_recipe_page_acts_from_its_own_origin() -> None:
    """README: token + ``--host 0.0.0.0``; the page's own Origin may STOP, release and decide."""
    async with http_server(TOKEN, host='0.0.0.0') as (url, lines):
        remote = url.replace('0.0.0.0', '127.0.0.2')
        page = remote.removesuffix('/mcp')  # http://127.0.0.2:PORT, the page's own origin
        printed = re.search(r'#secret=(\S+)', await lines.wait_for('operator console at'))
        assert printed is not None, lines[-5:]
        # console actions carry the operator's secret, printed for the person, not the token
        own = {'Authorization': f'Bearer {printed.group(1)}', 'Origin': page,
               'Content-Type': 'application/json'}
        with anyio.fail_after(90):
            async with httpx2.AsyncClient(timeout=httpx2.Timeout(30, read=60)) as h:
                stop = await h.post(f'{page}/console/stop', headers=own, content='{}')
                release = await h.post(f'{page}/console/release', headers=own, content='{}')
                decide = await h.post(f'{page}/console/decide', headers=own,
                                      json={'id': 'none-waiting', 'approve': True})
                forged = await h.post(f'{page}/console/stop', headers={
                    **own, 'Origin': 'http://evil.example'}, content='{}')
                other_port = await h.post(f'{page}/console/stop', headers={
                    **own, 'Origin': page.replace('127.0.0.2', '127.0.0.3')}, content='{}')
                session = await RawSession(h, remote, {**AUTH, 'Origin': page}).start()
                read = await session.call('get_joint_states', {})
    assert stop.status_code == 200 and 'stopped_motion' in stop.json(), stop.text
    assert release.status_code == 200 and release.json() == {'released': True}, release.text
    assert decide.status_code == 404, decide.text  # past the Origin check: no such approval
    assert forged.status_code == 403 and other_port.status_code == 403
    assert not read.get('isError'), read


async def test_one_address_cannot_use_up_the_sessions() -> None:
    """
    256 idle sessions from one address: its next gets 503.

    Another address (a client bound to 127.0.0.2) and, after a DELETE, the first
    one open sessions again.
    """
    from mcp_ros_bridge.server.http_sessions import SESSIONS_PER_ADDRESS
    async with http_server(TOKEN, host='0.0.0.0') as (url, _):
        local = url.replace('0.0.0.0', '127.0.0.1')
        elsewhere = httpx2.AsyncHTTPTransport(local_address='127.0.0.2')
        with anyio.fail_after(300):
            async with httpx2.AsyncClient(timeout=httpx2.Timeout(30, read=60)) as h, \
                    httpx2.AsyncClient(transport=elsewhere, timeout=httpx2.Timeout(30)) as h2:
                opened = []
                for _ in range(SESSIONS_PER_ADDRESS):
                    r = await h.post(local, json=INIT, headers={**JSON_HEADERS, **AUTH})
                    assert r.status_code == 200, r.text
                    opened.append(r.headers['mcp-session-id'])
                refused = await h.post(local, json=INIT, headers={**JSON_HEADERS, **AUTH})
                other = await h2.post(local, json=INIT, headers={**JSON_HEADERS, **AUTH})
                deleted = await h.delete(local, headers={**JSON_HEADERS, **AUTH,
                                                         'mcp-session-id': opened[0]})
                again = await h.post(local, json=INIT, headers={**JSON_HEADERS, **AUTH})
    assert refused.status_code == 503 and 'Too many open sessions' in refused.text
    assert other.status_code == 200 and deleted.status_code == 200, (other.text, deleted.text)
    assert again.status_code == 200, again.text
