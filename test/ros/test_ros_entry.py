"""
The ROS entry points as an agent host runs them: MCP over stdio, ROS backend.

Standard output must carry only JSON-RPC lines; closing standard input ends
the process cleanly (exit 0, no abort from rclpy at exit). Both the node
executable and ``mcp-ros-bridge serve --backend ros`` take ``use_sim_time``.
"""

import itertools
import json
import os
import subprocess
import sys
import threading
import time

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


WAITING = ('no message has arrived on /clock', 'no message received on')


def _read_joints_until_clock_arrives(cmd, timeout_s=60.0):
    """Start ``cmd``; read joints until /clock and sensors are seen; return (result, err, rc)."""
    env = dict(os.environ, PYTHONPATH=ros_support.REPO)
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, cwd=ros_support.REPO, text=True)

    def send(message):
        proc.stdin.write(json.dumps(message) + '\n')
        proc.stdin.flush()
        return json.loads(proc.stdout.readline()) if 'id' in message else None

    try:
        send(INIT)
        send({'jsonrpc': '2.0', 'method': 'notifications/initialized'})
        deadline, pause = time.monotonic() + timeout_s, threading.Event()
        for call_id in itertools.count(10):
            result = send({'jsonrpc': '2.0', 'id': call_id, 'method': 'tools/call',
                           'params': {'name': 'get_joint_states', 'arguments': {}}})['result']
            text = result['content'][0]['text']
            if not any(w in text for w in WAITING) or time.monotonic() > deadline:
                break
            pause.wait(0.05)  # discovery of /clock or the sensors is under way: ask again
        _, err = proc.communicate('', timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return result, err, proc.returncode


@pytest.mark.parametrize(('entry', 'sim_time'), [('node', True), ('cli', True), ('cli', False)])
def test_use_sim_time_reaches_the_node_from_each_entry_point(entry, sim_time, tmp_path):
    """Gazebo-like /clock and sim stamps: fresh reads with use_sim_time, a clock error without."""
    config_dir, config = ros_support.config_dir(tmp_path, max_age_s=0.5)
    if entry == 'node':
        script = 'import sys; from mcp_ros_bridge.ros_entry import main; sys.exit(main())'
        cmd = [sys.executable, '-c', script, '--ros-args', '-p', 'transport:=stdio',
               '-p', f'config_dir:={config_dir}', '-r', '__node:=bridge_sim_entry',
               '-p', f'use_sim_time:={str(sim_time).lower()}']
    else:
        cmd = [sys.executable, '-m', 'mcp_ros_bridge.cli', 'serve', '--backend', 'ros',
               '--config', config_dir, '--no-watch'] + (['--use-sim-time'] if sim_time else [])
    peer = ros_support.Peer('gazebo_entry')
    try:
        clock = ros_support.SimClock(peer, start_s=50.0, rtf=1.0)
        ros_support.SensorPublisher(peer, config, now_ns=clock.now_ns)
        result, err, code = _read_joints_until_clock_arrives(cmd)
    finally:
        peer.close()
    assert code == 0, err
    if sim_time:
        assert not result.get('isError'), result
        assert 40.0 < result['structuredContent']['stamp'] < 1e6  # simulation seconds
    else:
        assert result['isError']
        text = result['content'][0]['text']
        assert 'CLOCK_MISMATCH' in text and 'simulation time' in text and 'use_sim_time' in text


def test_every_setting_is_a_ros_parameter_including_string_arrays():
    from mcp_ros_bridge import ros_entry
    from mcp_ros_bridge.server.settings import ServeOptions
    params = os.path.join(ros_support.REPO, 'config', 'bridge.params.yaml')
    values = ros_entry.read_parameters(['--params-file', params, '-p', 'motion_burst:=3',
                                        '-p', 'allowed_hosts:=[robot.lan]'])
    options = ServeOptions(**values)
    assert options.backend == 'ros' and options.allowed_origins == []
    assert options.allowed_hosts == ['robot.lan'] and options.call_settings().motion_burst == 3


@pytest.mark.parametrize('entry', ['cli', 'node'])
def test_each_entry_point_names_its_node_and_namespace(entry, peer):
    """``serve --backend ros`` takes node name and namespace settings; the node takes remaps."""
    name, namespace = f'named_bridge_{entry}', f'/lab_{entry}'
    if entry == 'cli':
        cmd = [sys.executable, '-m', 'mcp_ros_bridge.cli', 'serve', '--backend', 'ros',
               '--no-watch', '--node-name', name, '--namespace', namespace]
    else:
        script = 'import sys; from mcp_ros_bridge.ros_entry import main; sys.exit(main())'
        cmd = [sys.executable, '-c', script, '--ros-args', '-p', 'transport:=stdio',
               '-p', 'watch:=false', '-r', f'__node:={name}', '-r', f'__ns:={namespace}']
    env = dict(os.environ, PYTHONPATH=ros_support.REPO)
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, cwd=ros_support.REPO, text=True)
    try:
        # The shipped config ingests sensors on a second node, named for the first.
        wanted = {(name, namespace), (f'{name}_sensors', namespace)}
        nodes, deadline, pause = [], time.monotonic() + 60.0, threading.Event()
        while not wanted <= set(nodes) and proc.poll() is None and time.monotonic() < deadline:
            nodes = peer.node.get_node_names_and_namespaces()
            pause.wait(0.05)  # discovery under way: look again
        out, err = proc.communicate('', timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert wanted <= set(nodes), f'nodes {nodes}, not {wanted}; stderr:\n{err}'
    assert nodes.count((name, namespace)) == 1, nodes
    assert proc.returncode == 0, err
    assert out == '' and 'Traceback' not in err and 'terminate called' not in err, err


@pytest.mark.parametrize(('args', 'said'), [
    (['-p', 'transport:=https'], "transport:='https' is not allowed: it must be one of stdio"),
    (['-p', 'approval_policy:=alow'], 'one of deny, allow'),
    (['-p', 'lang:=fr'], 'one of en, zh'),
    (['-p', 'port:=70000'], 'port:=70000 is not allowed: it must be an integer >= 0 and <= 65535'),
    (['-p', 'port:=abc'], "port:='abc' is not allowed: it must be an integer"),
    (['-p', 'read_timeout_s:=0.0'], 'read_timeout_s:=0.0 is not allowed: it must be a number > 0'),
    (['-p', 'watch:=7'], 'watch:=7 is not allowed: it must be true or false'),
])
def test_ros_parameters_are_checked_by_the_settings_table(args, said):
    from mcp_ros_bridge import ros_entry
    from mcp_ros_bridge.server.settings import SettingError
    with pytest.raises(SettingError) as err:
        ros_entry.read_parameters(args)
    assert said in str(err.value)


def test_a_whole_number_for_a_number_parameter_is_that_number():
    from mcp_ros_bridge import ros_entry
    values = ros_entry.read_parameters(['-p', 'sim_speed:=2', '-p', 'stop_wait_s:=3'])
    assert values['sim_speed'] == 2.0 and isinstance(values['sim_speed'], float)
    assert values['stop_wait_s'] == 3.0


def test_node_with_a_bad_parameter_exits_2_naming_it_before_serving():
    cmd = [sys.executable, '-m', 'mcp_ros_bridge.ros_entry', '--ros-args',
           '-p', 'transport:=https', '-r', '__node:=bridge_bad_setting']
    proc = subprocess.run(cmd, check=False, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=60, cwd=ros_support.REPO,
                          env=dict(os.environ, PYTHONPATH=ros_support.REPO))
    assert proc.returncode == 2, proc.stderr
    assert "transport:='https' is not allowed" in proc.stderr and 'stdio, http' in proc.stderr
    assert proc.stdout == '' and 'Traceback' not in proc.stderr, proc.stderr
