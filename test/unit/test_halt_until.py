"""A late halt repeats until the raced execution's goal has ended (MoveIt may drop the first)."""

from __future__ import annotations

import asyncio
from typing import Any

from mcp_ros_bridge.backends.ros.halt import halt_until
import pytest

pytestmark = [pytest.mark.unit, pytest.mark.anyio]


async def test_halt_repeats_until_the_goal_ended_then_confirms_once_more() -> None:
    ended = asyncio.Event()
    reports: list[dict[str, Any]] = []

    async def halt() -> dict[str, Any]:
        if len(reports) == 1:  # the second "stop" takes: the goal ends a moment later
            asyncio.get_running_loop().call_later(0.01, ended.set)
        reports.append({'confirmed_still': True, 'after_the_end': ended.is_set()})
        return reports[-1]
    last = await asyncio.wait_for(halt_until(halt, ended), 10.0)
    assert len(reports) == 3  # the first was lost, the second re-sent after the resend period
    assert last['after_the_end'] is True  # the report is from after the goal ended


async def test_a_goal_already_ended_is_halted_once() -> None:
    ended = asyncio.Event()
    ended.set()
    calls = []

    async def halt() -> dict[str, Any]:
        calls.append(1)
        return {'confirmed_still': True}
    assert await halt_until(halt, ended) == {'confirmed_still': True} and calls == [1]
