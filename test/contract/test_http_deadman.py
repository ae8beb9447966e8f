"""
Deadman on Streamable HTTP, 2025-11-25 sessions: a requester that vanishes stops the arm.

The real server runs in a subprocess on the real-time simulation. A raw HTTP
client starts a slow joint move and, once the arm is clearly moving, vanishes:
it aborts its request (what ``curl -m`` or a killed host does) or ends its
session. The arm must come to rest well short of the goal and stay there. The
2026-07-28 case (the SDK client cancels: its request stream closes) is kept
working alongside.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
import numpy as np
import pytest
from raw_http import RawSession
from server_process import http_server, SIM

pytestmark = [pytest.mark.contract, pytest.mark.sim, pytest.mark.anyio,
              pytest.mark.skipif(not SIM, reason='needs the simulation (pip install mujoco)')]

FAR = [1.2, -0.2, 0.0, -1.8, 0.0, 1.9, 0.785]
SLOW_MOVE = {'positions': FAR, 'velocity_scaling': 0.1}
TIMEOUT = httpx2.Timeout(30, read=60)


def _arm(result: dict[str, Any]) -> tuple[np.ndarray, float]:
    joints = [j for j in result['structuredContent']['joints'] if j['unit'] == 'rad']
    return (np.array([j['position'] for j in joints]),
            max(abs(j['velocity']) for j in joints))


async def move_and_drop(http: httpx2.AsyncClient, session: RawSession, moving: anyio.Event,
                        drop: bool) -> None:
    """Stream the move's SSE response; past 10 % progress set ``moving`` (and drop it)."""
    body = session.call_body('move_arm_joints', SLOW_MOVE, progress='p')
    async with http.stream('POST', session.url, headers=session.headers, json=body) as r:
        async for line in r.aiter_lines():
            if not line.startswith('data:') or not line[5:].strip():
                continue  # not data, or the empty priming event of a resumable stream
            message = json.loads(line[5:])
            assert message.get('id') != body['id'] or moving.is_set(), \
                f'the move ended before it was under way: {message}'
            if message.get('method') == 'notifications/progress' and \
                    message['params']['progress'] > 0.1:
                moving.set()
                if drop:
                    break
    # Leaving the block early closes the unfinished response: the client is gone.


async def _rest(session: RawSession) -> np.ndarray:
    """Poll joint states until the arm is at rest; return where it rests."""
    while True:
        positions, speed = _arm(await session.call('get_joint_states', {}))
        if speed < 0.02:
            return positions


@pytest.mark.parametrize('vanish', ['abort_request', 'delete_session'])
async def test_vanished_requester_stops_the_arm(vanish: str) -> None:
    """Aborted request or ended session mid-move → the arm rests short of the goal."""
    async with http_server(None, sim_speed='1') as (url, _):
        with anyio.fail_after(120):
            async with httpx2.AsyncClient(timeout=TIMEOUT) as h, \
                    httpx2.AsyncClient(timeout=TIMEOUT) as mover:
                observer = await RawSession(h, url, {}).start()
                start = await _rest(observer)
                session = observer if vanish == 'abort_request' else \
                    await RawSession(h, url, {}).start()
                moving = anyio.Event()
                async with anyio.create_task_group() as tg:
                    tg.start_soon(move_and_drop, mover, session, moving, vanish == 'abort_request')
                    await moving.wait()
                    if vanish == 'delete_session':
                        assert await session.delete() == 200
                rest = await _rest(observer)
                held = await _rest(observer)
    assert np.linalg.norm(rest - start) > 0.02, 'the motion had started'
    assert np.linalg.norm(rest - np.asarray(FAR)) > 0.2, 'the arm ran on to the goal'
    assert np.allclose(held, rest, atol=2e-3), 'the arm holds where it stopped'


async def sdk_move_then_cancel(url: str) -> None:
    """Cancel a move from a 2026-07-28 SDK client over HTTP once it is under way."""
    moving = anyio.Event()

    async def progress(value: float, total: float | None, message: str | None) -> None:
        if value > 0.1:
            moving.set()

    async with Client(streamable_http_client(url), mode='2026-07-28') as client, \
            anyio.create_task_group() as tg:
        async def move() -> None:
            await client.call_tool('move_arm_joints', SLOW_MOVE, progress_callback=progress)

        tg.start_soon(move)
        await moving.wait()
        tg.cancel_scope.cancel()


async def test_cancelled_2026_request_stops_the_arm() -> None:
    """2026-07-28 over HTTP: the closed request stream stops the arm short of the goal."""
    async with http_server(None, sim_speed='1') as (url, _):
        with anyio.fail_after(120):
            async with httpx2.AsyncClient(timeout=TIMEOUT) as h:
                observer = await RawSession(h, url, {}).start()
                start = await _rest(observer)
                await sdk_move_then_cancel(url)
                rest = await _rest(observer)
    assert np.linalg.norm(rest - start) > 0.02, 'the motion had started'
    assert np.linalg.norm(rest - np.asarray(FAR)) > 0.2, 'the arm ran on to the goal'
