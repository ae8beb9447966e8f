"""
Fakes of move_group and a ros2_control arm that behave as the real servers do.

Each behaviour that matters to the bridge is reproduced from MoveIt 2 Jazzy's
source, cited where it is implemented, so the tests prove the bridge copes
with the real system rather than with a friendlier one. The arm publishes its
joint positions and velocities through the test's :class:`SensorPublisher`.
"""

import math
import threading
import time

import numpy as np
from transforms3d.euler import euler2mat
from transforms3d.quaternions import mat2quat

STEP_S = 0.004
SUCCESS, PREEMPTED, INVALID_GROUP_NAME, INVALID_LINK_NAME = 1, -7, -15, -18
CONTROL_FAILED = -4
ALLOWED_START_TOLERANCE = 0.01  # rad, trajectory_execution_manager.cpp's default
H = math.pi / 2
# moveit_resources_panda_description: (link, parent joint origin xyz, rpy, revolute about z?)
CHAIN = [('panda_link1', (0, 0, 0.333), (0, 0, 0), True),
         ('panda_link2', (0, 0, 0), (-H, 0, 0), True),
         ('panda_link3', (0, -0.316, 0), (H, 0, 0), True),
         ('panda_link4', (0.0825, 0, 0), (H, 0, 0), True),
         ('panda_link5', (-0.0825, 0.384, 0), (-H, 0, 0), True),
         ('panda_link6', (0, 0, 0), (H, 0, 0), True),
         ('panda_link7', (0.088, 0, 0), (H, 0, 0), True),
         ('panda_link8', (0, 0, 0.107), (0, 0, 0), False),
         ('panda_hand', (0, 0, 0), (0, 0, -math.pi / 4), False)]
LINKS = ['panda_link0'] + [c[0] for c in CHAIN]  # no panda_hand_tcp: it is not a link


def fk(q, link):
    """Return (position, quaternion wxyz) of ``link`` in panda_link0, or None if unknown."""
    if link not in LINKS:
        return None
    T = np.eye(4)
    joints = iter(q)
    for name, xyz, rpy, revolute in CHAIN:
        if link == LINKS[0]:
            break
        step = np.eye(4)
        step[:3, :3] = euler2mat(*rpy)
        step[:3, 3] = xyz
        if revolute:
            step = step @ np.block([[euler2mat(0, 0, next(joints)), np.zeros((3, 1))],
                                    [np.zeros((1, 3)), np.ones((1, 1))]])
        T = T @ step
        if name == link:
            break
    return tuple(T[:3, 3]), tuple(mat2quat(T[:3, :3]))


def panda_urdf():
    """Return the URDF of the chain above, as robot_state_publisher would publish it."""
    joints, k = [], 0
    for (child, xyz, rpy, revolute), parent in zip(CHAIN, LINKS):
        origin = (f'<origin xyz="{" ".join(map(repr, map(float, xyz)))}" '
                  f'rpy="{" ".join(map(repr, map(float, rpy)))}"/>')
        if revolute:
            k += 1
            joints.append(f'<joint name="panda_joint{k}" type="revolute"><parent link="{parent}"/>'
                          f'<child link="{child}"/>{origin}<axis xyz="0 0 1"/>'
                          '<limit lower="-3.1" upper="3.8" velocity="2.6" effort="87"/></joint>')
        else:
            joints.append(f'<joint name="{child}_joint" type="fixed"><parent link="{parent}"/>'
                          f'<child link="{child}"/>{origin}</joint>')
    links = ''.join(f'<link name="{name}"/>' for name in LINKS)
    return f'<robot name="panda">{links}{"".join(joints)}</robot>'


class PandaKinematics:
    """The Panda chain above: its links (the first is the planning frame), FK and URDF."""

    links = LINKS
    urdf = staticmethod(panda_urdf)

    @staticmethod
    def fk(q, link):
        """Return (position, quaternion wxyz) of ``link``, or None if unknown."""
        return fk(q, link)


class UrdfKinematics:
    """Any serial arm's FK from its URDF joints' origins and axes, below ``base``."""

    def __init__(self, urdf, base, joint_names):
        """Take a parsed URDF (mcp_ros_bridge.catalog.description), its base link, arm joints."""
        self._urdf, self._base, self._names = urdf, base, list(joint_names)
        self.links = [base] + [link for link in urdf.links if link != base
                               and self._below(link)]

    def _below(self, link):
        try:
            self._urdf.chain(self._base, link)
        except Exception:  # noqa: BLE001 - DescriptionError: not below the base
            return False
        return True

    def fk(self, q, link):
        """Return (position, quaternion wxyz) of ``link`` in the base, or None if unknown."""
        from transforms3d.axangles import axangle2mat
        if link not in self.links:
            return None
        values = dict(zip(self._names, q))
        T = np.eye(4)
        for joint in self._urdf.chain(self._base, link):
            step = np.eye(4)
            step[:3, :3] = euler2mat(*joint.origin_rpy, 'sxyz')
            step[:3, 3] = joint.origin_xyz
            move = np.eye(4)
            value = values.get(joint.name, 0.0)
            if joint.kind == 'prismatic':
                move[:3, 3] = np.multiply(joint.axis, value)
            elif joint.kind in ('revolute', 'continuous'):
                move[:3, :3] = axangle2mat(joint.axis, value)
            T = T @ step @ move
        return tuple(T[:3, 3]), tuple(mat2quat(T[:3, :3]))


class FakeArm:
    """Joint positions that follow trajectories; published by a SensorPublisher."""

    def __init__(self, pub, arm_joints):
        """Drive ``pub.joint_msg`` for the arm joints."""
        self.pub, self.n = pub, len(arm_joints)
        self.pub.joint_msg.velocity = [0.0] * len(self.pub.joint_msg.name)
        self.on_move = None  # called with the joints at every step (the test's world model)

    @property
    def positions(self):
        """Return the arm joint positions now."""
        return list(self.pub.joint_msg.position[:self.n])

    def _set(self, q, v):
        msg = self.pub.joint_msg
        msg.position = list(q) + list(msg.position[self.n:])
        msg.velocity = list(v) + [0.0] * (len(msg.name) - self.n)
        if self.on_move is not None:
            self.on_move(list(q))

    def run(self, points, should_stop):
        """
        Follow ``[(t, q), ...]`` in real time; return False when ``should_stop`` said so.

        The trajectory's time is the wall clock's, as a controller's is: a busy
        machine makes the steps coarser, not the motion longer.
        """
        times = [t for t, _ in points]
        rows = np.array([q for _, q in points], dtype=float)
        clock = threading.Event()
        t, t0 = 0.0, time.monotonic()
        while t < times[-1]:
            if should_stop():
                self._set(self.positions, [0.0] * self.n)  # the controller holds position
                self.settle()
                return False
            i = min(np.searchsorted(times, t, side='right'), len(times) - 1)
            span = max(times[i] - times[i - 1], 1e-9)
            velocity = (rows[i] - rows[i - 1]) / span
            self._set(rows[i - 1] + velocity * (t - times[i - 1]), velocity)
            clock.wait(STEP_S)
            t = time.monotonic() - t0
        self._set(rows[-1], [0.0] * self.n)
        self.settle()
        return True

    def settle(self):
        """Return once /joint_states carried the current state twice (as a driver would)."""
        seen = self.pub.published['joints']
        clock = threading.Event()
        for _ in range(250):  # at most ~1 s: the publisher may be stopping
            if self.pub.published['joints'] >= seen + 2:
                return
            clock.wait(STEP_S)


def trajectory_msg(joint_names, points):
    """Return a moveit_msgs/RobotTrajectory for ``[(t, q), ...]``."""
    from moveit_msgs.msg import RobotTrajectory
    from trajectory_msgs.msg import JointTrajectoryPoint
    traj = RobotTrajectory()
    traj.joint_trajectory.joint_names = list(joint_names)
    for t, q in points:
        point = JointTrajectoryPoint(positions=[float(v) for v in q])
        point.time_from_start.sec, frac = int(t), t - int(t)
        point.time_from_start.nanosec = round(frac * 1e9)
        traj.joint_trajectory.points.append(point)
    return traj


def points_of(traj):
    """Return ``[(t, q), ...]`` of a moveit_msgs/RobotTrajectory."""
    return [(p.time_from_start.sec + p.time_from_start.nanosec * 1e-9, list(p.positions))
            for p in traj.joint_trajectory.points]


def straight(q0, q1, duration_s, samples=20):
    """Return a joint-space line from q0 to q1 as ``[(t, q), ...]``."""
    q0, q1 = np.asarray(q0, float), np.asarray(q1, float)
    return [(duration_s * k / samples, q0 + (q1 - q0) * k / samples)
            for k in range(samples + 1)]


class ExecutionEvents:
    """move_group's /trajectory_execution_event: "stop" stops the running execution."""

    def __init__(self, peer, topic):
        """Subscribe on ``peer`` (trajectory_execution_manager.cpp: receiveEvent)."""
        from std_msgs.msg import String
        self.stop = threading.Event()
        self.received = []
        self._sub = peer.node.create_subscription(String, topic, self._on_event, 10)

    def _on_event(self, msg):
        self.received.append(msg.data)
        if msg.data == 'stop':
            self.stop.set()
