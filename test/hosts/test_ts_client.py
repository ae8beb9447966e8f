"""
The TypeScript SDK client (1.x, what most hosts are built on) over stdio and Streamable HTTP.

It validates every result against the tool's outputSchema and throws on a
mismatch, so an error result that broke the schema would never reach the model.
The SDK speaks the 2025-11-25 handshake generation (it has no 2026-07-28 mode).
"""

from __future__ import annotations

import os
import sys
from typing import Any

import anyio
from hosts_kit import HERE, last_json, run_node
from mcp_ros_bridge.contract.results import ERROR_META_KEY
import pytest
from server_process import http_server, serve_argv

pytestmark = [pytest.mark.hosts, pytest.mark.anyio]
CLIENT = os.path.join(HERE, 'ts_client.mjs')


def check_session(out: dict[str, Any]) -> None:
    """Every call came back as a normal result; errors name the field and carry _meta."""
    assert 'thrown' not in out, out
    assert out['server']['name'] == 'mcp_ros_bridge'
    assert {'move_arm_to_pose', 'get_joint_states', 'stop_arm'} <= set(out['tools'])
    assert not out['read']['isError'] and len(out['read']['structured']['joints']) == 9
    assert not out['motion']['isError'], out['motion']['text']
    assert out['motion']['structured']['status'] == 'SUCCEEDED'
    # a result schema that uses $defs/$ref: listed, compiled by ajv, the result accepted
    schema = out['contact_schema']
    assert schema['properties']['contact']['properties']['tip_m'] == {'$ref': '#/$defs/xyz'}
    assert 'xyz' in schema['$defs']
    assert not out['above_table']['isError'], out['above_table']['text']
    contact = out['contact']
    assert not contact['isError'] and contact['structured']['status'] == 'CONTACT', contact
    assert set(contact['structured']['contact']['tip_m']) == {'x', 'y', 'z'}
    for case, said in (('unit_string', 'Send the bare JSON number 15'),
                       ('out_of_range', 'must be a number in [5')):
        r = out[case]
        assert r['isError'] and r['structured'] is None, r
        assert 'force_n' in r['text'] and said in r['text'], r['text']
        assert 'Valid example: grasp_object_force_control(' in r['text']
        block = r['meta'][ERROR_META_KEY]
        assert block['code'] == 'INVALID_ARGUMENTS' and block['details']['fields'] == ['force_n']
    assert out['unreachable']['text'], 'a failed motion still reaches the model as text'
    # the gripper's results pass the SDK's outputSchema check: EMPTY in air, then OPEN
    assert out['grasp_empty']['isError'] and out['grasp_empty']['text'].startswith('EMPTY')
    assert out['gripper']['structured']['status'] == 'EMPTY', out['gripper']
    assert out['release']['structured']['status'] == 'OPEN', out['release']


def test_ts_sdk_client_over_stdio(node: str) -> None:
    """List, read, move and two invalid calls through StdioClientTransport."""
    proc = run_node(node, [CLIENT, 'stdio', sys.executable, *serve_argv()])
    out = last_json(proc.stdout)
    assert proc.returncode == 0, (out, proc.stderr[-2000:])
    check_session(out)


async def test_ts_sdk_client_over_http(node: str) -> None:
    """The same session through StreamableHTTPClientTransport."""
    async with http_server(None) as (url, _):
        proc = await anyio.to_thread.run_sync(run_node, node, [CLIENT, 'http', url])
    out = last_json(proc.stdout)
    assert proc.returncode == 0, (out, proc.stderr[-2000:])
    check_session(out)
    assert out['protocol'] == '2025-11-25'
