"""
The heartbeat deadman: a client that stops answering pings mid-motion has the arm stopped.

``serve --heartbeat-timeout-s`` pings the client while a motion runs. Over stdio
the client is raw JSON-RPC lines: a frozen one (SIGSTOP, a partitioned network)
reads the ping and never answers; a live one answers each ping. In memory, in
both protocol generations, a live SDK client is never stopped.
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from typing import Any

import anyio
from bridge_kit import BackgroundCalls, make_bridge, MODES, POSE_ARGS, REPO, text_of
from mcp import Client
from mcp_ros_bridge.server.calls import CallSettings
import mcp_types as types
import pytest
from server_process import serve_argv, server_env, SIM

pytestmark = pytest.mark.contract

INIT = {'jsonrpc': '2.0', 'id': 1, 'method': 'initialize',
        'params': {'protocolVersion': '2025-11-25', 'capabilities': {},
                   'clientInfo': {'name': 'raw', 'version': '0'}}}
SLOW_MOVE = {'positions': [1.2, -0.2, 0.0, -1.8, 0.0, 1.9, 0.785], 'velocity_scaling': 0.1}
TIMEOUT_S = 1.0
WAIT_S = 120.0  # catches a hang, not a loaded machine


def _motion(answer_pings: bool) -> tuple[dict[str, Any], int, float]:
    """Run SLOW_MOVE; return (its result, pings seen, seconds from the first ping to it)."""
    proc = subprocess.Popen(
        [sys.executable, *serve_argv('--heartbeat-timeout-s', str(TIMEOUT_S), sim_speed='1')],
        cwd=REPO, env=server_env(None), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, text=True)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout],
                     daemon=True).start()

    def send(message: dict[str, Any]) -> None:
        proc.stdin.write(json.dumps(message) + '\n')
        proc.stdin.flush()
    try:
        send(INIT)
        assert json.loads(lines.get(timeout=WAIT_S))['id'] == 1
        send({'jsonrpc': '2.0', 'method': 'notifications/initialized'})
        send({'jsonrpc': '2.0', 'id': 2, 'method': 'tools/call',
              'params': {'name': 'move_arm_joints', 'arguments': SLOW_MOVE}})
        pings, first_ping = 0, None
        while True:
            message = json.loads(lines.get(timeout=WAIT_S))
            if message.get('method') == 'ping':
                pings += 1
                first_ping = first_ping or time.monotonic()
                if answer_pings:
                    send({'jsonrpc': '2.0', 'id': message['id'], 'result': {}})
            elif message.get('id') == 2:
                return message['result'], pings, time.monotonic() - (first_ping or 0.0)
    finally:
        proc.kill()
        proc.wait(timeout=30)


@pytest.mark.sim
@pytest.mark.skipif(not SIM, reason='needs the simulation (pip install mujoco)')
def test_client_that_stops_answering_pings_has_its_motion_stopped() -> None:
    result, pings, took = _motion(answer_pings=False)
    text = result['content'][0]['text']
    assert result['structuredContent']['status'] == 'STOPPED', text
    assert 'stopped answering pings' in text, text
    assert pings >= 1 and took < TIMEOUT_S + 10.0, (pings, took)


@pytest.mark.sim
@pytest.mark.skipif(not SIM, reason='needs the simulation (pip install mujoco)')
def test_client_that_answers_pings_finishes_its_motion() -> None:
    result, pings, _ = _motion(answer_pings=True)
    text = result['content'][0]['text']
    assert result['structuredContent']['status'] == 'SUCCEEDED', text
    assert pings >= 2, pings  # watched all along


@pytest.mark.anyio
@pytest.mark.parametrize('mode', MODES)
async def test_live_in_memory_client_is_watched_where_it_can_be_and_never_stopped(
        mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Legacy sessions are pinged (and answer); 2026-07-28 forbids server requests: unwatched."""
    from mcp.server.session import ServerSession
    real = ServerSession.send_request
    pings: list[str] = []
    three = anyio.Event()

    async def counting(self: Any, request: Any, *args: Any, **kwargs: Any) -> Any:
        answer = await real(self, request, *args, **kwargs)
        if isinstance(request, types.PingRequest):
            pings.append('answered')
            if len(pings) == 3:
                three.set()
        return answer
    monkeypatch.setattr(ServerSession, 'send_request', counting)
    bridge, backend = make_bridge(settings=CallSettings(
        motion_rate_per_s=1000.0, motion_burst=1000, heartbeat_timeout_s=0.2))
    backend.hold_motion = True
    async with Client(bridge.server, mode=mode) as client:
        with anyio.fail_after(WAIT_S):
            async with anyio.create_task_group() as tg:
                calls = BackgroundCalls(tg, client)
                calls.start('move', 'move_arm_to_pose', POSE_ARGS)
                await backend.motion_started.wait()
                if mode == 'legacy':
                    await three.wait()  # three timeouts' worth of answered pings
                else:
                    await anyio.sleep(0.6)  # three timeouts pass unwatched
                backend.release_motion.set()
    result = calls.results['move']
    assert result.structured_content['status'] == 'SUCCEEDED', text_of(result)
    assert (len(pings) >= 3) == (mode == 'legacy'), pings
