"""
Leases over HTTP with raw requests, on a real server subprocess (fast simulation).

Two handshake-era sessions: the first motion's session holds the arm; the other
session's motion is ROBOT_LEASED (the arm did not move: joint states unchanged);
its read works; once the holder's session is deleted (DELETE /mcp) the arm is free.
"""

from __future__ import annotations

import anyio
import httpx2
import pytest
from raw_http import RawSession
from server_process import http_server

pytestmark = [pytest.mark.contract, pytest.mark.anyio]
TIMEOUT = httpx2.Timeout(60.0)
MOVE = {'position': {'x': 0.45, 'y': 0.05, 'z': 0.35}}


def positions(result: dict) -> list[float]:
    return [j['position'] for j in result['structuredContent']['joints']]


async def test_a_second_session_waits_until_the_holder_session_ends():
    async with http_server(None) as (url, _):
        with anyio.fail_after(120):
            async with httpx2.AsyncClient(timeout=TIMEOUT) as http:
                a = await RawSession(http, url, {}).start()
                b = await RawSession(http, url, {}).start()
                moved = await a.call('move_arm_to_pose', MOVE)
                before = positions(await b.call('get_joint_states', {}))
                refused = await b.call('move_arm_to_pose', {'position': {'x': 0.4, 'y': -0.1,
                                                                         'z': 0.4}})
                after = positions(await b.call('get_joint_states', {}))
                assert await a.delete() == 200
                taken = await b.call('move_arm_to_pose', {'position': {'x': 0.4, 'y': -0.1,
                                                                       'z': 0.4}})
    assert not moved.get('isError'), moved
    assert refused.get('isError') and 'ROBOT_LEASED' in refused['content'][0]['text']
    assert '"raw"' in refused['content'][0]['text']  # the holder's clientInfo name
    assert after == pytest.approx(before, abs=1e-3), 'the refused motion moved the arm'
    assert not taken.get('isError'), taken
