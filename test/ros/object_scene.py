"""
Objects on a table for the ROS job tests: pose publishers, a numerical-IK planner, a world model.

:class:`ObjectPose` publishes an object's centre pose (PoseStamped, 20 Hz) as a
perception node would. :class:`IkAnswers` is the fake planner's joint answer: a
numerical IK on the fakes' own FK of the newest pose goal or line, so every
motion the bridge verifies is where it was sent; :func:`ik_line` answers a
Cartesian path with a straight line, as MoveIt does. :class:`TableWorld` is the
test's physics at its seams: a closing gripper takes hold of the object between
its fingers (its pose then follows the fingertip, published at every arm step,
as a tracker would), an opening one lets it rest on the table, and the wrist
force rises with how far the lowest thing the hand carries is pressed into the
table.
"""

import threading

import anyio
from fake_moveit import fk
import numpy as np
from transforms3d.quaternions import qinverse, qmult, quat2axangle

BASE_FORCE_N = 5.0  # the hand's weight on the wrist sensor (SensorPublisher's default)
TABLE_STIFFNESS_N_PER_M = 5000.0  # 5 N per mm pressed into the table
GRASP_REACH_M = 0.015  # a closing gripper holds an object whose centre is this near the TCP


def ik(position, quat, link, q0, limits):
    """Return joints putting ``link`` at the pose (damped least squares on the fakes' FK)."""
    q = np.asarray(q0, float)
    lo, hi = (np.array([lim[i] for lim in limits]) + (0.1, -0.1)[i] for i in (0, 1))

    def error(q):
        p, r = fk(q, link)
        turn = qmult(quat, qinverse(r))
        axis, angle = quat2axangle(turn if turn[0] >= 0 else -turn)  # the short way round
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
            if seen[0] == self._seen[0]:  # a new line (a new MoveGroup goal comes first)
                request = self.fake.path_requests[-1]
                pose, link = request.waypoints[-1], request.link_name
                position, start = pose.position, request.start_state
            else:
                start = self.fake.goals[-1].request.start_state
                constraints = self.fake.goals[-1].request.goal_constraints[0]
                region = constraints.position_constraints[0].constraint_region
                position = region.primitive_poses[0].position
                pose = constraints.orientation_constraints[0]
                link = constraints.position_constraints[0].link_name
            o = pose.orientation
            self._q = ik((position.x, position.y, position.z), (o.w, o.x, o.y, o.z), link,
                         self.fake.start_of(start), self.limits)
            self._seen = seen
        return self._q

    def __len__(self):
        """Return the joint count."""
        return len(self._solution())

    def __getitem__(self, i):
        """Return joint ``i`` of the answer."""
        return self._solution()[i]


def ik_line(fake, limits, samples=20):
    """
    Return the fake's ``plan_line``: IK along the straight line to the request's last waypoint.

    As compute_cartesian_path does: the link's pose interpolated (position, normalised
    quaternion), each sample solved from the one before, timed over ``fake.duration_s``.
    """
    def plan(request, q0):
        pose = request.waypoints[-1]
        p, o = pose.position, pose.orientation
        end, end_q = np.array([p.x, p.y, p.z]), np.array([o.w, o.x, o.y, o.z])
        start, start_q = (np.asarray(v, float) for v in fk(q0, request.link_name))
        if np.dot(start_q, end_q) < 0:
            end_q = -end_q
        points, q = [(0.0, list(q0))], q0
        for k in range(1, samples + 1):
            u = k / samples
            quat = start_q + (end_q - start_q) * u
            q = ik(start + (end - start) * u, quat / np.linalg.norm(quat), request.link_name, q,
                   limits)
            points.append((fake.duration_s * u, q))
        return points
    return plan


class ObjectPose:
    """Publishes one object's centre pose at 20 Hz; :meth:`shift` moves and tips it."""

    def __init__(self, peer, topic, xyz):
        """Create the publisher and its timer on the peer."""
        from geometry_msgs.msg import PoseStamped
        from rclpy.qos import qos_profile_sensor_data
        self.node = peer.node
        self.msg = PoseStamped()
        self.msg.header.frame_id = 'panda_link0'
        self._lock = threading.Lock()
        self.move_to(xyz)
        self.msg.pose.orientation.w = 1.0
        self.published = threading.Event()
        self._pub = self.node.create_publisher(PoseStamped, topic, qos_profile_sensor_data)
        self._timer = self.node.create_timer(0.05, self._tick)

    @property
    def xyz(self):
        """Return the published centre position."""
        p = self.msg.pose.position
        with self._lock:
            return (p.x, p.y, p.z)

    def move_to(self, xyz, now=False):
        """Publish the centre at ``xyz`` from the next message on (``now``: at once)."""
        p = self.msg.pose.position
        with self._lock:
            p.x, p.y, p.z = (float(v) for v in xyz)
        if now:  # a tracker following a moving object publishes as it moves
            self._tick()

    def _tick(self):
        with self._lock:
            stamp = self.msg.header.stamp
            stamp.sec, stamp.nanosec = divmod(self.node.get_clock().now().nanoseconds,
                                              1_000_000_000)
            self._pub.publish(self.msg)
        self.published.set()

    def shift(self, dy, tilt_deg=0.0):
        """Move it ``dy`` along y and tip it about x; return once that was published."""
        import math
        half = math.radians(tilt_deg) / 2
        x, y, z = self.xyz
        self.move_to((x, y + dy, z))
        o = self.msg.pose.orientation
        with self._lock:
            o.w, o.x = math.cos(half), math.sin(half)
        self.published.clear()
        assert self.published.wait(5.0), 'the pose publisher stopped'


class TableWorld:
    """
    What the hand does to the objects and the table, driven by the fakes' arm and gripper.

    ``tip(q)`` is the TCP position for joints ``q`` of ``arm`` (the fake's FakeArm);
    ``sizes`` the catalog's size
    per object (``size_m``); ``poses`` the :class:`ObjectPose` per object; ``pub``
    the SensorPublisher whose wrist force the table pushes back on;
    ``tip_past_tcp_m``: how far the fingertips reach below the TCP.
    """

    def __init__(self, tip, arm, sizes, poses, pub, tip_past_tcp_m):
        """Start with nothing held and the hand above the table; follow ``arm``."""
        self.tip, self.arm, self.sizes, self.poses, self.pub = tip, arm, sizes, poses, pub
        self.tip_past_tcp_m = tip_past_tcp_m
        self.held, self.offset = None, (0.0, 0.0, 0.0)
        arm.on_move = self.on_move

    def on_move(self, q):
        """Carry the held object with the arm now at ``q``; press on the table."""
        tip = self.tip(q)
        if self.held is not None:
            self.poses[self.held].move_to(np.add(tip, self.offset), now=True)
            lowest = tip[2] + self.offset[2] - self.sizes[self.held][2] / 2
        else:
            lowest = tip[2] - self.tip_past_tcp_m
        pressed = max(0.0, -lowest)
        self.pub.force = (0.0, 0.0, BASE_FORCE_N + TABLE_STIFFNESS_N_PER_M * pressed)

    def on_gripper_goal(self, command, open_position):
        """Take hold of the object at the TCP on a closing goal; let it go on an opening one."""
        tip = self.tip(self.arm.positions)
        if command.position < open_position - 1e-6:
            near = [n for n, p in self.poses.items()
                    if np.linalg.norm(np.subtract(p.xyz, tip)) < GRASP_REACH_M]
            if near:
                self.held = near[0]
                self.offset = tuple(np.subtract(self.poses[self.held].xyz, tip))
            return
        if self.held is not None:  # it comes to rest on the table, upright
            x, y, _ = self.poses[self.held].xyz
            self.poses[self.held].move_to((x, y, self.sizes[self.held][2] / 2), now=True)
            self.held = None
            self.pub.force = (0.0, 0.0, BASE_FORCE_N)


async def until_seen(client):
    """Wait until list_objects serves every object's pose (the first messages arrived)."""
    while True:
        r = await client.call_tool('list_objects', {})
        if all('pose' in o for o in r.structured_content['objects']):
            return
        await anyio.sleep(0.05)  # no pose message arrived yet: ask again
