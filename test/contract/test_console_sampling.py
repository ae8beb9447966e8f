"""
The console's sampler: a bounded rate, only while a page is open, unreachable said so.

A robot the bridge cannot read is reported as such instead of old data shown as live.
"""

from __future__ import annotations

from itertools import pairwise
import json
from typing import Any

import anyio
from bridge_kit import make_bridge
from doubles import RecordingBackend
from mcp_ros_bridge.backends.port import BackendError, JointStates
from mcp_ros_bridge.server.console.panel import Console
import pytest

pytestmark = [pytest.mark.contract, pytest.mark.anyio]
RATE_HZ = 20.0


async def _states(queue: Any, count: int) -> list[dict[str, Any]]:
    found = []
    while len(found) < count:
        frame = await queue.get()
        if frame.startswith('event: state\n'):
            found.append(json.loads(frame.split('\n')[1][6:]))
    return found


async def test_samples_at_the_bounded_rate_only_while_a_page_is_open() -> None:
    """No sampler before a page opens or after the last closes; samples spaced 1/rate apart."""
    bridge, _ = make_bridge()
    console = Console(bridge, RATE_HZ, 60.0, 'en')
    assert console._sampler is None
    with anyio.fail_after(60):
        async with console.hub.stream(operator=False) as queue:
            states = await _states(queue, 6)
            assert console._sampler is not None
    assert console._sampler is None, 'sampling stops with the last page'
    gaps = [b['sent'] - a['sent'] for a, b in pairwise(states)]
    assert min(gaps) >= 0.8 / RATE_HZ, gaps  # never faster than the rate
    assert all(s['reachable'] and len(s['joints']) == 9 for s in states)
    console.close()


class Unreachable(RecordingBackend):
    """A robot whose joint states cannot be read."""

    async def joint_states(self) -> JointStates:
        raise BackendError('UNAVAILABLE', 'no /joint_states for 3.0 s')


async def test_a_robot_it_cannot_read_is_reported_not_shown_as_live() -> None:
    """The state event says unreachable and why; it carries no joint values."""
    bridge, _ = make_bridge(backend=Unreachable())
    console = Console(bridge, RATE_HZ, 60.0, 'en')
    with anyio.fail_after(60):
        async with console.hub.stream(operator=False) as queue:
            state = (await _states(queue, 1))[0]
    assert state['reachable'] is False and 'joints' not in state
    assert 'UNAVAILABLE' in state['errors']['joints']
    console.close()
