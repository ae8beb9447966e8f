"""
Malformed requests get a clean refusal, through raw HTTP and a stdio subprocess.

A Host (or Origin) with userinfo is refused; JSON nested deeper than the limit is
a JSON-RPC error, never a traceback, on both transports; a second request with an
id still in flight in its session is refused, and the first still gets its answer.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import anyio
from bridge_kit import REPO
import httpx2
from mcp_ros_bridge.server.json_depth import MAX_JSON_DEPTH
import pytest
from raw_http import RawSession, sse_events
from server_process import http_server, serve_argv, server_env, SIM

pytestmark = [pytest.mark.contract, pytest.mark.anyio]

TIMEOUT = httpx2.Timeout(30, read=60)
SLOW_MOVE = {'positions': [1.2, -0.2, 0.0, -1.8, 0.0, 1.9, 0.785], 'velocity_scaling': 0.1}


def deep_ping(request_id: int, depth: int) -> str:
    """Return a ping whose ``_meta`` nests lists ``depth`` deep."""
    return (f'{{"jsonrpc":"2.0","id":{request_id},"method":"ping","params":{{"_meta":{{"x":'
            + '[' * depth + ']' * depth + '}}}')


async def test_host_with_userinfo_and_deep_json_are_refused_cleanly() -> None:
    """``localhost:80@evil.com`` -> 421; 1,000-deep ``_meta`` -> 400 with -32700, no traceback."""
    async with http_server(None) as (url, log_lines):
        with anyio.fail_after(60):
            async with httpx2.AsyncClient(timeout=TIMEOUT) as h:
                session = await RawSession(h, url, {}).start()
                ping = {'jsonrpc': '2.0', 'id': 40, 'method': 'ping'}
                hosts = {}
                for host in ('localhost:80@evil.com', 'evil.com#@localhost', 'localhost:80 x'):
                    r = await h.post(url, headers={**session.headers, 'Host': host}, json=ping)
                    hosts[host] = r.status_code
                origin = await h.post(url, json=ping, headers={
                    **session.headers, 'Origin': 'http://localhost:80@evil.com'})
                deep = await h.post(url, headers=session.headers, content=deep_ping(41, 1000))
                deep_args = await h.post(url, headers=session.headers, json=session.call_body(
                    'move_arm_relative', {'offset': {'z': json.loads('[' * 200 + ']' * 200)}}))
                fine = await h.post(url, headers=session.headers, content=deep_ping(42, 20))
    assert hosts == dict.fromkeys(hosts, 421) and origin.status_code == 403
    for refused in (deep, deep_args):
        assert refused.status_code == 400, refused.text
        error = refused.json()['error']
        assert error['code'] == -32700 and str(MAX_JSON_DEPTH) in error['message']
    assert fine.status_code == 200 and '"result"' in fine.text
    assert not [line for line in log_lines if 'Traceback' in line or 'RecursionError' in line]


async def _read_answers(stdout: Any, want: set[Any]) -> dict[Any, dict[str, Any]]:
    """Read JSON-RPC answers from ``stdout`` until every id in ``want`` has one."""
    answers: dict[Any, dict[str, Any]] = {}
    buffer = b''
    async for chunk in stdout:
        buffer += chunk
        *lines, buffer = buffer.split(b'\n')
        for line in lines:
            message = json.loads(line)
            if 'id' in message:
                key = message['id'] if message['id'] is not None else \
                    f"null{sum(1 for k in answers if str(k).startswith('null'))}"
                answers[key] = message
        if want <= set(answers):
            return answers
    raise AssertionError(f'stdout ended; answers so far: {answers}')


async def test_stdio_answers_deep_json_with_an_error() -> None:
    """stdio: 1,000 deep -> -32700 (id null), 100 deep -> -32600 naming its id, then a ping."""
    process = await anyio.open_process([sys.executable, *serve_argv()], cwd=REPO,
                                       env=server_env(None))
    errors = bytearray()

    async def drain() -> None:
        assert process.stderr
        async for chunk in process.stderr:
            errors.extend(chunk)

    try:
        with anyio.fail_after(90):
            assert process.stdin and process.stdout
            lines = [json.dumps({'jsonrpc': '2.0', 'id': 1, 'method': 'initialize',
                                 'params': {'protocolVersion': '2025-11-25', 'capabilities': {},
                                            'clientInfo': {'name': 'raw', 'version': '0'}}}),
                     json.dumps({'jsonrpc': '2.0', 'method': 'notifications/initialized'}),
                     deep_ping(2, 1000), deep_ping(3, 100), 'not json',
                     json.dumps({'jsonrpc': '2.0', 'id': 4, 'method': 'ping'})]
            async with anyio.create_task_group() as tg:
                tg.start_soon(drain)
                await process.stdin.send(('\n'.join(lines) + '\n').encode())
                answers = await _read_answers(process.stdout, {1, 3, 4, 'null0', 'null1'})
                await process.stdin.aclose()
                await process.wait()
    finally:
        if process.returncode is None:
            process.kill()
        with anyio.move_on_after(10, shield=True):
            await process.wait()
    stderr = errors.decode('utf-8', 'replace')
    assert answers['null0']['error']['code'] == -32700
    assert str(MAX_JSON_DEPTH) in answers['null0']['error']['message']
    assert answers['null1']['error']['code'] == -32700  # 'not json'
    assert answers[3]['error']['code'] == -32600
    assert str(MAX_JSON_DEPTH) in answers[3]['error']['message']
    assert answers[4]['result'] == {} and 2 not in answers
    assert 'Traceback' not in stderr


@pytest.mark.skipif(not SIM, reason='needs the simulation for a call that stays in flight')
async def test_duplicate_request_id_in_flight_is_refused() -> None:
    """A second POST reusing an in-flight id gets -32600 naming it; the first still answers."""
    async with http_server(None, sim_speed='1') as (url, _):
        with anyio.fail_after(120):
            async with httpx2.AsyncClient(timeout=TIMEOUT) as h, \
                    httpx2.AsyncClient(timeout=TIMEOUT) as other:
                session = await RawSession(h, url, {}).start()
                body = session.call_body('move_arm_joints', SLOW_MOVE, progress='p')
                duplicate: list[httpx2.Response] = []
                final: dict[str, Any] = {}
                async with h.stream('POST', url, headers=session.headers, json=body) as r:
                    async for event in sse_events(r.aiter_lines()):
                        message = json.loads(event['data']) if event.get('data') else {}
                        if message.get('method') == 'notifications/progress' and not duplicate:
                            duplicate.append(await other.post(url, headers=session.headers, json={
                                'jsonrpc': '2.0', 'id': body['id'], 'method': 'tools/call',
                                'params': {'name': 'stop_arm', 'arguments': {}}}))
                        if message.get('id') == body['id']:
                            final = message
                            break
                again = await session.call('get_joint_states', {})
    refused = duplicate[0]
    assert refused.status_code == 409, refused.text
    error = refused.json()['error']
    assert refused.json()['id'] is None and error['code'] == -32600
    assert f'id {body["id"]} ' in error['message']
    result = final['result']
    assert not result['isError'] and result['structuredContent']['status'] == 'SUCCEEDED', \
        'the duplicate did not stop or take over the first call'
    assert 'joints' in again['structuredContent']
