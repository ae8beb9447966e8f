"""
The ``bridge`` entry point as an agent host runs it: MCP over stdio, ROS backend.

Standard output must carry only JSON-RPC lines; closing standard input ends
the process cleanly (exit 0, no abort from rclpy at exit).
"""

import json
import os
import subprocess
import sys

import pytest
import ros_support

pytestmark = pytest.mark.ros
pytest.importorskip('rclpy', reason='rclpy does not import: the ros layer needs it')
pytest.importorskip('mcp_ros_bridge.server.app', reason='the MCP server is not importable')

INIT = {'jsonrpc': '2.0', 'id': 1, 'method': 'initialize',
        'params': {'protocolVersion': '2025-11-25', 'capabilities': {},
                   'clientInfo': {'name': 'test', 'version': '0'}}}


def test_stdio_bridge_speaks_only_mcp_on_stdout_and_exits_cleanly():
    script = 'import sys; from mcp_ros_bridge.ros_entry import main; sys.exit(main())'
    cmd = [sys.executable, '-c', script, '--ros-args', '-p', 'transport:=stdio',
           '-p', 'backend:=ros', '-r', '__node:=bridge_entry_test']
    env = dict(os.environ, PYTHONPATH=ros_support.REPO)
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, cwd=ros_support.REPO, text=True)
    try:
        proc.stdin.write(json.dumps(INIT) + '\n')
        proc.stdin.flush()
        first = json.loads(proc.stdout.readline())
        proc.stdin.write(json.dumps({'jsonrpc': '2.0', 'method': 'notifications/initialized'})
                         + '\n')
        proc.stdin.write(json.dumps({'jsonrpc': '2.0', 'id': 2, 'method': 'tools/list'}) + '\n')
        proc.stdin.flush()
        second = json.loads(proc.stdout.readline())
        out, err = proc.communicate('', timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert first['id'] == 1 and first['result']['serverInfo']['name'] == 'mcp_ros_bridge'
    assert second['id'] == 2 and second['result']['tools']
    for line in out.splitlines():
        assert json.loads(line)['jsonrpc'] == '2.0'
    assert proc.returncode == 0, err
    assert 'terminate called' not in err and 'Traceback' not in err, err
