"""
Scene changes on ROS: an object pose topic that changes during a motion is in its result.

A ``BridgeServer`` on a real ``RosBackend`` drives the typed move_group fakes
over DDS; a peer publishes the box's pose (PoseStamped, 20 Hz) as a perception
node would. While the fake arm executes, the box is shifted 30 mm and tipped
20 degrees: the motion result must name the box in ``scene_changes``; a motion
during which nothing moves reports an empty list, and its fingertip path length.
"""

import math
import os
import threading

from mcp import Client
from mcp_ros_bridge.server.bridge import BridgeServer
from mcp_ros_bridge.server.calls import CallSettings
import pytest
import ros_support

pytestmark = [pytest.mark.ros_moveit, pytest.mark.anyio]
pytest.importorskip('rclpy', reason='rclpy does not import: the ros layer needs it')
moveit_rig = ros_support.import_moveit_rig()
TILT_DEG = 20.0


class BoxPose:
    """Publishes the box's centre pose at 20 Hz; :meth:`knock` shifts and tips it."""

    def __init__(self, peer, topic):
        """Create the publisher and its timer on the peer."""
        from geometry_msgs.msg import PoseStamped
        from rclpy.qos import qos_profile_sensor_data
        self.node = peer.node
        self.msg = PoseStamped()
        self.msg.header.frame_id = 'panda_link0'
        self.msg.pose.position.x, self.msg.pose.position.z = 0.5, 0.025
        self.msg.pose.orientation.w = 1.0
        self.published = threading.Event()
        self.knocked = False
        self._pub = self.node.create_publisher(PoseStamped, topic, qos_profile_sensor_data)
        self._timer = self.node.create_timer(0.05, self._tick)

    def _tick(self):
        stamp = self.msg.header.stamp
        stamp.sec, stamp.nanosec = divmod(self.node.get_clock().now().nanoseconds,
                                          1_000_000_000)
        self._pub.publish(self.msg)
        self.published.set()

    def knock(self):
        """Shift the box 30 mm along y and tip it about x; return once that was published."""
        self.knocked = True
        half = math.radians(TILT_DEG) / 2
        self.msg.pose.position.y += 0.03
        o = self.msg.pose.orientation
        o.w, o.x = math.cos(half), math.sin(half)
        self.published.clear()
        assert self.published.wait(5.0), 'the pose publisher stopped'


@pytest.mark.parametrize('mode', ('legacy', '2026-07-28'))
async def test_a_box_knocked_during_a_ros_motion_is_reported(tmp_path, mode):
    raw = moveit_rig.tagged_yaml(moveit_rig.new_tag())
    topic = f'/t{os.getpid()}_scene/box_pose'
    raw['ros']['object_pose_topics'] = {'box': {'name': topic}}
    catalog = moveit_rig.ros_catalog(tmp_path, raw)
    async with moveit_rig.rigged(config=catalog.robot) as (backend, fake, _, peer):
        box = BoxPose(peer, topic)
        assert box.published.wait(5.0)
        bridge = BridgeServer(catalog, backend, CallSettings(motion_rate_per_s=1000.0,
                                                             motion_burst=1000))
        run = fake.arm.run
        try:
            async with Client(bridge.server, mode=mode) as client:
                await _until_seen(client)
                quiet = await client.call_tool('move_arm_to_posture', {'posture': 'ready'})

                def knocked_run(points, should_stop):
                    if not box.knocked:  # the arm hits the box as it starts moving (once,
                        box.knock()  # however many segments the execution is handed in)
                    return run(points, should_stop)
                fake.arm.run = knocked_run
                hit = await client.call_tool('move_arm_to_posture', {'posture': 'home'})
        finally:
            fake.arm.run = run
            bridge.close()
    assert not quiet.is_error, quiet.content[0].text
    assert quiet.structured_content['scene_changes'] == []
    # the executed plan's fingertip path: home's and ready's fingertips are 0.277 m apart
    assert 0.277 <= quiet.structured_content['path_length_m'] < 0.4
    assert not hit.is_error, hit.content[0].text
    (change,) = hit.structured_content['scene_changes']
    assert change['object'] == 'box'
    assert change['moved_mm'] == pytest.approx(30.0, abs=0.2)
    assert change['tilted_deg'] == pytest.approx(TILT_DEG, abs=0.2)
    assert 'The box (not held) moved 30 mm and tilted 20° during the motion.' in \
        hit.content[0].text


async def _until_seen(client):
    """Wait until list_objects serves the box's pose (the first message arrived)."""
    import anyio
    with anyio.fail_after(10):
        while True:
            r = await client.call_tool('list_objects', {})
            if 'pose' in {o['name']: o for o in r.structured_content['objects']}['box']:
                return
            await anyio.sleep(0.05)  # no pose message arrived yet: ask again
