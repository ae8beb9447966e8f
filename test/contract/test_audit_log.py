"""
The audit log through the real stdio server: redaction by pattern, capped lines and names.

Rotation is checked on the AuditLog itself with a small size bound.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import anyio
from bridge_kit import REPO
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp_ros_bridge.server.audit import AuditLog, MAX_LINE, MAX_TOOL_NAME
import pytest
from server_process import serve_argv, server_env

pytestmark = [pytest.mark.contract, pytest.mark.anyio]

SECRET = 'hunter2-secret-value'
SECRETS = {'auth_header': SECRET, 'Session-Token': SECRET, 'db_password': SECRET,
           'apiKey': SECRET, 'note': f'Authorization: Bearer {SECRET}'}


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
        assert {k: v for k, v in entry['args'].items() if k != 'note'} == {
            k: '***' for k in SECRETS if k != 'note'}
        assert entry['args']['note'] == 'Authorization: Bearer ***'
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
