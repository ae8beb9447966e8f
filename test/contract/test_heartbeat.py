"""
The heartbeat deadman over stdio: a client that stops answering pings mid-motion is stopped.

``serve --heartbeat-timeout-s`` pings the client while a motion runs. The client
here is raw JSON-RPC lines: a frozen one (SIGSTOP, a partitioned network)
reads the ping and never answers; a live one answers each ping.
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from typing import Any

from bridge_kit import REPO
import pytest
from server_process import serve_argv, server_env, SIM

pytestmark = [pytest.mark.contract, pytest.mark.sim,
              pytest.mark.skipif(not SIM, reason='needs the simulation (pip install mujoco)')]

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


def test_client_that_stops_answering_pings_has_its_motion_stopped() -> None:
    result, pings, took = _motion(answer_pings=False)
    text = result['content'][0]['text']
    assert result['structuredContent']['status'] == 'STOPPED', text
    assert 'stopped answering pings' in text, text
    assert pings >= 1 and took < TIMEOUT_S + 10.0, (pings, took)


def test_client_that_answers_pings_finishes_its_motion() -> None:
    result, pings, _ = _motion(answer_pings=True)
    text = result['content'][0]['text']
    assert result['structuredContent']['status'] == 'SUCCEEDED', text
    assert pings >= 2, pings  # watched all along
