"""
The MCP Inspector CLI (``--cli``) over stdio: list with ``--strict``, read, move, bad call.

Both protocol generations: ``--protocol-era legacy`` (the 2025-11-25 handshake) and
``modern`` (2026-07-28, whose results carry the server info in ``_meta``).

Exit codes are the Inspector's: 0 success, 5 a tool returned ``isError`` (the
result is printed in full first), 6 a schema-portability error under ``--strict``;
a result that broke its outputSchema would fail the client instead (exit 1).
"""

from __future__ import annotations

import json
import sys

from hosts_kit import last_json, run_node
from mcp_ros_bridge.contract.results import ERROR_META_KEY
import node_env
import pytest
from server_process import serve_argv

pytestmark = [pytest.mark.hosts, pytest.mark.parametrize('era', ['legacy', 'modern'])]
MODERN_MARK = 'io.modelcontextprotocol/serverInfo'


def inspector(node: str, era: str, *options: str) -> tuple[int, str, str]:
    """Run the Inspector CLI against a fresh stdio server; return (status, stdout, stderr)."""
    proc = run_node(node, [node_env.bin_script('inspector'), '--cli', '--protocol-era', era,
                           '--connect-timeout', '180000', *options, '--', sys.executable,
                           *serve_argv()])
    return proc.returncode, proc.stdout, proc.stderr


def test_inspector_lists_tools_strictly(node: str, era: str) -> None:
    """tools/list --strict: no schema-portability finding, every tool listed."""
    status, out, err = inspector(node, era, '--method', 'tools/list', '--strict')
    assert status == 0, err[-2000:]
    names = [t['name'] for t in json.loads(out)['tools']]
    assert {'move_arm_to_pose', 'move_arm_joints', 'grasp_object_force_control'} <= set(names)
    assert 'Error:' not in err and 'Warning:' not in err, err[-2000:]


def test_inspector_calls_read_and_motion_tools(node: str, era: str) -> None:
    """A read call and a motion call come back as results the CLI accepts."""
    status, out, err = inspector(node, era, '--method', 'tools/call', '--tool-name',
                                 'get_joint_states')
    assert status == 0, err[-2000:]
    read = json.loads(out)
    assert len(read['structuredContent']['joints']) == 9
    assert (MODERN_MARK in read.get('_meta', {})) == (era == 'modern'), read.get('_meta')
    status, out, err = inspector(node, era, '--method', 'tools/call', '--tool-name',
                                 'move_arm_to_pose', '--tool-arg',
                                 'position={"x": 0.4, "y": 0.1, "z": 0.35}')
    assert status == 0, err[-2000:]
    assert json.loads(out)['structuredContent']['status'] == 'SUCCEEDED'
    # a result schema that names another tool's ("the same fields as ..."), an empty close
    status, out, err = inspector(node, era, '--method', 'tools/call', '--tool-name',
                                 'close_gripper', '--tool-arg', 'width_m=0')
    assert status == 0, err[-2000:]
    assert json.loads(out)['structuredContent']['status'] == 'CLOSED'


def test_inspector_calls_a_tool_whose_result_schema_uses_refs(node: str, era: str) -> None:
    """move_until_contact lists $defs/$ref (no --strict finding) and its CONTACT is accepted."""
    status, out, err = inspector(node, era, '--method', 'tools/list', '--strict')
    assert status == 0 and 'Warning:' not in err, err[-2000:]
    (guarded,) = [t for t in json.loads(out)['tools'] if t['name'] == 'move_until_contact']
    assert guarded['outputSchema']['properties']['contact']['properties']['point_m'] == {
        '$ref': '#/$defs/xyz'}
    # each CLI call starts a fresh server: from the start-up pose (fingertips ~0.49 m up) a
    # 5 cm line ends in the air; the client compiles the schema with its refs to check it
    status, out, err = inspector(node, era, '--method', 'tools/call', '--tool-name',
                                 'move_until_contact', '--tool-arg', 'max_distance_m=0.05')
    assert status == 0, (out[-2000:], err[-2000:])
    result = json.loads(out)['structuredContent']
    assert result['status'] == 'NO_CONTACT' and result['travelled_m'] > 0.049, result


def test_inspector_shows_the_error_text_of_an_invalid_call(node: str, era: str) -> None:
    """force_n=50: exit 5 (isError) with our full text, not a client-side schema failure."""
    status, out, err = inspector(node, era, '--method', 'tools/call', '--tool-name',
                                 'grasp_object_force_control', '--tool-arg', 'force_n=50')
    assert status == 5, (out, err[-2000:])
    assert last_json(err)['error']['code'] == 'tool_is_error', err[-2000:]
    result = json.loads(out)
    assert result['isError'] is True and 'structuredContent' not in result
    text = result['content'][0]['text']
    assert 'force_n is 50, but it must be a number in [5' in text and 'Valid example' in text
    assert result['_meta'][ERROR_META_KEY]['details']['fields'] == ['force_n']
