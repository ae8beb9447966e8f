"""
A bare ``geometry_msgs/Wrench`` F/T topic (no header), configured with ``ros.topics.wrench.type``.

Such a topic has no stamp or frame: the bridge stamps each sample with the
node clock when it takes it and reports the configured ``frames.ft_sensor``.
Checked against rclpy's serializer, over real DDS in every ingest mode, and
through the robot.yaml schema.
"""

import asyncio
from dataclasses import replace
import random
import threading

from mcp_ros_bridge.backends.port import BackendError
from mcp_ros_bridge.backends.ros import cdr, RosBackend
from mcp_ros_bridge.catalog.schemas import ROBOT_SCHEMA
import pytest
import ros_support

pytestmark = [pytest.mark.ros]
serialization = pytest.importorskip(
    'rclpy.serialization', reason='rclpy does not import: the ros layer needs it')
Wrench = pytest.importorskip('geometry_msgs.msg').Wrench
BARE = 'geometry_msgs/msg/Wrench'


def test_bare_wrench_matches_serialize_message_and_rejects_truncation():
    rng = random.Random(7)
    for _ in range(300):
        msg = Wrench()
        values = [rng.uniform(-1e4, 1e4) for _ in range(6)]
        f, t = msg.force, msg.torque
        f.x, f.y, f.z, t.x, t.y, t.z = values
        data = serialization.serialize_message(msg)
        assert cdr.parse_bare_wrench(data) == tuple(values)
    with pytest.raises(ValueError, match='too short'):
        cdr.parse_bare_wrench(data[:40])


def test_robot_yaml_accepts_both_wrench_types_and_nothing_else():
    import jsonschema
    raw = ros_support.robot_yaml()
    for kind in ('geometry_msgs/msg/WrenchStamped', BARE):
        raw['ros']['topics']['wrench']['type'] = kind
        jsonschema.validate(raw, ROBOT_SCHEMA)
    raw['ros']['topics']['wrench']['type'] = 'geometry_msgs/msg/Twist'
    with pytest.raises(jsonschema.ValidationError, match='Twist'):
        jsonschema.validate(raw, ROBOT_SCHEMA)


class BareWrenchPublisher:
    """Publishes bare Wrench messages at about 500 Hz from a paced thread until stopped."""

    def __init__(self, peer, topic, force):
        """Start publishing ``force`` on ``topic``."""
        from rclpy.qos import qos_profile_sensor_data
        self._pub = peer.node.create_publisher(Wrench, topic, qos_profile_sensor_data)
        self._msg = Wrench()
        self._msg.force.x, self._msg.force.y, self._msg.force.z = force
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        peer.before_close.append(self.stop)

    def _run(self):
        while not self._stopped.is_set():
            self._pub.publish(self._msg)
            self._stopped.wait(0.002)

    def stop(self):
        """Stop publishing and join the thread."""
        self._stopped.set()
        self._thread.join(timeout=2.0)


@pytest.mark.anyio
@pytest.mark.parametrize('ingest', ['batched', 'raw', 'objects'])
async def test_bare_wrench_topic_is_read_stamped_on_receipt_and_goes_stale(ingest):
    peer = ros_support.Peer('ft_driver')
    config = ros_support.robot_config(max_age_s=0.3, sensor_ingest=ingest)
    wrench = replace(config.ros.topics['wrench'], message_type=BARE)
    config = replace(config, ros=replace(config.ros, topics={**config.ros.topics,
                                                             'wrench': wrench}))
    topic = wrench.name
    pub = BareWrenchPublisher(peer, topic, (1.5, -2.0, 9.0))
    backend = RosBackend(config, node_name='bridge_bare_wrench')
    await backend.start()
    try:
        buffer = backend.parts.wrench
        done, loop = asyncio.Event(), asyncio.get_running_loop()
        buffer.watcher = lambda _: (loop.call_soon_threadsafe(done.set)
                                    if buffer.count >= 20 else None)
        await asyncio.wait_for(done.wait(), 20.0)
        samples = await backend.wrench_samples(20)
        now = backend.runtime.now_s()
        assert samples.samples[-1] == (1.5, -2.0, 9.0, 0.0, 0.0, 0.0)
        assert samples.frame_id == config.ft_frame
        assert list(samples.stamps) == sorted(samples.stamps)
        assert 0.0 <= now - samples.stamps[-1] < 0.3 and samples.age_s < 0.3
        pub.stop()
        # Time must pass for the receipt age to exceed the max age: an event never set.
        await asyncio.wait({asyncio.ensure_future(asyncio.Event().wait())}, timeout=0.5)
        with pytest.raises(BackendError) as err:
            await backend.wrench_samples(1)
        assert err.value.code == 'SENSOR_STALE' and topic in err.value.message
    finally:
        buffer.watcher = None
        await backend.close()
        peer.close()
