"""Details of the call pipeline: replays skip approval, error fields, audit of unknown tools."""

import json
from typing import Any

import anyio
from bridge_kit import APPROVAL_EDIT, copy_config, error_code, make_bridge, MODES, POSE_ARGS
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp_ros_bridge.contract.results import error_block
import mcp_types as types
import pytest

pytestmark = [pytest.mark.contract, pytest.mark.anyio]


@pytest.mark.parametrize('mode', MODES)
async def test_replayed_idempotent_call_does_not_ask_again(mode: str, tmp_path: Any) -> None:
    """A repeat with the same idempotency key replays: no second approval, no motion."""
    bridge, backend = make_bridge(copy_config(str(tmp_path / 'cfg'), APPROVAL_EDIT))
    asked = []

    async def on_elicit(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action='accept', content={'approve': True})

    args = dict(POSE_ARGS, idempotency_key='pick-1')
    async with Client(bridge.server, mode=mode, elicitation_callback=on_elicit) as client:
        with anyio.fail_after(10):
            first = await client.call_tool('move_arm_to_pose', args)
            again = await client.call_tool('move_arm_to_pose', args)
    assert not first.is_error and not again.is_error
    assert len(asked) == 1
    assert [c[0] for c in backend.motion_calls] == ['move_to_pose']
    assert again.structured_content == first.structured_content


@pytest.mark.parametrize('args, field', [
    ({'position': {'x': 0.5, 'y': 0.0, 'z': 0.3}, 'speed': 1}, 'speed'),
    ({'position': {'x': 0.5, 'y': 0.0}}, 'position.z'),
    ({}, 'position'),
])
async def test_error_fields_name_the_key_itself(args: dict, field: str) -> None:
    """The machine-readable field list names the unknown or missing key, not its parent."""
    bridge, backend = make_bridge()
    async with Client(bridge.server, mode='legacy') as client:
        with anyio.fail_after(10):
            r = await client.call_tool('move_arm_to_pose', args)
    assert error_code(r) == 'INVALID_ARGUMENTS'
    assert error_block(r)['details']['fields'][0] == field
    assert backend.motion_calls == []


async def test_unknown_tool_is_audited(tmp_path: Any) -> None:
    """Calls to tools that do not exist still leave an audit line."""
    log = tmp_path / 'audit.jsonl'
    bridge, _ = make_bridge(audit_path=str(log))
    async with Client(bridge.server, mode='legacy') as client:
        with anyio.fail_after(10), pytest.raises(MCPError):
            await client.call_tool('launch_rocket', {'token': 'abc'})
    bridge.pipeline.audit.close()
    entry = json.loads(log.read_text().splitlines()[-1])
    assert entry['tool'] == 'launch_rocket'
    assert entry['outcome'] == 'unknown_tool'
    assert entry['args'] == {'token': '***'}


async def test_ratio_hint_has_no_unit_for_scaling() -> None:
    """A quoted number for a ratio is explained as a plain ratio, not a unit '1'."""
    bridge, _ = make_bridge()
    async with Client(bridge.server, mode='legacy') as client:
        with anyio.fail_after(10):
            r = await client.call_tool('move_arm_to_pose',
                                       dict(POSE_ARGS, velocity_scaling='0.2'))
    text = r.content[0].text
    assert 'plain ratio' in text and 'the unit is 1' not in text
