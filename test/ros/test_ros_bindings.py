"""
Declared topic and service bindings, and the force guard, on real rclpy.

The force guard is exercised with the goal runner and a raw action server
(MoveIt is not needed): a wrench above the limit cancels the goal.
"""

import asyncio
import os

from mcp_ros_bridge.backends.port import BackendError, MotionLimits
from mcp_ros_bridge.backends.ros import RosBackend
import pytest
import ros_support
from ros_support import declared

pytestmark = [pytest.mark.ros, pytest.mark.anyio]
pytest.importorskip('rclpy', reason='rclpy does not import: the ros layer needs it')
pytest.importorskip('test_msgs', reason='test_msgs does not import: install ros-jazzy-test-msgs')
fake_servers = pytest.importorskip('fake_servers')
qos = pytest.importorskip('rclpy.qos')
BatteryState = pytest.importorskip('sensor_msgs.msg').BatteryState
Fibonacci = pytest.importorskip('test_msgs.action').Fibonacci

_N = iter(range(1_000_000))


@pytest.fixture
async def setup():
    """Return (backend, peer, prefix, config)."""
    peer = ros_support.Peer()
    prefix = f'/b{os.getpid()}_{next(_N)}'
    config = ros_support.robot_config()
    backend = RosBackend(config, node_name='bridge_bindings')
    await backend.start()
    yield backend, peer, prefix, config
    await backend.close()
    peer.close()


def latched_battery(peer, topic, age_s=0.0):
    """Publish one BatteryState on a transient-local topic, stamped ``age_s`` ago."""
    profile = qos.QoSProfile(depth=1, reliability=qos.ReliabilityPolicy.RELIABLE,
                             durability=qos.DurabilityPolicy.TRANSIENT_LOCAL)
    pub = peer.node.create_publisher(BatteryState, topic, profile)
    msg = BatteryState(voltage=24.5, percentage=0.8)
    now = peer.node.get_clock().now().nanoseconds - int(age_s * 1e9)
    msg.header.stamp.sec, msg.header.stamp.nanosec = divmod(now, 1_000_000_000)
    pub.publish(msg)
    return pub


async def test_declared_topic_read_returns_message_and_age(setup):
    backend, peer, prefix, _ = setup
    latched_battery(peer, f'{prefix}/battery')
    out = await backend.read_topic(declared('ros_topic', topic=f'{prefix}/battery', max_age_s=2.0,
                                            type='sensor_msgs/msg/BatteryState',
                                            qos='transient_local', wait_s=5.0))
    assert out['message']['voltage'] == pytest.approx(24.5)
    assert out['message']['percentage'] == pytest.approx(0.8)
    assert 0.0 <= out['age_s'] < 2.0
    assert out['topic'] == f'{prefix}/battery'


async def test_declared_topic_with_old_stamp_is_stale(setup):
    backend, peer, prefix, _ = setup
    latched_battery(peer, f'{prefix}/old', age_s=10.0)
    with pytest.raises(BackendError) as err:
        await backend.read_topic(declared('ros_topic', topic=f'{prefix}/old', max_age_s=2.0,
                                          wait_s=5.0, type='sensor_msgs/msg/BatteryState',
                                          qos='transient_local'))
    assert err.value.code == 'SENSOR_STALE' and err.value.details['age_s'] >= 9.0


async def test_silent_declared_topic_is_stale_after_wait(setup):
    backend, _, prefix, _ = setup
    with pytest.raises(BackendError, match=f'no message on {prefix}/quiet'):
        await backend.read_topic(declared('ros_topic', topic=f'{prefix}/quiet', wait_s=0.2,
                                          type='sensor_msgs/msg/BatteryState'))


async def test_declared_service_call_round_trip(setup):
    backend, peer, prefix, _ = setup
    fake_servers.BasicTypesService(peer, prefix)
    b = declared('ros_service', service=f'{prefix}/add_one', type='test_msgs/srv/BasicTypes',
                 timeout_s=5)
    out = await backend.call_service(b, {'int32_value': 41, 'string_value': 'hi',
                                         'bool_value': False})
    assert out['response']['int32_value'] == 42
    assert out['response']['string_value'] == 'hi'
    assert out['response']['bool_value'] is True


async def test_service_faults_are_backend_errors(setup):
    backend, peer, prefix, _ = setup
    fake_servers.BasicTypesService(peer, prefix)
    kind = 'test_msgs/srv/BasicTypes'
    with pytest.raises(BackendError, match='INVALID_GOAL.*int32_value'):
        await backend.call_service(declared('ros_service', service=f'{prefix}/add_one',
                                            type=kind), {'int32_value': 'x'})
    with pytest.raises(BackendError, match='UNAVAILABLE'):
        await backend.call_service(declared('ros_service', service=f'{prefix}/none', type=kind,
                                            timeout_s=0.3), {})
    loop = asyncio.get_running_loop()
    start = loop.time()
    with pytest.raises(BackendError, match='TIMED_OUT'):
        await backend.call_service(declared('ros_service', service=f'{prefix}/slow', type=kind,
                                            timeout_s=0.5), {})
    assert loop.time() - start <= 0.5 * 1.1 + 0.1


async def test_force_guard_cancels_goal_above_limit_and_reports_peak(setup):
    backend, peer, prefix, config = setup
    servers = fake_servers.FibonacciServers(peer, prefix)
    pub = ros_support.SensorPublisher(peer, config, force=(0.0, 0.0, 5.0))
    assert await backend.wait_for_sensors(5.0) == []
    runner = backend.parts.runner
    limits = MotionLimits(0.2, 0.2, contact_force_limit_n=40.0, timeout_s=10.0)
    async with backend._guard(limits) as guard:
        client = runner.client(Fibonacci, f'{prefix}/hold')
        task = asyncio.ensure_future(runner.run(
            client, Fibonacci.Goal(order=1), name='hold', timeout_s=10.0,
            interrupt=guard.event))
        assert await asyncio.to_thread(servers.executing.wait, 5.0)
        pub.force = (30.0, 0.0, 45.0)  # |F| = 54 N
        outcome = await task
    assert guard.contact and not guard.stale
    assert guard.peak_n == pytest.approx(54.08, abs=0.01)
    assert outcome.interrupted and outcome.status == 'CANCELED'
    assert await asyncio.to_thread(servers.cancelled.wait, 5.0)


async def test_motion_is_refused_when_the_wrench_stream_is_silent(setup):
    backend, _, _, _ = setup
    with pytest.raises(BackendError, match='SENSOR_STALE'):
        backend._guard(MotionLimits(0.2, 0.2, contact_force_limit_n=40.0))
