"""
Deadman latency per transport and protocol, and stop latency per motion phase.

Usage: ``python3 bench/bench_safety.py [--repeat 3] [--smoke]`` (smoke: one run of each).

The bridge runs in this process on the real-time simulation, so the sim clock
can be read at the moment a client vanishes. HTTP rows use a real uvicorn
server on a loopback socket and real HTTP clients; the session-stream rows use
the SDK's in-memory streams (the same server loop stdio runs; EOF is what a
killed stdio client produces). Deadman latency = sim time from the vanishing
until every arm joint is slower than 0.01 rad/s (goal: within 100 ms).
Stop rows time the ``stop_arm`` answer (wall) while the motion is queued for
approval, planning (planner held in its worker thread) or executing, and, when
executing, the sim time until the arm is still.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import sys
import tempfile
import threading
import time
from typing import Any

import anyio
from smoke import add_flag, check, done

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path[:0] = [REPO, os.path.join(REPO, 'test'), os.path.join(REPO, 'test', 'contract')]
HOME = [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785]
FAR = [1.2, -0.2, 0.0, -1.8, 0.0, 1.9, 0.785]
STILL_RAD_S = 0.01


class Rig:
    """The bridge on the real-time simulation, optionally served over HTTP."""

    def __init__(self, bridge: Any, backend: Any) -> None:
        """Keep the bridge and its backend; the target alternates, FAR first (from home)."""
        self.bridge, self.backend = bridge, backend
        self.target = HOME

    def slow_move(self) -> dict[str, Any]:
        """Arguments of a slow joint move away from where the arm is."""
        self.target = HOME if self.target is FAR else FAR
        return {'positions': self.target, 'velocity_scaling': 0.1}

    async def speed(self) -> float:
        """Return how fast the fastest arm joint turns (rad/s)."""
        js = await self.backend.joint_states()
        return max(abs(v) for v in js.velocities[:7])

    async def until_still(self, t0: float) -> float:
        """Return sim ms from ``t0`` until the arm is still."""
        while await self.speed() >= STILL_RAD_S:
            await asyncio.sleep(0.001)
        return (self.backend.world.time - t0) * 1000.0

    async def settle(self) -> None:
        """Wait until no motion holds the arm and the arm is still."""
        await self.bridge.pipeline.arbiter.wait_idle(10)
        await self.until_still(0.0)


def _moving(message: dict[str, Any]) -> bool:
    return message.get('method') == 'notifications/progress' and \
        message['params']['progress'] > 0.1


async def http_abort(rig: Rig, url: str, delete: bool) -> float:
    """2025-11-25 over HTTP: drop the move's connection (or DELETE the session)."""
    import httpx2
    from raw_http import RawSession
    async with httpx2.AsyncClient(timeout=60) as h, httpx2.AsyncClient(timeout=60) as m:
        session = await RawSession(h, url, {}).start()
        body = session.call_body('move_arm_joints', rig.slow_move(), progress='p')
        async with m.stream('POST', url, headers=session.headers, json=body) as r:
            seen = []
            async for line in r.aiter_lines():
                seen.append(line)
                data = line[5:].strip() if line.startswith('data:') else ''
                if data and _moving(json.loads(data)):  # empty data: an SSE priming event
                    t0 = rig.backend.world.time
                    if delete:
                        await session.delete()
                    return t0  # leaving the block drops the unfinished response
    raise AssertionError(f'the move ended before it was under way: {seen[-3:]}')


async def sdk_cancel(rig: Rig, transport: Any, mode: str) -> float:
    """Cancel a move from the SDK client (2026-07-28 closes the request's stream)."""
    from mcp import Client
    moving = anyio.Event()

    async def progress(value: float, total: float | None, message: str | None) -> None:
        if value > 0.1:
            moving.set()

    async with Client(transport, mode=mode) as client, anyio.create_task_group() as tg:
        tg.start_soon(lambda: client.call_tool('move_arm_joints', rig.slow_move(),
                                               progress_callback=progress))
        await moving.wait()
        t0 = rig.backend.world.time
        tg.cancel_scope.cancel()
    return t0


async def stream_eof(rig: Rig) -> float:
    """Vanish from a 2025-11-25 session: EOF on its read stream (what stdio sees)."""
    from mcp.shared.memory import create_client_server_memory_streams
    from mcp.shared.message import SessionMessage
    from mcp_types.jsonrpc import JSONRPCNotification, JSONRPCRequest
    server = rig.bridge.server
    async with create_client_server_memory_streams() as (client, srv), \
            anyio.create_task_group() as tg:
        tg.start_soon(server.run, srv[0], srv[1], server.create_initialization_options())
        send = client[1].send
        await send(SessionMessage(JSONRPCRequest(
            jsonrpc='2.0', id=1, method='initialize', params={
                'protocolVersion': '2025-11-25', 'capabilities': {},
                'clientInfo': {'name': 'bench', 'version': '0'}})))
        await client[0].receive()
        await send(SessionMessage(JSONRPCNotification(
            jsonrpc='2.0', method='notifications/initialized')))
        await send(SessionMessage(JSONRPCRequest(
            jsonrpc='2.0', id=2, method='tools/call', params={
                'name': 'move_arm_joints', 'arguments': rig.slow_move(),
                '_meta': {'progressToken': 'p'}})))
        while not _moving((await client[0].receive()).message.model_dump()):
            pass
        t0 = rig.backend.world.time
        await client[1].aclose()
    return t0


async def serve_http(rig: Rig) -> tuple[str, Any]:
    """Serve the bridge over HTTP on a free loopback port; return the URL and server."""
    import uvicorn
    from mcp_ros_bridge.server.http_transport import build_app
    app = build_app(rig.bridge.server, '127.0.0.1', 0, None, [],
                    rig.bridge.pipeline.requester_gone)
    sock = socket.socket()
    sock.bind(('127.0.0.1', 0))
    sock.listen(64)
    server = uvicorn.Server(uvicorn.Config(app, log_level='warning', lifespan='on'))
    asyncio.get_running_loop().create_task(server.serve([sock]))
    while not server.started:
        await asyncio.sleep(0.01)
    return f'http://127.0.0.1:{sock.getsockname()[1]}/mcp', server


async def deadman_rows(rig: Rig, repeat: int) -> list[tuple[str, list[float]]]:
    """Measure every way a requester can vanish."""
    from mcp.client.streamable_http import streamable_http_client
    url, server = await serve_http(rig)
    ways = [
        ('session stream EOF (stdio), 2025-11-25', lambda: stream_eof(rig)),
        ('in-memory, 2026-07-28, request cancelled', lambda: sdk_cancel(
            rig, rig.bridge.server, '2026-07-28')),
        ('HTTP 2025-11-25, request aborted', lambda: http_abort(rig, url, False)),
        ('HTTP 2025-11-25, session deleted', lambda: http_abort(rig, url, True)),
        ('HTTP 2026-07-28, request cancelled', lambda: sdk_cancel(
            rig, streamable_http_client(url), '2026-07-28')),
    ]
    rows = []
    for name, vanish in ways:
        values = []
        for _ in range(repeat):
            t0 = await vanish()
            values.append(await rig.until_still(t0))
            await rig.settle()
        rows.append((name, values))
    server.should_exit = True
    return rows


async def stop_rows(rig: Rig, approval_rig: Rig, repeat: int) -> list[tuple[str, list[float]]]:
    """Time stop_arm while a move is queued for approval, planning, or executing."""
    from mcp import Client
    executing, still, planning, queued = [], [], [], []
    for _ in range(repeat):
        async with Client(rig.bridge.server, mode='legacy') as client:
            wall, sim = await _stop_while_executing(rig, client)
            executing.append(wall)
            still.append(sim)
            planning.append(await _stop_while_planning(rig, client))
        queued.append(await _stop_while_queued(approval_rig))
        await rig.settle()
    return [('executing: stop_arm answered (wall ms)', executing),
            ('executing: arm still after stop_arm (sim ms)', still),
            ('planning: stop_arm answered (wall ms)', planning),
            ('queued for approval: stop_arm answered (wall ms)', queued)]


async def _stop_while_executing(rig: Rig, client: Any) -> tuple[float, float]:
    moving = anyio.Event()

    async def progress(value: float, total: Any, message: Any) -> None:
        if value > 0.1:
            moving.set()

    async with anyio.create_task_group() as tg:
        tg.start_soon(lambda: client.call_tool('move_arm_joints', rig.slow_move(),
                                               progress_callback=progress))
        await moving.wait()
        t0, w0 = rig.backend.world.time, time.perf_counter()
        await client.call_tool('stop_arm', {})
        wall = (time.perf_counter() - w0) * 1000.0
    return wall, await rig.until_still(t0)


async def _stop_while_planning(rig: Rig, client: Any) -> float:
    planner = rig.backend.planner
    plan, entered, gate = planner.joint_trajectory, threading.Event(), threading.Event()

    def held(*args: Any, **kwargs: Any) -> Any:
        entered.set()
        gate.wait(30)
        return plan(*args, **kwargs)

    planner.joint_trajectory = held
    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(lambda: client.call_tool('move_arm_joints', rig.slow_move()))
            await anyio.to_thread.run_sync(entered.wait, 30)
            w0 = time.perf_counter()
            await client.call_tool('stop_arm', {})
            took = (time.perf_counter() - w0) * 1000.0
            gate.set()
    finally:
        gate.set()
        planner.joint_trajectory = plan
    return took


async def _stop_while_queued(rig: Rig) -> float:
    from mcp import Client
    import mcp_types as types
    asked, answer = anyio.Event(), anyio.Event()

    async def on_elicit(context: Any, params: Any) -> Any:
        asked.set()
        await answer.wait()
        return types.ElicitResult(action='accept', content={'approve': True})

    async with Client(rig.bridge.server, mode='legacy', elicitation_callback=on_elicit) as c, \
            anyio.create_task_group() as tg:
        tg.start_soon(lambda: c.call_tool('move_arm_to_pose', {
            'position': {'x': 0.4, 'y': 0.1, 'z': 0.35}}))
        await asked.wait()
        w0 = time.perf_counter()
        await c.call_tool('stop_arm', {})
        took = (time.perf_counter() - w0) * 1000.0
        answer.set()
    assert await rig.speed() < STILL_RAD_S, 'the approved move must not have started'
    return took


async def main(repeat: int, smoke: bool = False) -> None:
    """Build two rigs (one with approval required) and print both tables."""
    from bridge_kit import APPROVAL_EDIT, copy_config
    from mcp_ros_bridge.server.app import build, ServeOptions
    rig = Rig(*await build(ServeOptions(sim_speed=1.0, watch=False)))
    with tempfile.TemporaryDirectory() as tmp:
        cfg = copy_config(os.path.join(tmp, 'cfg'), APPROVAL_EDIT)
        approval_rig = Rig(*await build(ServeOptions(config_dir=cfg, sim_speed=1.0,
                                                     watch=False)))
    try:
        dead = await deadman_rows(rig, repeat)
        stops = await stop_rows(rig, approval_rig, repeat)
    finally:
        await rig.backend.close()
        await approval_rig.backend.close()
    print(f'deadman: sim ms from the requester vanishing to arm speed < {STILL_RAD_S} rad/s')
    for name, values in dead + [('', [])] + stops:
        if values:
            print(f'  {name:52s} median {statistics.median(values):7.1f}  '
                  f'max {max(values):7.1f}  (n={len(values)})')
        else:
            print('stop_arm by motion phase')
    if smoke:
        check(**{f'row {i}': values for i, (_, values) in enumerate(dead + stops)})
        assert all(v > 0 for _, values in dead for v in values), 'smoke: the arm never moved'
        done()


if __name__ == '__main__':
    p = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    p.add_argument('--repeat', type=int, default=3)
    add_flag(p)
    a = p.parse_args()
    asyncio.run(main(1 if a.smoke else a.repeat, a.smoke))
