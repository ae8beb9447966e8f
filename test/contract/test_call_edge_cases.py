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
            tare = await client.call_tool('tare_ft_sensor', {'window': 20})
            read = await client.call_tool('read_ft_sensor', {'window': 10})
    assert not tare.is_error and not read.is_error, text_of(tare) + text_of(read)
    assert re.search(r'the tare taken \d+ s ago', text_of(read)), text_of(read)
