"""
Batched sensor ingestion (the default) on real rclpy and DDS.

The publisher numbers its wrench messages (torque.x), so the tests can see
that every message of a window arrives, in order, although no executor
callback runs per message; a malformed message is skipped and counted, and
the stream goes on. Staleness on this path is covered by test_ros_sensing.py,
which runs with the shipped (batched) settings.
"""

import asyncio

from mcp_ros_bridge.backends.ros import RosBackend
import pytest
import ros_support

pytestmark = [pytest.mark.ros, pytest.mark.anyio]
pytest.importorskip('rclpy', reason='rclpy does not import: the ros layer needs it')
WrenchStamped = pytest.importorskip('geometry_msgs.msg').WrenchStamped


@pytest.fixture
def peer():
    """Return a started peer node; close it after the test."""
    node = ros_support.Peer()
    yield node
    node.close()


async def _started(config):
    backend = RosBackend(config, node_name='bridge_batched')
    await backend.start()
    assert 'drain' in backend._parts, 'the shipped settings ingest in batches'
    return backend


async def _until(buffer, condition, timeout_s):
    """Wait until ``condition()`` holds, re-checked as each sample is stored."""
    done, loop = asyncio.Event(), asyncio.get_running_loop()
    buffer.watcher = lambda _: loop.call_soon_threadsafe(done.set) if condition() else None
    try:
        if not condition():
            await asyncio.wait_for(done.wait(), timeout_s)
    finally:
        buffer.watcher = None


def _number(buffer):
    newest = buffer.newest()
    return -1 if newest is None else int(newest[2][3])


async def test_every_message_of_a_window_arrives_in_order(peer):
    config = ros_support.robot_config(max_age_s=5.0)
    pub = ros_support.SensorPublisher(peer, config, numbered=True)
    backend = await _started(config)
    try:
        assert await backend.wait_for_sensors(20.0) == []
        wrench = backend._parts['wrench']
        first = _number(wrench)
        await _until(wrench, lambda: _number(wrench) >= first + 400, 30.0)
        pub.stop()
        last = pub.published['wrench'] - 1
        await _until(wrench, lambda: _number(wrench) == last, 20.0)
        samples = await backend.wrench_samples(300)
        numbers = [int(row[3]) for row in samples.samples]
        assert numbers == list(range(last - 299, last + 1))
        assert list(samples.stamps) == sorted(samples.stamps)
        assert backend._parts['drain'].malformed == 0
    finally:
        await backend.close()


async def test_a_malformed_message_is_skipped_and_the_stream_goes_on(peer):
    from rclpy.qos import qos_profile_sensor_data
    config = ros_support.robot_config(max_age_s=5.0)
    topic = config.ros.topics['wrench'].name
    publisher = peer.node.create_publisher(WrenchStamped, topic, qos_profile_sensor_data)
    backend = await _started(config)
    try:
        drain = backend._parts['drain']
        good = WrenchStamped()
        good.header.frame_id = config.ft_frame
        good.wrench.force.z = 7.0
        # Keep publishing (a truncated message, then a good one) until both were taken:
        # the subscription may match the publisher only after the first few.
        wrench = backend._parts['wrench']
        for _ in range(200):
            publisher.publish(b'\x00\x01\x00\x00\x07')
            good.header.stamp = peer.node.get_clock().now().to_msg()
            publisher.publish(good)
            try:
                await _until(wrench, lambda: drain.malformed and wrench.count, 0.1)
                break
            except asyncio.TimeoutError:
                continue
        assert drain.malformed >= 1
        samples = await backend.wrench_samples(1)
        assert samples.samples[-1][2] == 7.0 and samples.frame_id == config.ft_frame
    finally:
        await backend.close()
