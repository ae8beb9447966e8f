"""
The ROS backend driven through MCP: the in-memory client in both protocol modes.

A ``BridgeServer`` on a real ``RosBackend`` (real rclpy, real DDS on localhost)
is called with ``mcp.Client(bridge.server, mode=...)``. A peer node publishes
WrenchStamped at 1 kHz and JointState at 500 Hz and serves raw test_msgs
action and service servers (:mod:`fake_servers`). The catalog is the shipped
config copied to a temporary directory, with unique topic names and declared
``ros_topic``, ``ros_service`` and ``ros_action`` tools appended; it must pass
``mcp-ros-bridge lint`` with zero errors.
"""

import os
import shutil
import threading
import time
from typing import Any

import anyio
from mcp import Client
from mcp_ros_bridge.backends.ros import RosBackend
from mcp_ros_bridge.capabilities import KINDS
from mcp_ros_bridge.catalog import linter
from mcp_ros_bridge.catalog.loader import load_catalog
from mcp_ros_bridge.contract.results import error_block
from mcp_ros_bridge.server.bridge import BridgeServer
from mcp_ros_bridge.server.calls import CallSettings
import mcp_types as types
from paths import CONFIG_DIR
import pytest
import ros_support
import yaml

pytestmark = [pytest.mark.ros, pytest.mark.anyio]
pytest.importorskip('rclpy', reason='rclpy does not import: the ros layer needs it')
pytest.importorskip('test_msgs', reason='test_msgs does not import: install ros-jazzy-test-msgs')
fake_servers = pytest.importorskip('fake_servers')
qos = pytest.importorskip('rclpy.qos')
BatteryState = pytest.importorskip('sensor_msgs.msg').BatteryState

MODES = ('legacy', '2026-07-28')
MAX_AGE_S = 0.3
FAULT_TIMEOUT_S = 1.0
SLACK_S = 10.0  # upper bounds catch hangs, not a loaded machine; below the 15 s read timeout
FORCE = (1.0, 2.0, 3.0)
AXES = ('Fx', 'Fy', 'Fz', 'Mx', 'My', 'Mz')
PUBLISHED = dict(zip(AXES, FORCE + (0.0, 0.0, 0.0)))
_N = iter(range(1_000_000))

ORDER_INPUT = {
    'type': 'object', 'additionalProperties': False, 'required': ['order'],
    'properties': {'order': {
        'type': 'integer', 'minimum': 0, 'maximum': 20,
        'description': 'How many Fibonacci numbers to compute after 0 and 1 (count).'}},
}
# (tool suffix, server behaviour in fake_servers, binding timeout in seconds)
ACTIONS = (('ok', 'ok', 10.0), ('hold', 'hold', 30.0), ('stall', 'hold', FAULT_TIMEOUT_S),
           ('reject', 'reject', FAULT_TIMEOUT_S), ('abort', 'abort', FAULT_TIMEOUT_S),
           ('silent', 'silent', FAULT_TIMEOUT_S), ('absent', 'nobody', FAULT_TIMEOUT_S))


def declared_tools(prefix: str) -> list[dict[str, Any]]:
    """Return the declared topic, service and action tools for the peer under ``prefix``."""
    battery = {
        'name': 'read_battery_state', 'title': 'Read battery state', 'version': '1.0.0',
        'kind': 'ros_topic', 'backends': ['ros'], 'annotations': {'readOnlyHint': True},
        'description': (
            'Return the newest sensor_msgs/BatteryState message of the robot battery: '
            'voltage in volts, charge as a fraction and the message age in seconds. Use it '
            'before a long task to check that the battery can finish it. Not for motor '
            'currents. Messages older than five seconds are refused.'),
        'input': {'type': 'object', 'additionalProperties': False, 'properties': {}},
        'binding': {'topic': f'{prefix}/battery', 'type': 'sensor_msgs/msg/BatteryState',
                    'qos': 'transient_local', 'wait_s': 5.0, 'max_age_s': 5.0},
    }
    add_one = {
        'name': 'add_one', 'title': 'Add one', 'version': '1.0.0', 'kind': 'ros_service',
        'backends': ['ros'],
        'description': (
            'Call the test_msgs/BasicTypes service of the test peer, which returns the value '
            'plus one, echoes the label and negates the flag. Use it to check that service '
            'calls through the bridge round-trip. Not a calculator for anything else.'),
        'input': {
            'type': 'object', 'additionalProperties': False, 'required': ['value'],
            'properties': {
                'value': {'type': 'integer', 'minimum': -1000, 'maximum': 1000,
                          'description': 'Number sent as int32_value (count).'},
                'label': {'type': 'string', 'pattern': '^[a-z]{0,16}$',
                          'description': 'Lower-case word sent as string_value.'}}},
        'binding': {'service': f'{prefix}/add_one', 'type': 'test_msgs/srv/BasicTypes',
                    'timeout_s': 5.0, 'fields': {'value': 'int32_value',
                                                 'label': 'string_value'},
                    'constants': {'bool_value': False}},
    }
    actions = [{
        'name': f'fibonacci_{suffix}', 'title': f'Fibonacci ({suffix})', 'version': '1.0.0',
        'kind': 'ros_action', 'backends': ['ros'],
        'description': (
            'Send a test_msgs/Fibonacci goal to the test peer and wait for the sequence; '
            'each feedback message becomes a progress notification. Use it to exercise action '
            f'goals through the bridge (server behaviour: {behaviour}). Not for robot motion.'),
        'input': ORDER_INPUT,
        'binding': {'action': f'{prefix}/{behaviour}', 'type': 'test_msgs/action/Fibonacci',
                    'fields': {'order': 'order'}, 'timeout_s': timeout_s},
    } for suffix, behaviour, timeout_s in ACTIONS]
    return [battery, add_one, *actions]


def write_config(dst: str, prefix: str) -> str:
    """Copy the shipped config to ``dst`` with unique topics and the declared tools."""
    shutil.copytree(CONFIG_DIR, dst)
    robot_path, tools_path = os.path.join(dst, 'robot.yaml'), os.path.join(dst, 'tools.yaml')
    with open(robot_path, encoding='utf-8') as f:
        robot = yaml.safe_load(f)
    robot['ros']['topics']['joint_states']['name'] = f'{prefix}/joint_states'
    robot['ros']['topics']['wrench']['name'] = f'{prefix}/wrench'
    robot['limits']['sensor_max_age_s'] = MAX_AGE_S
    with open(tools_path, encoding='utf-8') as f:
        tools = yaml.safe_load(f)
    tools['tools'].extend(declared_tools(prefix))
    for path, data in ((robot_path, robot), (tools_path, tools)):
        with open(path, 'w', encoding='utf-8') as f:
            yaml.safe_dump(data, f, sort_keys=False, allow_unicode=True)
    return dst


class Rig:
    """A peer with fake servers, a started RosBackend and the bridge over it."""

    def __init__(self, config_dir: str, prefix: str) -> None:
        """Start the peer and its servers; :meth:`start` starts the bridge side."""
        self.prefix = prefix
        self.catalog = load_catalog(config_dir, kinds=KINDS)
        self.config = self.catalog.robot
        self.peer = ros_support.Peer('mcp_peer')
        self.actions = fake_servers.FibonacciServers(self.peer, prefix)
        self.service = fake_servers.BasicTypesService(self.peer, prefix)
        self.backend = RosBackend(self.config, node_name='bridge_over_mcp')
        self.bridge: BridgeServer | None = None

    async def start(self) -> None:
        """Start the backend and build the server exactly as ``serve`` does."""
        await self.backend.start()
        self.bridge = BridgeServer(self.catalog, self.backend,
                                   CallSettings(motion_rate_per_s=1000.0, motion_burst=1000))

    async def close(self) -> None:
        """Close the server, the backend (node, executor, context), then the peer."""
        if self.bridge is not None:
            self.bridge.close()
        await self.backend.close()
        self.peer.close()


@pytest.fixture
async def rig(tmp_path):
    """Return a started :class:`Rig`; everything is shut down after the test."""
    prefix = f'/mcp{os.getpid()}_{next(_N)}'
    r = Rig(write_config(str(tmp_path / 'config'), prefix), prefix)
    try:
        await r.start()
        yield r
    finally:
        await r.close()


def text_of(result: types.CallToolResult) -> str:
    """Join the text blocks of a result."""
    return '\n'.join(c.text for c in result.content if isinstance(c, types.TextContent))


def error_of(result: types.CallToolResult) -> dict[str, Any]:
    """Return the error block of an isError result."""
    assert result.is_error, text_of(result)
    return error_block(result)


async def thread_event(event: threading.Event, timeout_s: float = 5.0) -> bool:
    """Wait for a threading.Event without blocking the loop."""
    return await anyio.to_thread.run_sync(event.wait, timeout_s)


async def ros_timer_elapsed(peer: Any, period_s: float) -> None:
    """Wait for a one-shot timer on the peer's ROS clock to fire after ``period_s``."""
    fired = threading.Event()
    timer = None

    def fire() -> None:
        timer.cancel()
        fired.set()

    timer = peer.node.create_timer(period_s, fire)
    try:
        assert await thread_event(fired, period_s + 5.0), 'the ROS timer never fired'
    finally:
        peer.node.destroy_timer(timer)


async def call(client: Client, name: str, args: dict[str, Any] | None = None,
               **kw: Any) -> tuple[types.CallToolResult, float]:
    """Call ``name``; return the result and the wall time it took (s)."""
    start = time.monotonic()
    result = await client.call_tool(name, args or {}, **kw)
    return result, time.monotonic() - start


async def wrench_filled(client: Client, window_s: float) -> None:
    """Call read_ft_sensor until the window (s) is nearly full (each call is a real round trip)."""
    while True:
        result, _ = await call(client, 'read_ft_sensor',
                               {'filter': 'moving_average', 'window_s': window_s})
        assert not result.is_error, text_of(result)
        if result.structured_content['window_s'] >= 0.9 * window_s:
            return


def test_declared_tools_pass_the_catalog_linter(tmp_path, capsys):
    config_dir = write_config(str(tmp_path / 'config'), '/lint')
    findings = linter.lint_config(config_dir, KINDS)
    errors = [f for f in findings if f.severity == 'error']
    assert errors == []
    assert linter.main([config_dir], KINDS) == 0
    assert '0 error(s)' in capsys.readouterr().out
    names = {t.name for t in load_catalog(config_dir, kinds=KINDS).for_backend('ros').tools}
    assert {'read_battery_state', 'add_one', 'fibonacci_ok'} <= names
    assert 'fibonacci_ok' not in {t.name for t in load_catalog(config_dir, kinds=KINDS)
                                  .for_backend('sim').tools}


@pytest.mark.parametrize('mode', MODES)
async def test_fresh_wrench_and_joint_states_through_mcp(rig, mode):
    pub = ros_support.SensorPublisher(rig.peer, rig.config, force=FORCE)
    assert await rig.backend.wait_for_sensors(5.0) == []
    with anyio.fail_after(20):
        async with Client(rig.bridge.server, mode=mode) as client:
            await wrench_filled(client, 0.05)
            for kind in ('raw', 'kalman', 'moving_average'):
                result, _ = await call(client, 'read_ft_sensor',
                                       {'filter': kind, 'window_s': 0.05})
                assert not result.is_error, text_of(result)
                s = result.structured_content
                assert s['filter'] == kind and s['frame'] == rig.config.ft_frame
                assert s['window_s'] <= 0.05  # 50 samples at 1 kHz, less if some came late
                # A window holds what arrived in it, by stamp: a loaded machine's publisher
                # sends fewer than 1 kHz, or a burst of late timer callbacks with stamps close
                # together, so the count is the publisher's; the window's span is the read's.
                used = s['samples_used']
                assert used == 1 if kind == 'raw' else used >= 1, s
                assert 0.0 <= s['age_s'] < MAX_AGE_S
                assert s['values'] == pytest.approx(PUBLISHED, abs=1e-3)
                assert s['force_magnitude_n'] == pytest.approx(14 ** 0.5, abs=1e-3)
                assert s['units'] == {'Fx': 'N', 'Fy': 'N', 'Fz': 'N',
                                      'Mx': 'Nm', 'My': 'Nm', 'Mz': 'Nm'}
            subset, _ = await call(client, 'read_ft_sensor',
                                   {'filter': 'kalman', 'axes': ['Fz', 'Mx']})
            assert not subset.is_error, text_of(subset)
            assert subset.structured_content['values'] == pytest.approx(
                {'Fz': 3.0, 'Mx': 0.0}, abs=1e-3)
            assert 'Fz=3 N' in text_of(subset) and 'Fx' not in text_of(subset)
            joints, _ = await call(client, 'get_joint_states')
            assert not joints.is_error, text_of(joints)
            s = joints.structured_content
            assert 0.0 <= s['age_s'] < MAX_AGE_S
            by_name = {j['name']: j for j in s['joints']}
            assert [by_name[n]['position'] for n in rig.config.arm_joints] == pytest.approx(
                list(rig.config.home), abs=1e-5)
            assert by_name['panda_finger_joint1'] == {
                'name': 'panda_finger_joint1', 'position': 0.02, 'velocity': 0.0,
                'effort': 0.0, 'unit': 'm'}
            arm_only, _ = await call(client, 'get_joint_states', {'include_gripper': False})
            assert [j['name'] for j in arm_only.structured_content['joints']] == list(
                rig.config.arm_joints)
    assert pub.published['wrench'] >= 50


@pytest.mark.parametrize('mode', MODES)
async def test_stopped_publisher_makes_the_tools_stale_with_topic_and_age(rig, mode):
    pub = ros_support.SensorPublisher(rig.peer, rig.config, force=FORCE)
    assert await rig.backend.wait_for_sensors(5.0) == []
    topics = rig.config.ros.topics
    with anyio.fail_after(20):
        async with Client(rig.bridge.server, mode=mode) as client:
            fresh, _ = await call(client, 'read_ft_sensor', {'filter': 'raw'})
            assert not fresh.is_error, text_of(fresh)
            pub.stop()
            await ros_timer_elapsed(rig.peer, MAX_AGE_S + 0.05)
            for tool, topic in (('read_ft_sensor', topics['wrench'].name),
                                ('get_joint_states', topics['joint_states'].name)):
                result, took = await call(client, tool)
                err = error_of(result)
                assert err['code'] == 'SENSOR_STALE'
                assert err['details']['topic'] == topic
                assert err['details']['age_s'] > MAX_AGE_S
                text = text_of(result)
                assert topic in text and 's old (max 0.300 s)' in text
                assert took < SLACK_S, 'a stale read answers at once, it does not wait'


@pytest.mark.parametrize('mode', MODES)
async def test_declared_topic_returns_the_newest_message(rig, mode):
    profile = qos.QoSProfile(depth=1, reliability=qos.ReliabilityPolicy.RELIABLE,
                             durability=qos.DurabilityPolicy.TRANSIENT_LOCAL)
    pub = rig.peer.node.create_publisher(BatteryState, f'{rig.prefix}/battery', profile)

    def publish(voltage: float) -> None:
        msg = BatteryState(voltage=voltage, percentage=0.8)
        now = rig.peer.node.get_clock().now().nanoseconds
        msg.header.stamp.sec, msg.header.stamp.nanosec = divmod(now, 1_000_000_000)
        pub.publish(msg)

    for voltage in (21.0, 22.0, 23.0):
        publish(voltage)
    with anyio.fail_after(20):
        async with Client(rig.bridge.server, mode=mode) as client:
            result, _ = await call(client, 'read_battery_state')
            assert not result.is_error, text_of(result)
            s = result.structured_content
            assert s['interface'] == f'{rig.prefix}/battery'
            assert s['type'] == 'sensor_msgs/msg/BatteryState'
            assert s['data']['message']['voltage'] == pytest.approx(23.0)
            assert 0.0 <= s['data']['age_s'] < 5.0
            publish(24.5)
            while s['data']['message']['voltage'] != pytest.approx(24.5):
                result, _ = await call(client, 'read_battery_state')
                assert not result.is_error, text_of(result)
                s = result.structured_content
                assert s['data']['message']['voltage'] in (pytest.approx(23.0),
                                                           pytest.approx(24.5))
            assert f'Latest message on {rig.prefix}/battery' in text_of(result)


@pytest.mark.parametrize('mode', MODES)
async def test_declared_service_round_trip(rig, mode):
    with anyio.fail_after(20):
        async with Client(rig.bridge.server, mode=mode) as client:
            result, _ = await call(client, 'add_one', {'value': 41, 'label': 'hi'})
            assert not result.is_error, text_of(result)
            response = result.structured_content['data']['response']
            assert response['int32_value'] == 42
            assert response['string_value'] == 'hi'
            assert response['bool_value'] is True  # the constant false, negated
            bad, _ = await call(client, 'add_one', {'value': '41'})
            assert error_of(bad)['code'] == 'INVALID_ARGUMENTS'


async def fibonacci_ok(rig: Rig, client: Client, order: int) -> list[tuple[float, str]]:
    """Run fibonacci_ok with a progress callback; return the progress reports."""
    reports: list[tuple[float, str]] = []

    async def progress(value: float, total: float | None, message: str | None) -> None:
        reports.append((value, message or ''))
        rig.actions.progressed.set()  # the server sends the next feedback only after this

    result, took = await call(client, 'fibonacci_ok', {'order': order},
                              progress_callback=progress)
    assert not result.is_error, text_of(result)
    data = result.structured_content['data']
    expected = [0, 1]
    for _ in range(order - 1):
        expected.append(expected[-1] + expected[-2])
    assert data['status'] == 'SUCCEEDED'
    assert data['result'] == {'sequence': expected[:order + 1]}
    assert data['feedback_count'] == order
    assert took < SLACK_S
    return reports


@pytest.mark.parametrize('mode', MODES)
async def test_declared_action_feedback_reaches_progress_and_result_returns(rig, mode):
    with anyio.fail_after(20):
        async with Client(rig.bridge.server, mode=mode) as client:
            reports = await fibonacci_ok(rig, client, 4)
    assert len(reports) == 4
    fractions = [f for f, _ in reports]
    assert fractions == sorted(fractions) and all(0.0 <= f <= 1.0 for f in fractions)
    assert [m.rsplit(' ', 1)[-1] for _, m in reports] == ['1', '2', '3', '4']
    assert all(m.startswith(f'{rig.prefix}/ok: feedback') for _, m in reports)


async def cancel_a_held_goal(rig, client):
    """Call fibonacci_hold and cancel the request once its goal executes."""
    async with anyio.create_task_group() as tg:
        tg.start_soon(client.call_tool, 'fibonacci_hold', {'order': 1})
        assert await thread_event(rig.actions.executing), 'the goal never started'
        tg.cancel_scope.cancel()


@pytest.mark.parametrize('mode', MODES)
async def test_client_cancellation_cancels_the_goal(rig, mode):
    with anyio.fail_after(20):
        async with Client(rig.bridge.server, mode=mode) as client:
            await client.list_tools()
            await cancel_a_held_goal(rig, client)
            assert await thread_event(rig.actions.cancelled), 'the server saw no cancel'
            await fibonacci_ok(rig, client, 2)


async def test_a_motion_sent_while_a_cancelled_one_unwinds_waits_instead_of_busy(rig):
    # Legacy mode: the cancel is a notification, so the cancelled handler unwinds on its
    # own while the client sends the next call. The hold server answers the goal's cancel
    # only once that call waits for the arm; refused as BUSY, it would never wait.
    arbiter = rig.bridge.pipeline.arbiter
    wait_idle = arbiter.wait_idle

    async def open_gate_then_wait(timeout: float) -> bool:
        rig.actions.cancel_gate.set()
        return await wait_idle(timeout)

    rig.actions.cancel_gate.clear()
    arbiter.wait_idle = open_gate_then_wait
    with anyio.fail_after(30):
        async with Client(rig.bridge.server, mode='legacy') as client:
            await client.list_tools()
            await cancel_a_held_goal(rig, client)
            assert await thread_event(rig.actions.cancel_asked), 'the server saw no cancel'
            await fibonacci_ok(rig, client, 2)
    assert rig.actions.cancelled.is_set()


TIMED_OUT_TEXT = 'No result within the timeout of 1.0 s; the goal was cancelled'
FAULTS = {
    # tool: (error code, text the agent reads, whether the call lasts the whole timeout)
    'fibonacci_absent': ('UNAVAILABLE', 'nobody is not available after 1.0 s', True),
    'fibonacci_reject': ('REJECTED', 'reject rejected the goal', False),
    'fibonacci_abort': ('ABORTED', 'The action server aborted the goal', False),
    'fibonacci_silent': ('TIMED_OUT', TIMED_OUT_TEXT, True),
    'fibonacci_stall': ('TIMED_OUT', TIMED_OUT_TEXT, True),
}


@pytest.mark.parametrize('mode', MODES)
async def test_action_faults_are_clear_errors_on_time_and_the_next_call_works(rig, mode):
    with anyio.fail_after(40):
        async with Client(rig.bridge.server, mode=mode) as client:
            await client.list_tools()
            for tool, (code, says, whole) in FAULTS.items():
                result, took = await call(client, tool, {'order': 2})
                assert error_of(result)['code'] == code, (tool, text_of(result))
                assert says in text_of(result), (tool, text_of(result))
                # Never early; the upper bound only catches a hang, not a slow machine.
                assert took < FAULT_TIMEOUT_S + SLACK_S, (tool, took)
                if whole:
                    assert took >= FAULT_TIMEOUT_S, (tool, took)
                await fibonacci_ok(rig, client, 1)
    # The server sees the cancel request on its own thread, after the call has returned.
    cancelled = await anyio.to_thread.run_sync(rig.actions.cancelled.wait, 10.0)
    assert cancelled, 'the stalled goal was not cancelled at its timeout'


MOTIONS = {
    # tool: (arguments, the interface package it needs)
    'move_arm_to_pose': ({'position': {'x': 0.4, 'y': 0.0, 'z': 0.4}}, 'moveit_msgs'),
    'move_arm_joints': ({'positions': [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785]},
                        'moveit_msgs'),
    'plan_trajectory': ({'waypoints': [{'x': 0.5, 'y': 0.0, 'z': 0.25},
                                       {'x': 0.5, 'y': 0.0, 'z': 0.15}]}, 'moveit_msgs'),
    'get_end_effector_pose': ({}, 'moveit_msgs'),
    'grasp_object_force_control': ({'force_n': 10}, 'control_msgs'),
    'release_object': ({}, 'control_msgs'),
}


def importable(package: str) -> bool:
    """Return True when ``package`` imports here."""
    try:
        __import__(package)
    except ImportError:
        return False
    return True


@pytest.mark.parametrize('mode', MODES)
async def test_motion_and_gripper_without_their_interfaces_are_clear_errors(rig, mode):
    missing = {t: v for t, v in MOTIONS.items() if not importable(v[1])}
    if not missing:
        pytest.skip('moveit_msgs and control_msgs are installed: test_ros_moveit.py covers '
                    'motion and the gripper')
    ros_support.SensorPublisher(rig.peer, rig.config, force=FORCE)
    assert await rig.backend.wait_for_sensors(5.0) == []
    with anyio.fail_after(20):
        async with Client(rig.bridge.server, mode=mode) as client:
            for tool, (args, package) in missing.items():
                result, took = await call(client, tool, args)
                err = error_of(result)
                assert err['code'] in ('UNSUPPORTED', 'UNAVAILABLE'), (tool, text_of(result))
                assert f'install the {package} package' in text_of(result), (
                    tool, text_of(result))
                assert took < SLACK_S, (tool, took)
            joints, _ = await call(client, 'get_joint_states')
            assert not joints.is_error, text_of(joints)
            assert rig.backend.parts.runner.active_count == 0
