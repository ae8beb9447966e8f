"""A host that vanishes abruptly costs one log line on the server's stderr, not a traceback."""

from __future__ import annotations

import json
import subprocess
import sys

from bridge_kit import REPO
import pytest
from server_process import serve_argv, server_env, SIM

pytestmark = [pytest.mark.contract, pytest.mark.sim,
              pytest.mark.skipif(not SIM, reason='needs the simulation (pip install mujoco)')]

INIT = {'jsonrpc': '2.0', 'id': 1, 'method': 'initialize',
        'params': {'protocolVersion': '2025-11-25', 'capabilities': {},
                   'clientInfo': {'name': 'raw', 'version': '0'}}}
SLOW_MOVE = {'positions': [1.2, -0.2, 0.0, -1.8, 0.0, 1.9, 0.785], 'velocity_scaling': 0.1}


def _send(proc: subprocess.Popen, message: dict) -> None:
    proc.stdin.write((json.dumps(message) + '\n').encode())
    proc.stdin.flush()


def test_stdio_host_killed_mid_motion_logs_one_line() -> None:
    """Both pipes close while progress streams: at most one warning, no traceback, status 0."""
    proc = subprocess.Popen([sys.executable, *serve_argv(sim_speed='1')], cwd=REPO,
                            env=server_env(None), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        _send(proc, INIT)
        assert json.loads(proc.stdout.readline())['id'] == 1
        _send(proc, {'jsonrpc': '2.0', 'method': 'notifications/initialized'})
        _send(proc, {'jsonrpc': '2.0', 'id': 2, 'method': 'tools/call',
                     'params': {'name': 'move_arm_joints', 'arguments': SLOW_MOVE,
                                '_meta': {'progressToken': 'p'}}})
        first = json.loads(proc.stdout.readline())
        assert first.get('method') == 'notifications/progress', first
        # What a killed host does: both ends go at once while the server is writing progress.
        proc.stdout.close()
        proc.stdin.close()
        status = proc.wait(timeout=120)
        err = proc.stderr.read().decode('utf-8', 'replace')
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
    assert 'Traceback' not in err, err
    assert status == 0, err
    assert len([line for line in err.splitlines() if 'disconnected' in line]) <= 1, err
