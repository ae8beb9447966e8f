"""
Object poses on ROS from configured PoseStamped topics, over real rclpy and DDS.

A peer node plays the perception node: it publishes the box's centre pose at
20 Hz. The backend serves it in the base frame, refuses a stale pose (old
stamps or a silent topic) and a pose in another frame (naming the frame), and
says what to configure for an object without a topic; sim time is honoured.
"""

import asyncio
import itertools
import os
import threading

from mcp import Client
from mcp_ros_bridge.backends.port import BackendError
from mcp_ros_bridge.backends.ros import RosBackend
from mcp_ros_bridge.capabilities import KINDS
from mcp_ros_bridge.catalog.loader import load_catalog
from mcp_ros_bridge.server.bridge import BridgeServer
from mcp_ros_bridge.server.calls import CallSettings
import pytest
import ros_support

pytestmark = [pytest.mark.ros, pytest.mark.anyio]
pytest.importorskip('rclpy', reason='rclpy does not import: the ros layer needs it')
_IDS = itertools.count()


class PosePublisher:
    """Publishes one object's PoseStamped at 20 Hz from a timer on the peer."""

    def __init__(self, peer, topic, frame='panda_link0', stamp_offset_s=0.0, now_ns=None):
        """Create the publisher and its timer."""
        from geometry_msgs.msg import PoseStamped
        from rclpy.qos import qos_profile_sensor_data
        node = peer.node
        self.msg = PoseStamped()
        self.msg.header.frame_id = frame
        p, q = self.msg.pose.position, self.msg.pose.orientation
        p.x, p.y, p.z = 0.5, -0.1, 0.025
        q.w, q.x, q.y, q.z = 0.0, 0.0, 0.0, 1.0
        self._now_ns = now_ns or (lambda: node.get_clock().now().nanoseconds)
        self._offset_ns = int(stamp_offset_s * 1e9)
        self._pub = node.create_publisher(PoseStamped, topic, qos_profile_sensor_data)
        self.published = threading.Event()
        self._timer = node.create_timer(0.05, self._tick)

    def _tick(self):
        stamp = self.msg.header.stamp
        stamp.sec, stamp.nanosec = divmod(self._now_ns() - self._offset_ns, 1_000_000_000)
        self._pub.publish(self.msg)
        self.published.set()

    def stop(self):
        """Stop publishing: the topic goes silent."""
        self._timer.cancel()


def _config(max_age_s=0.5):
    topic = f'/t{os.getpid()}_{next(_IDS)}/box_pose'
    config = ros_support.robot_config(object_pose_topics={'box': {'name': topic}},
                                      object_pose_max_age_s=max_age_s)
    return config, topic


async def _first_pose(backend, name='box', frame='panda_link0', timeout_s=10.0):
    """Return the first pose the backend serves; other refusals than 'not yet' propagate."""
    async def poll():
        while True:
            try:
                return await backend.object_pose(name, frame)
            except BackendError as exc:
                if 'received' not in exc.message or 'yet' not in exc.message:
                    raise
            await asyncio.sleep(0.02)  # no pose arrived yet: ask again
    return await asyncio.wait_for(poll(), timeout_s)


async def _started(config, use_sim_time=False):
    backend = RosBackend(config, node_name='bridge_object_poses', use_sim_time=use_sim_time)
    await backend.start()
    return backend


async def test_a_fresh_pose_in_the_base_frame_is_served(peer):
    config, topic = _config()
    PosePublisher(peer, topic)
    backend = await _started(config)
    try:
        pose = await _first_pose(backend)
        assert pose.frame_id == 'panda_link0'
        assert pose.position == pytest.approx((0.5, -0.1, 0.025))
        assert pose.orientation == pytest.approx((0.0, 0.0, 0.0, 1.0))  # w, x, y, z
        assert pose.stamp > 1e9  # the wall-clock stamp of the message
    finally:
        await backend.close()


async def test_a_silent_topic_turns_stale_naming_topic_object_and_age(peer):
    config, topic = _config(max_age_s=0.3)
    pub = PosePublisher(peer, topic)
    backend = await _started(config)
    try:
        await _first_pose(backend)
        pub.stop()
        await asyncio.wait({asyncio.ensure_future(asyncio.Event().wait())}, timeout=0.6)
        with pytest.raises(BackendError) as err:
            await backend.object_pose('box', 'panda_link0')
        assert err.value.code == 'SENSOR_STALE' and topic in err.value.message
        assert err.value.details['object'] == 'box' and err.value.details['age_s'] > 0.3
    finally:
        await backend.close()


async def test_old_stamps_are_stale_even_while_poses_flow(peer):
    config, topic = _config(max_age_s=0.5)
    pub = PosePublisher(peer, topic, stamp_offset_s=3.0)
    backend = await _started(config)
    try:
        assert await asyncio.to_thread(pub.published.wait, 10.0)
        with pytest.raises(BackendError) as err:
            await _first_pose(backend)
        assert err.value.code == 'SENSOR_STALE' and err.value.details['age_s'] >= 2.9
    finally:
        await backend.close()


async def test_a_pose_in_another_frame_is_refused_naming_the_frame(peer):
    config, topic = _config()
    PosePublisher(peer, topic, frame='camera_color_optical_frame')
    backend = await _started(config)
    try:
        with pytest.raises(BackendError) as err:
            await _first_pose(backend)
        assert err.value.code == 'FRAME_TRANSFORM_FAILURE'
        assert "'camera_color_optical_frame'" in err.value.message
        assert 'panda_link0' in err.value.advice and topic in err.value.message
    finally:
        await backend.close()


async def test_asking_for_another_frame_is_refused(peer):
    config, topic = _config()
    PosePublisher(peer, topic)
    backend = await _started(config)
    try:
        await _first_pose(backend)
        with pytest.raises(BackendError, match="FRAME_TRANSFORM_FAILURE.*'world'"):
            await backend.object_pose('box', 'world')
    finally:
        await backend.close()


async def test_an_object_without_a_topic_says_what_to_configure():
    config, _ = _config()
    backend = await _started(config)
    try:
        with pytest.raises(BackendError) as err:
            await backend.object_pose('cylinder', 'panda_link0')
        assert err.value.code == 'UNSUPPORTED' and "'cylinder'" in err.value.message
        assert 'object_pose_topics' in err.value.advice
        assert err.value.details['configure'] == 'ros.object_pose_topics.cylinder'
    finally:
        await backend.close()


async def test_sim_time_stamps_are_fresh_on_a_sim_time_node(peer):
    pytest.importorskip('rosgraph_msgs.msg', reason='rosgraph_msgs (the /clock type) is missing')
    config, topic = _config()
    clock = ros_support.SimClock(peer, start_s=100.0, rtf=0.5)
    PosePublisher(peer, topic, now_ns=clock.now_ns)
    backend = await _started(config, use_sim_time=True)
    try:
        async def fresh():
            while True:
                try:
                    return await _first_pose(backend)
                except BackendError as exc:
                    if exc.code != 'CLOCK_MISMATCH' or 'no message has arrived' not in exc.message:
                        raise
                await asyncio.sleep(0.02)  # /clock not seen yet: ask again
        pose = await asyncio.wait_for(fresh(), 10.0)
        assert 90.0 < pose.stamp < 1e6
    finally:
        await backend.close()


@pytest.mark.parametrize('mode', ['legacy', '2026-07-28'])
async def test_object_poses_through_mcp_and_a_wrong_frame_refused(peer, tmp_path, mode):
    """list_objects on ROS: the box's pose from its topic; the cylinder's frame is refused."""
    tag = f'/t{os.getpid()}_{next(_IDS)}'
    config_dir, config = ros_support.config_dir(tmp_path, object_pose_topics={
        'box': {'name': f'{tag}/box_pose'}, 'cylinder': {'name': f'{tag}/cylinder_pose'}})
    PosePublisher(peer, f'{tag}/box_pose')
    PosePublisher(peer, f'{tag}/cylinder_pose', frame='camera_link')
    backend = await _started(config)
    bridge = BridgeServer(load_catalog(config_dir, kinds=KINDS).for_backend('ros'), backend,
                          CallSettings())
    try:
        await _first_pose(backend)
        with pytest.raises(BackendError) as err:  # once the cylinder's pose arrived: its frame
            await _first_pose(backend, 'cylinder')
        assert err.value.code == 'FRAME_TRANSFORM_FAILURE'
        async with Client(bridge.server, mode=mode) as c:
            listed = await c.call_tool('list_objects', {})
    finally:
        bridge.close()
        await backend.close()
    assert not listed.is_error, listed.content[0].text
    objects = {o['name']: o for o in listed.structured_content['objects']}
    assert objects['box']['pose']['position_m'] == {'x': 0.5, 'y': -0.1, 'z': 0.025}
    assert objects['box']['pose']['frame'] == 'panda_link0'
    assert objects['box']['grasp_z_m'] == 0.025 and 'pose' not in objects['cylinder']
    assert "'camera_link'" in objects['cylinder']['pose_missing']
    text = listed.content[0].text  # the refusal of the cylinder's pose reaches the model
    assert 'cylinder' in text and "'camera_link'" in text, text
    assert listed.structured_content['pose_source'].startswith('partial')
