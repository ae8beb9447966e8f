"""Edge cases of the call pipeline: texts with numbers, plan_only and idempotency keys, _meta."""

import re

import anyio
from bridge_kit import error_code, HOME, make_bridge, MODES, text_of
from mcp import Client
from mcp_ros_bridge.capabilities.base import fmt
import pytest

pytestmark = [pytest.mark.contract, pytest.mark.anyio]


@pytest.mark.parametrize('value, digits, text', [
    (0.3, 0, '0'), (10.0, 0, '10'), (100.4, 0, '100'), (2.50, 2, '2.5'), (0.0, 0, '0')])
def test_fmt_keeps_the_digits_of_whole_numbers(value: float, digits: int, text: str) -> None:
    """No decimals to strip: 10 stays 10, a fresh tare reads 0 (not an empty number)."""
    assert fmt(value, digits) == text


@pytest.mark.parametrize('mode', MODES)
async def test_wrench_text_names_the_age_of_the_tare(mode: str) -> None:
    """After tare_ft_sensor the reading says how many seconds ago it was taken."""
    bridge, _ = make_bridge()
    async with Client(bridge.server, mode=mode) as client:
        with anyio.fail_after(20):
            tare = await client.call_tool('tare_ft_sensor', {'window_s': 0.02})
            read = await client.call_tool('read_ft_sensor', {'window_s': 0.01})
    assert not tare.is_error and not read.is_error, text_of(tare) + text_of(read)
    assert re.search(r'the tare taken \d+ s ago', text_of(read)), text_of(read)


@pytest.mark.parametrize('mode', MODES)
async def test_plan_only_does_not_consume_the_idempotency_key(mode: str) -> None:
    """A plan_only preview with a key, then the real call with it: the real one moves once."""
    bridge, backend = make_bridge()
    args = {'positions': HOME, 'idempotency_key': 'pick-7'}
    async with Client(bridge.server, mode=mode) as client:
        with anyio.fail_after(20):
            plan = await client.call_tool('move_arm_joints', dict(args, plan_only=True))
            real = await client.call_tool('move_arm_joints', args)
            again = await client.call_tool('move_arm_joints', args)
            plan_after = await client.call_tool('move_arm_joints', dict(args, plan_only=True))
    assert plan.structured_content['status'] == 'PLANNED', text_of(plan)
    assert not real.is_error, (error_code(real), text_of(real))
    assert real.structured_content['status'] == 'SUCCEEDED'
    assert again.structured_content == real.structured_content, 'the repeat replays'
    assert plan_after.structured_content['status'] == 'PLANNED', text_of(plan_after)
    assert [c[0] for c in backend.motion_calls] == ['move_to_joints'], 'it moved once'
