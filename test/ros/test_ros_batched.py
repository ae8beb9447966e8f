"""
Batched sensor ingestion (the default) on real rclpy and DDS.

The publisher numbers its wrench messages (torque.x, in thousandths), so the tests can see
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


async def _started(config):
    backend = RosBackend(config, node_name='bridge_batched')
    await backend.start()
    assert backend.parts.drain is not None, 'the shipped settings ingest in batches'
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
    return -1 if newest is None else ros_support.number_of(newest[2])


async def _matched(publisher, wrench, probe, timeout_s=20.0):
    """Publish ``probe`` until the bridge has stored one (discovery is asynchronous)."""
    for _ in range(int(timeout_s / 0.1)):
        publisher.publish(probe)
        try:
            await _until(wrench, lambda: wrench.count > 0, 0.1)
            return
        except asyncio.TimeoutError:
            continue
    raise AssertionError('the bridge never received the probe')


async def test_every_message_of_a_window_arrives_in_order(peer):
    """
    A burst of 150 messages (a 150 ms filter window at 1 kHz) arrives whole and in order.

    The burst is published as fast as possible, so the drain thread may not run
    while it arrives (a loaded machine): DDS keeps up to ``sensor_qos_depth`` (200)
    messages per topic until the drain takes them, which is the promise tested.
    """
    from rclpy.qos import qos_profile_sensor_data
    config = ros_support.robot_config(max_age_s=5.0)
    topic = config.ros.topics['wrench'].name
    publisher = peer.node.create_publisher(WrenchStamped, topic, qos_profile_sensor_data)
    backend = await _started(config)
    try:
        wrench = backend.parts.wrench
        msg = WrenchStamped()
        msg.header.frame_id = config.ft_frame
        msg.wrench.torque.x = -1.0
        await _matched(publisher, wrench, msg)
        for number in range(150):
            msg.header.stamp = peer.node.get_clock().now().to_msg()
            msg.wrench.torque.x = number * ros_support.NUMBER_SCALE
            publisher.publish(msg)
        await _until(wrench, lambda: _number(wrench) == 149, 30.0)
        samples = await backend.wrench_samples(150)
        assert [ros_support.number_of(row) for row in samples.samples] == list(range(150))
        assert list(samples.stamps) == sorted(samples.stamps)
        assert backend.parts.drain.malformed == 0 and wrench.rejections.total == 0
    finally:
        await backend.close()


async def test_a_malformed_message_is_skipped_and_the_stream_goes_on(peer):
    from rclpy.qos import qos_profile_sensor_data
    config = ros_support.robot_config(max_age_s=5.0)
    topic = config.ros.topics['wrench'].name
    publisher = peer.node.create_publisher(WrenchStamped, topic, qos_profile_sensor_data)
    backend = await _started(config)
    try:
        good = WrenchStamped()
        good.header.frame_id = config.ft_frame
        good.wrench.force.z = 7.0
        # Keep publishing (a truncated message, then a good one) until both were taken:
        # the subscription may match the publisher only after the first few.
        wrench = backend.parts.wrench
        for _ in range(200):
            publisher.publish(b'\x00\x01\x00\x00\x07')
            good.header.stamp = peer.node.get_clock().now().to_msg()
            publisher.publish(good)
            try:
                await _until(wrench, lambda: wrench.rejections.total and wrench.count, 0.1)
                break
            except asyncio.TimeoutError:
                continue
        assert wrench.rejections.counts()['malformed'] >= 1  # counted, not stored
        samples = await backend.wrench_samples(1)
        assert samples.samples[-1][2] == 7.0 and samples.frame_id == config.ft_frame
    finally:
        await backend.close()
