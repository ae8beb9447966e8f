"""
Helpers for the real-rclpy tests: an isolated DDS domain and a peer node.

Importing this module pins discovery to localhost and picks a domain id from
the process id (unless ``ROS_DOMAIN_ID`` is already set), before any context
is initialised. :class:`Peer` is the test's side of the graph (publishers,
action and service servers) in its own private context and executor thread.
"""

import os
import threading

os.environ.setdefault('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')
os.environ.setdefault('ROS_DOMAIN_ID', str(10 + os.getpid() % 150))

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def declared(form, **data):
    """Return a ``ros_topic``/``ros_service``/``ros_action`` binding as the catalog builds it."""
    from mcp_ros_bridge.catalog.bindings import build_binding
    from mcp_ros_bridge.catalog.defaults import fill_defaults
    from mcp_ros_bridge.catalog.schemas import BINDING_SCHEMAS
    return build_binding(form, fill_defaults(BINDING_SCHEMAS[form], data))


def robot_config(max_age_s=None, **ros_overrides):
    """Return the shipped robot config with a short max age and unique topic names."""
    from mcp_ros_bridge.catalog.robot import RobotConfig
    return RobotConfig.from_dict(robot_yaml(max_age_s, **ros_overrides))


def config_dir(path, max_age_s=None, **ros_overrides):
    """Write the shipped config with :func:`robot_config` changes to ``path``; return both."""
    import shutil
    import yaml
    from mcp_ros_bridge.catalog.robot import RobotConfig
    shutil.copy(os.path.join(REPO, 'config', 'tools.yaml'), path)
    raw = robot_yaml(max_age_s, **ros_overrides)
    with open(os.path.join(path, 'robot.yaml'), 'w', encoding='utf-8') as f:
        yaml.safe_dump(raw, f)
    return str(path), RobotConfig.from_dict(raw)


def robot_yaml(max_age_s=None, **ros_overrides):
    """Return the shipped robot.yaml as a dict, with a short max age and unique topics."""
    import yaml
    with open(os.path.join(REPO, 'config', 'robot.yaml'), encoding='utf-8') as f:
        raw = yaml.safe_load(f)
    tag = f'{os.getpid()}_{next(_COUNTER)}'
    # the shipped bound unless a test asks for another: a loaded machine stalls a stream 0.2 s
    raw['limits']['sensor_max_age_s'] = (shipped_limit('sensor_max_age_s') if max_age_s is None
                                         else max_age_s)
    raw['ros']['topics']['joint_states']['name'] = f'/t{tag}/joint_states'
    raw['ros']['topics']['wrench']['name'] = f'/t{tag}/wrench'
    if os.environ.get('MCP_ROS_TEST_EXECUTOR'):  # run the ROS suite on another executor
        raw['ros']['executor'] = os.environ['MCP_ROS_TEST_EXECUTOR']
    raw['ros'].update(ros_overrides)
    return raw


def shipped_limit(name):
    """Return ``limits.<name>`` of the shipped robot.yaml (e.g. its ``sensor_max_age_s``)."""
    import yaml
    with open(os.path.join(REPO, 'config', 'robot.yaml'), encoding='utf-8') as f:
        return yaml.safe_load(f)['limits'][name]


def _counter():
    n = 0
    while True:
        n += 1
        yield n


_COUNTER = _counter()


class Peer:
    """A node in its own context, spun on a background thread (the test's side)."""

    def __init__(self, name='peer'):
        """Start the context, node and a multi-threaded executor, as the product does."""
        from mcp_ros_bridge.backends.ros.runtime import RosRuntime
        self.runtime = RosRuntime(name, executor='multi', num_threads=4)
        self.node = self.runtime.start()
        self.context = self.runtime.context
        self.before_close = []  # stop helpers, release blocked callbacks (while spinning)
        self.after_spin = []  # destroy servers (once no callback can use them)

    def close(self):
        """Stop helpers, then the executor and its thread, the servers, the node, the context."""
        for stop in self.before_close:
            stop()
        self.runtime.stop_spinning()
        for destroy in self.after_spin:
            destroy()
        self.runtime.shutdown()


NUMBER_SCALE = 1e-3  # a numbered wrench's torque.x per message index (Nm)


def number_of(row):
    """Return the message index a numbered wrench row carries in torque.x."""
    return round(row[3] / NUMBER_SCALE)


class SensorPublisher:
    """
    Publishes WrenchStamped (1 kHz) and JointState (500 Hz) from a paced thread.

    A dedicated thread keeps the rates that executor timers in Python cannot;
    it paces itself on an event that is only set to stop it.
    """

    def __init__(self, peer, config, wrench_hz=1000.0, joints_hz=500.0, force=(0.0, 0.0, 5.0),
                 stamp_offset_s=0.0, numbered=False, now_ns=None):
        """
        Create the publishers on ``peer`` and start publishing.

        ``numbered``: torque.x carries the wrench message's index in thousandths
        (0, 0.001, ...: :func:`number_of` reads it back, within the sensor's
        rated range), so a receiver can count what it lost. ``now_ns()`` gives the stamps
        (default: the peer's clock).
        """
        from geometry_msgs.msg import WrenchStamped
        from rclpy.qos import qos_profile_sensor_data
        from sensor_msgs.msg import JointState
        node = peer.node
        self.force, self.numbered = force, numbered
        self.offset_ns = int(stamp_offset_s * 1e9)
        topics = config.ros.topics
        self.wrench_pub = node.create_publisher(WrenchStamped, topics['wrench'].name,
                                                qos_profile_sensor_data)
        self.joint_pub = node.create_publisher(JointState, topics['joint_states'].name,
                                               qos_profile_sensor_data)
        self.wrench_msg, self.joint_msg = WrenchStamped(), JointState()
        self.wrench_msg.header.frame_id = config.ft_frame
        self.joint_msg.name = list(config.arm_joints) + list(config.gripper_joints)
        self.joint_msg.position = list(config.home) + [0.02] * len(config.gripper_joints)
        self.published = {'wrench': 0, 'joints': 0}
        self._now_ns = now_ns or (lambda: node.get_clock().now().nanoseconds)
        self._period = 1.0 / wrench_hz
        self._joint_every = max(1, round(wrench_hz / joints_hz))
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        peer.before_close.append(self.stop)

    def _stamp(self, header):
        now = self._now_ns() - self.offset_ns
        header.stamp.sec, header.stamp.nanosec = divmod(now, 1_000_000_000)

    def _run(self):
        import time
        next_t = time.monotonic()
        tick = 0
        while not self._stopped.is_set():
            self._stamp(self.wrench_msg.header)
            f = self.wrench_msg.wrench.force
            f.x, f.y, f.z = self.force
            if self.numbered:
                self.wrench_msg.wrench.torque.x = tick * NUMBER_SCALE
            self.wrench_pub.publish(self.wrench_msg)
            self.published['wrench'] += 1
            if tick % self._joint_every == 0:
                self._stamp(self.joint_msg.header)
                self.joint_pub.publish(self.joint_msg)
                self.published['joints'] += 1
            tick += 1
            next_t += self._period
            self._stopped.wait(max(0.0, next_t - time.monotonic()))

    def stop(self):
        """Stop publishing (the topics go silent) and join the thread."""
        self._stopped.set()
        self._thread.join(timeout=2.0)


def wait_until(condition, timeout_s):
    """Poll ``condition`` (from a non-async thread) until it holds; fail after ``timeout_s``."""
    import time
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, f'not true within {timeout_s} s'
        threading.Event().wait(0.002)


class SimClock:
    """
    Publishes ``/clock`` as Gazebo does: simulation time from ``start_s``, at ``rtf`` x real time.

    ``now_ns()`` is the simulation time to stamp sensor messages with.
    """

    def __init__(self, peer, start_s=100.0, rtf=0.5, hz=250.0):
        """Create the /clock publisher on ``peer`` and start publishing."""
        import time
        from rclpy.qos import QoSProfile
        from rosgraph_msgs.msg import Clock
        self._start_ns, self._rtf = int(start_s * 1e9), rtf
        self._t0 = time.monotonic()
        self._pub = peer.node.create_publisher(Clock, '/clock', QoSProfile(depth=10))
        self._msg, self._period = Clock(), 1.0 / hz
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        peer.before_close.append(self.stop)

    def now_ns(self):
        """Return the current simulation time in nanoseconds."""
        import time
        return self._start_ns + int((time.monotonic() - self._t0) * self._rtf * 1e9)

    def _run(self):
        while not self._stopped.is_set():
            self._msg.clock.sec, self._msg.clock.nanosec = divmod(self.now_ns(), 1_000_000_000)
            self._pub.publish(self._msg)
            self._stopped.wait(self._period)

    def stop(self):
        """Stop publishing /clock (simulation paused or gone) and join the thread."""
        self._stopped.set()
        self._thread.join(timeout=2.0)


def import_moveit_rig():
    """
    Import the typed MoveIt test rig, or skip where the generated types are missing.

    In CI (``CI=true``) the generated types must be there: a missing build fails
    instead of skipping.
    """
    import importlib
    import pytest
    if os.environ.get('CI') == 'true':
        return importlib.import_module('moveit_rig')
    return pytest.importorskip('moveit_rig',
                               reason='moveit_msgs is not built: run .ci/build_ros_interfaces')


async def call_tool_once(catalog, backend, mode, tool, args):
    """Serve ``catalog`` on ``backend``, make one MCP call in ``mode``; return its result."""
    from mcp import Client
    from mcp_ros_bridge.server.bridge import BridgeServer
    from mcp_ros_bridge.server.calls import CallSettings
    bridge = BridgeServer(catalog, backend, CallSettings(motion_rate_per_s=1000.0,
                                                         motion_burst=1000))
    try:
        async with Client(bridge.server, mode=mode) as client:
            return await client.call_tool(tool, args)
    finally:
        bridge.close()


def result_text(result):
    """Join the text blocks of a tool result."""
    return '\n'.join(c.text for c in result.content if c.type == 'text')
