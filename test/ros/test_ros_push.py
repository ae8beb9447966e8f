"""
push_object on ROS through MCP: the push line stops on a wrench spike above the cap.

A ``BridgeServer`` on a real ``RosBackend`` runs the whole push job against the
typed move_group fakes and a gripper controller fake over DDS. A peer publishes
the box's and the cylinder's poses (PoseStamped, 20 Hz) as a perception node
would; the fake planner answers each pose goal and each line with the joints of
a numerical IK on the fakes' own FK, so every motion the bridge verifies is
where it was sent. When the push line starts executing, the box is shifted
12 mm along the push (it is being pushed), the cylinder is knocked 30 mm, and
the wrist force rises 8 N over the 5 N at the start: above the 6 N cap, which
on ROS is the threshold of the whole force change. The job ends FORCE_CAP at
step push, the execution "stop" halts the arm, and the result tells the pushed
box's displacement (its own numbers) from the knocked cylinder (a scene change).
"""

import math
import os
import threading

import anyio
from fake_moveit import fk
from mcp import Client
from mcp_ros_bridge.contract.results import error_block
from mcp_ros_bridge.server.bridge import BridgeServer
from mcp_ros_bridge.server.calls import CallSettings
import numpy as np
import pytest
import ros_support
from transforms3d.quaternions import qinverse, qmult, quat2axangle

pytestmark = [pytest.mark.ros_moveit, pytest.mark.anyio]
pytest.importorskip('rclpy', reason='rclpy does not import: the ros layer needs it')
moveit_rig = ros_support.import_moveit_rig()

BOX, CYLINDER = (0.5, 0.0, 0.025), (0.3, 0.35, 0.05)


def ik(position, quat, link, q0, limits):
    """Return joints putting ``link`` at the pose (damped least squares on the fakes' FK)."""
    q = np.asarray(q0, float)
    lo, hi = (np.array([lim[i] for lim in limits]) + (0.1, -0.1)[i] for i in (0, 1))

    def error(q):
        p, r = fk(q, link)
        axis, angle = quat2axangle(qmult(quat, qinverse(r)))
        return np.concatenate([np.asarray(position) - p, np.asarray(axis) * angle])
    for _ in range(200):
        e = error(q)
        if np.linalg.norm(e) < 1e-7:
            break
        jac = np.column_stack([(error(q) - error(q + dq)) / 1e-6
                               for dq in np.eye(len(q)) * 1e-6])
        step = jac.T @ np.linalg.solve(jac @ jac.T + 1e-4 * np.eye(6), e)
        q = np.clip(q + step * min(1.0, 0.2 / max(np.linalg.norm(step), 1e-12)), lo, hi)
    return [float(v) for v in q]


class IkAnswers:
    """The fake planner's joint answer: IK of the newest pose goal or line's last waypoint."""

    def __init__(self, fake, limits):
        """Answer for ``fake`` within the joint ``limits`` ((lo, hi) per joint)."""
        self.fake, self.limits, self._seen, self._q = fake, limits, (0, 0), None

    def _solution(self):
        seen = (len(self.fake.goals), len(self.fake.path_requests))
        if seen != self._seen or self._q is None:
            if seen[1] != self._seen[1]:
                request = self.fake.path_requests[-1]
                pose, link = request.waypoints[-1], request.link_name
                position = pose.position
            else:
                constraints = self.fake.goals[-1].request.goal_constraints[0]
                region = constraints.position_constraints[0].constraint_region
                position = region.primitive_poses[0].position
                pose = constraints.orientation_constraints[0]
                link = constraints.position_constraints[0].link_name
            o = pose.orientation
            self._q = ik((position.x, position.y, position.z), (o.w, o.x, o.y, o.z), link,
                         self.fake.arm.positions, self.limits)
            self._seen = seen
        return self._q

    def __len__(self):
        """Return the joint count."""
        return len(self._solution())

    def __getitem__(self, i):
        """Return joint ``i`` of the answer."""
        return self._solution()[i]


class ObjectPose:
    """Publishes one object's centre pose at 20 Hz; :meth:`shift` moves and tips it."""

    def __init__(self, peer, topic, xyz):
        """Create the publisher and its timer on the peer."""
        from geometry_msgs.msg import PoseStamped
        from rclpy.qos import qos_profile_sensor_data
        self.node = peer.node
        self.msg = PoseStamped()
        self.msg.header.frame_id = 'panda_link0'
        p = self.msg.pose.position
        p.x, p.y, p.z = xyz
        self.msg.pose.orientation.w = 1.0
        self.published = threading.Event()
        self._pub = self.node.create_publisher(PoseStamped, topic, qos_profile_sensor_data)
        self._timer = self.node.create_timer(0.05, self._tick)

    def _tick(self):
        stamp = self.msg.header.stamp
        stamp.sec, stamp.nanosec = divmod(self.node.get_clock().now().nanoseconds,
                                          1_000_000_000)
        self._pub.publish(self.msg)
        self.published.set()

    def shift(self, dy, tilt_deg=0.0):
        """Move it ``dy`` along y and tip it about x; return once that was published."""
        half = math.radians(tilt_deg) / 2
        self.msg.pose.position.y += dy
        o = self.msg.pose.orientation
        o.w, o.x = math.cos(half), math.sin(half)
        self.published.clear()
        assert self.published.wait(5.0), 'the pose publisher stopped'


@pytest.mark.parametrize('mode', ('legacy', '2026-07-28'))
async def test_push_line_stops_on_a_wrench_spike_above_the_cap(tmp_path, mode):
    raw = moveit_rig.tagged_yaml(moveit_rig.new_tag(), execution_horizon_s=0.0)  # one run each
    topics = {n: f'/t{os.getpid()}_push/{n}_pose' for n in ('box', 'cylinder')}
    raw['ros']['object_pose_topics'] = {n: {'name': t} for n, t in topics.items()}
    catalog = moveit_rig.ros_catalog(tmp_path, raw)
    from test_ros_moveit_checks import FakeGripperController  # the generated control_msgs
    async with moveit_rig.rigged(config=catalog.robot) as (backend, fake, pub, peer):
        box, cylinder = ObjectPose(peer, topics['box'], BOX), ObjectPose(
            peer, topics['cylinder'], CYLINDER)
        assert box.published.wait(5.0) and cylinder.published.wait(5.0)
        FakeGripperController(peer, backend.config.ros.actions['gripper'], pub, 0.0)
        fake.solution = IkAnswers(fake, backend.config.arm_position_limits)
        pushed, run = [], fake.arm.run

        def run_pushed(points, should_stop):
            if len(fake.path_requests) == 2 and not pushed:  # the descent, then the push line
                pushed.append(points)  # slowed to 6 s: the stop ends it
                box.shift(0.012)
                cylinder.shift(0.03, tilt_deg=20.0)
                pub.force = (0.0, 0.0, 13.0)
                points = [(t * 20.0, q) for t, q in points]
            return run(points, should_stop)
        fake.arm.run = run_pushed
        bridge = BridgeServer(catalog, backend, CallSettings(motion_rate_per_s=1000.0,
                                                             motion_burst=1000))
        try:
            async with Client(bridge.server, mode=mode) as client:
                with anyio.fail_after(90):
                    await _until_seen(client)
                    r = await client.call_tool('push_object', {
                        'object': 'box', 'direction': 'left', 'distance_m': 0.05,
                        'max_force_n': 6})
        finally:
            fake.arm.run = run
            bridge.close()
    text, s = r.content[0].text, r.structured_content
    assert r.is_error and error_block(r)['code'] == 'FORCE_CAP', text
    assert s['failed_step'] == 'push' and s['steps_done'] == ['check', 'close', 'above',
                                                              'descend'], s
    assert 7.0 < s['push_force_n'] < 9.5, s  # the wrist force change, not |F|
    assert 'stop' in fake.events.received  # the path that actually halts MoveIt
    assert s['moved_m'] == pytest.approx(0.012, abs=1e-4) and abs(s['lateral_m']) < 1e-4
    (change,) = s['scene_changes']  # the pushed box is the push's own numbers, not a change
    assert change['object'] == 'cylinder' and change['moved_mm'] == pytest.approx(30.0, abs=0.2)
    assert 'max_force_n 6 N (the wrist force changed by' in text, text
    assert 'The box moved 12 mm along the direction' in text


async def _until_seen(client):
    """Wait until list_objects serves both poses (the first messages arrived)."""
    while True:
        r = await client.call_tool('list_objects', {})
        if all('pose' in o for o in r.structured_content['objects']):
            return
        await anyio.sleep(0.05)  # no pose message arrived yet: ask again
