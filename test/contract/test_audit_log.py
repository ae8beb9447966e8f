"""
The audit log through the real stdio server: redaction by pattern, capped lines and names.

Rotation is checked on the AuditLog itself with a small size bound.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import anyio
from bridge_kit import REPO
import httpx2
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp_ros_bridge.server.audit import AuditLog, MAX_LINE, MAX_TOOL_NAME
import pytest
from raw_http import RawSession
from server_process import http_server, serve_argv, server_env, SIM
import test_http_deadman as deadman

pytestmark = [pytest.mark.contract, pytest.mark.anyio]

SECRET = 'hunter2-secret-value'
SECRETS = {'auth_header': SECRET, 'Session-Token': SECRET, 'db_password': SECRET,
           'apiKey': SECRET, 'passphrase': SECRET, 'pwd': SECRET, 'Cookie': SECRET,
           'session': SECRET, 'note': f'Authorization: Bearer {SECRET}',
           'note_colon': f'Bearer:{SECRET}', 'note_equals': f'x?bearer={SECRET}&y=1',
           'note_basic': 'Authorization: Basic aHVudGVyMi1zZWNyZXQtdmFsdWU=',
           'plain': 'basic motion'}
NOTES = {'note': 'Authorization: Bearer ***', 'note_colon': 'Bearer:***',
         'note_equals': 'x?bearer=***&y=1', 'note_basic': 'Authorization: Basic ***',
         'plain': 'basic motion'}


async def test_audit_lines_over_stdio_are_redacted_and_capped(tmp_path: Any) -> None:
    """Secrets never reach the file; unknown names and huge arguments are cut; keys stay."""
    log = tmp_path / 'audit.jsonl'
    params = StdioServerParameters(command=sys.executable, cwd=REPO, env=server_env(None),
                                   args=serve_argv('--audit-log', str(log)))
    huge = {'waypoints': [{'x': 0.4, 'y': 0.0, 'z': 0.3, 'pad': 'p' * 150}] * 200}
    with anyio.fail_after(120):
        async with Client(params, mode='legacy') as client:
            with pytest.raises(MCPError):
                await client.call_tool('x' * 5000, SECRETS)
            await client.call_tool('get_joint_states', SECRETS)
            await client.call_tool('plan_trajectory', huge)
            await client.call_tool('move_arm_joints', {
                'positions': [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785],
                'idempotency_key': 'audit-1'})
    text = log.read_text()
    assert SECRET not in text
    lines = [json.loads(line) for line in text.splitlines()]
    assert len(lines) == 4 and all(len(line) <= MAX_LINE for line in text.splitlines())
    unknown, read, big, move = lines
    assert unknown['outcome'] == 'unknown_tool' and len(unknown['tool']) == MAX_TOOL_NAME
    for entry in (unknown, read):
        assert entry['args'] == {k: NOTES.get(k, '***') for k in SECRETS}
    assert big['tool'] == 'plan_trajectory' and 'line cap' in big['args']
    assert move['args']['idempotency_key'] == 'audit-1'


def test_audit_log_rotates_past_its_size(tmp_path: Any) -> None:
    """Past max_bytes the file moves to .1 (then .2); no more than ``backups`` are kept."""
    path = tmp_path / 'audit.jsonl'
    log = AuditLog(str(path), max_bytes=1000, backups=2)
    for i in range(60):
        log.record('get_joint_states', {'i': i}, 'ok', 0.001)
    log.close()
    assert path.exists() and (tmp_path / 'audit.jsonl.1').exists()
    assert (tmp_path / 'audit.jsonl.2').exists() and not (tmp_path / 'audit.jsonl.3').exists()
    assert all(p.stat().st_size < 1000 + MAX_LINE for p in tmp_path.iterdir())
    last = json.loads(path.read_text().splitlines()[-1])
    assert last['args'] == {'i': 59}


TIMEOUT = httpx2.Timeout(30, read=60)
SLOW_MOVE = {'positions': [1.2, -0.2, 0.0, -1.8, 0.0, 1.9, 0.785], 'velocity_scaling': 0.1}
INIT = {'jsonrpc': '2.0', 'id': 1, 'method': 'initialize',
        'params': {'protocolVersion': '2025-11-25', 'capabilities': {},
                   'clientInfo': {'name': 'raw', 'version': '0'}}}


def _entries(path: Any) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


@pytest.mark.parametrize('mode', ['legacy', '2026-07-28'])
async def test_every_call_received_over_stdio_has_a_line_a_cancelled_one_too(
        tmp_path: Any, mode: str) -> None:
    """Six calls (ok, unknown, invalid, cancelled mid-motion, stop, ok): six lines."""
    log = tmp_path / 'audit.jsonl'
    params = StdioServerParameters(command=sys.executable, cwd=REPO, env=server_env(None),
                                   args=serve_argv('--audit-log', str(log), sim_speed='1'))
    moving = anyio.Event()

    async def progress(value: float, total: float | None, message: str | None) -> None:
        moving.set()

    with anyio.fail_after(120):
        async with Client(params, mode=mode) as client:
            await client.call_tool('get_joint_states', {})
            with pytest.raises(MCPError):
                await client.call_tool('no_such_tool', {})
            await client.call_tool('move_arm_joints', {'positions': [0.0]})
            async with anyio.create_task_group() as tg:
                async def move() -> None:
                    await client.call_tool('move_arm_joints', SLOW_MOVE,
                                           progress_callback=progress)
                tg.start_soon(move)
                await moving.wait()
                tg.cancel_scope.cancel()
            await client.call_tool('stop_arm', {})
            await client.call_tool('get_joint_states', {})
    entries = _entries(log)
    assert len(entries) == 6, entries
    by_outcome = sorted((e['tool'], e['outcome'], e.get('code')) for e in entries)
    assert by_outcome == sorted([
        ('get_joint_states', 'ok', None), ('no_such_tool', 'unknown_tool', None),
        ('move_arm_joints', 'error', 'INVALID_ARGUMENTS'), ('move_arm_joints', 'cancelled', None),
        ('stop_arm', 'ok', None), ('get_joint_states', 'ok', None)])
    cancelled = next(e for e in entries if e['outcome'] == 'cancelled')
    assert cancelled['args']['velocity_scaling'] == 0.1 and cancelled['duration_ms'] > 0


def test_a_killed_stdio_host_leaves_the_line_of_its_running_call(tmp_path: Any) -> None:
    """Both pipes close mid-motion: the server writes the motion's line before it exits."""
    log = tmp_path / 'audit.jsonl'
    proc = subprocess.Popen([sys.executable, *serve_argv('--audit-log', str(log), sim_speed='1')],
                            cwd=REPO, env=server_env(None), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        for message in (INIT, {'jsonrpc': '2.0', 'method': 'notifications/initialized'},
                        {'jsonrpc': '2.0', 'id': 2, 'method': 'tools/call',
                         'params': {'name': 'move_arm_joints', 'arguments': SLOW_MOVE,
                                    '_meta': {'progressToken': 'p'}}}):
            proc.stdin.write((json.dumps(message) + '\n').encode())
            proc.stdin.flush()
        assert json.loads(proc.stdout.readline())['id'] == 1
        assert json.loads(proc.stdout.readline()).get('method') == 'notifications/progress'
        proc.stdout.close()  # what a killed host does: both ends go at once
        proc.stdin.close()
        status = proc.wait(timeout=120)
        err = proc.stderr.read().decode('utf-8', 'replace')
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
    assert status == 0 and 'Traceback' not in err, err
    [entry] = _entries(log)
    assert (entry['tool'], entry['outcome']) == ('move_arm_joints', 'cancelled'), entry


@pytest.mark.skipif(not SIM, reason='needs the simulation (pip install mujoco)')
@pytest.mark.parametrize('vanish', ['legacy_request_aborted', '2026_request_cancelled'])
async def test_a_vanished_http_client_leaves_the_line_of_its_call(tmp_path: Any,
                                                                  vanish: str) -> None:
    """The client drops its move mid-motion; the move's line is written, as cancelled."""
    log = tmp_path / 'audit.jsonl'
    async with http_server(None, sim_speed='1', flags=('--audit-log', str(log))) as (url, _):
        with anyio.fail_after(120):
            async with httpx2.AsyncClient(timeout=TIMEOUT) as h, \
                    httpx2.AsyncClient(timeout=TIMEOUT) as mover:
                observer = await RawSession(h, url, {}).start()
                if vanish == 'legacy_request_aborted':
                    moving = anyio.Event()
                    async with anyio.create_task_group() as tg:
                        tg.start_soon(deadman.move_and_drop, mover, observer, moving, True)
                else:
                    await deadman.sdk_move_then_cancel(url)
                while not any(e['tool'] == 'move_arm_joints' for e in _entries(log)):
                    await observer.call('get_joint_states', {})  # paced by round trips
    [move] = [e for e in _entries(log) if e['tool'] == 'move_arm_joints']
    assert move['outcome'] in ('cancelled', 'error'), move
    assert move['outcome'] == 'cancelled' or move['code'] == 'STOPPED', move
