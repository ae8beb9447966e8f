"""
Kill the bridge mid-motion and time how long the arm goes on: the kit of the test and the bench.

The bridge is ``mcp-ros-bridge serve --backend ros`` over stdio in a subprocess;
move_group and the arm are the fakes (fake_move_group.py) in this process, over
real DDS. The arm is watched on /joint_states as any ROS tool would: it is
still once every arm joint reports under 0.01 rad/s for ``STILL_FOR_S``.
"""

import itertools
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time

import fake_move_group
import moveit_rig
from rclpy.qos import qos_profile_sensor_data
import ros_support
from sensor_msgs.msg import JointState
import yaml

STILL_RAD_S = 0.01
STILL_FOR_S = 0.5   # longer than any seam's rest between two segments
WAIT_S = 60.0       # bounds that catch a hang, not a loaded machine
TARGET = [0.6, -0.2, 0.3, -1.8, 0.2, 1.9, 1.1]


class JointWatch:
    """Records (receipt time, fastest arm joint speed) of every /joint_states message."""

    def __init__(self, peer, config):
        """Subscribe on ``peer``."""
        self.n, self.samples = len(config.arm_joints), []
        self._sub = peer.node.create_subscription(
            JointState, config.ros.topics['joint_states'].name, self._on, qos_profile_sensor_data)

    def _on(self, msg):
        self.samples.append((time.monotonic(), max(abs(v) for v in msg.velocity[:self.n])))

    def still_since(self, after):
        """Return when the arm became still for good after ``after`` (None: not yet)."""
        start = None
        for when, speed in list(self.samples):
            if when < after:
                continue
            if speed >= STILL_RAD_S:
                start = None
            elif start is None:
                start = when
        newest = self.samples[-1][0] if self.samples else 0.0
        return start if start is not None and newest - start >= STILL_FOR_S else None


def write_config(directory, horizon_s):
    """Write tools.yaml and a robot.yaml with the fakes' names; return (dir, RobotConfig)."""
    import shutil
    from mcp_ros_bridge.catalog.robot import RobotConfig
    # The fakes answer compute_fk from this busy test process: give each request time (the
    # test is about the bridge dying, not about FK latency).
    raw = moveit_rig.tagged_yaml(moveit_rig.new_tag(), execution_horizon_s=horizon_s,
                                 fk_timeout_s=10.0)
    # This process publishes 1 kHz sensors and answers every fake at once: a busy machine
    # delays them past a second at times (the test is about the horizon, not sensor ages).
    raw['limits']['sensor_max_age_s'] = 3.0
    shutil.copy(os.path.join(ros_support.REPO, 'config', 'tools.yaml'), directory)
    with open(os.path.join(directory, 'robot.yaml'), 'w', encoding='utf-8') as f:
        yaml.safe_dump(raw, f)
    return str(directory), RobotConfig.from_dict(raw)


class Bridge:
    """The bridge over stdio in a subprocess; JSON-RPC lines in and out."""

    def __init__(self, config_dir):
        """Start ``serve --backend ros`` on ``config_dir`` (its log in ``bridge.log`` there)."""
        env = dict(os.environ, PYTHONPATH=ros_support.REPO)
        self.log_path = os.path.join(config_dir, 'bridge.log')
        with open(self.log_path, 'w', encoding='utf-8') as log:
            self.proc = subprocess.Popen(
                [sys.executable, '-m', 'mcp_ros_bridge.cli', 'serve', '--backend', 'ros',
                 '--config', config_dir, '--no-watch'],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
                env=env, cwd=ros_support.REPO, text=True)
        self._lines = None

    def log(self):
        """Return what the bridge wrote on standard error."""
        with open(self.log_path, encoding='utf-8') as f:
            return f.read()

    def send(self, message):
        """Write one JSON-RPC message."""
        self.proc.stdin.write(json.dumps(message) + '\n')
        self.proc.stdin.flush()

    def answer(self, timeout_s=WAIT_S):
        """Return the next JSON-RPC message that answers a request (None: none within bound)."""
        if self._lines is None:
            self._lines = queue.Queue()
            threading.Thread(target=lambda: [self._lines.put(line) for line in self.proc.stdout],
                             daemon=True).start()
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                return None
            message = json.loads(line)
            if 'id' in message:
                return message

    def until_moveit_answers(self):
        """Read the tip pose (compute_fk) until it answers: discovery is done (bounded)."""
        deadline = time.monotonic() + WAIT_S
        for call_id in itertools.count(100):
            self.send({'jsonrpc': '2.0', 'id': call_id, 'method': 'tools/call',
                       'params': {'name': 'get_end_effector_pose', 'arguments': {}}})
            answer = self.answer()
            assert answer is not None, self.log()
            if not answer['result'].get('isError'):
                return
            assert time.monotonic() < deadline, f'compute_fk never answered: {answer}'

    def kill(self):
        """SIGKILL the bridge: nothing of it runs any more (no cleanup, no stop)."""
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=WAIT_S)


def kill_mid_motion(directory, horizon_s, duration_s=6.0, fraction=0.15):
    """
    Start a ``duration_s`` joint motion, SIGKILL the bridge once ``fraction`` of it is done.

    Return a dict: kill_to_still_s (from the kill to a still arm on /joint_states),
    moved_before_kill_s, the number of ExecuteTrajectory goals handed over and the
    fraction of the motion covered when the arm came to rest.
    """
    config_dir, config = write_config(directory, horizon_s)
    peer = ros_support.Peer('death_peer')
    watcher = ros_support.Peer('death_watch')  # its own executor: move_group's is not slowed
    bridge = None
    try:
        pub = ros_support.SensorPublisher(peer, config)
        fake = fake_move_group.FakeMoveGroup(peer, config, pub)
        fake.duration_s = duration_s
        watch = JointWatch(watcher, config)
        bridge = Bridge(config_dir)
        bridge.send({'jsonrpc': '2.0', 'id': 1, 'method': 'initialize', 'params': {
            'protocolVersion': '2025-11-25', 'capabilities': {},
            'clientInfo': {'name': 'death', 'version': '0'}}})
        first = bridge.answer()
        assert first is not None and 'result' in first, bridge.log()
        bridge.send({'jsonrpc': '2.0', 'method': 'notifications/initialized'})
        bridge.until_moveit_answers()
        deadline, tries = time.monotonic() + WAIT_S, 0
        while not fake.executing.is_set():
            tries += 1
            bridge.send({'jsonrpc': '2.0', 'id': 10 + tries, 'method': 'tools/call', 'params': {
                'name': 'move_arm_joints', 'arguments': {'positions': TARGET}}})
            ended = None
            while ended is None and not fake.executing.wait(0.01):
                ended = bridge.answer(timeout_s=0.0)
                assert time.monotonic() < deadline, 'the motion never started'
            # A busy machine may delay a compute_fk answer past the bridge's 2 s bound while
            # the plan is checked: nothing moved, so that call is made again (twice at most).
            lost_fk = ended is not None and 'compute_fk did not answer' in json.dumps(ended)
            assert ended is None or (lost_fk and tries < 3), (
                f'the motion never started: answer {ended}; bridge log:\n{bridge.log()}')
        began, start = time.monotonic(), list(config.home)
        far = max(abs(b - a) for a, b in zip(start, TARGET))
        pause = threading.Event()
        while max(abs(q - a) for q, a in zip(fake.arm.positions, start)) < fraction * far:
            assert bridge.proc.poll() is None, 'the bridge ended by itself'
            ended = bridge.answer(timeout_s=0.0)
            assert time.monotonic() - began < WAIT_S and not fake.refused and ended is None, (
                f'the arm does not get on: refused {[w for w, _ in fake.refused]}; '
                f'{len(fake.executions)} goals; answer {ended}; bridge log:\n{bridge.log()}')
            pause.wait(0.005)  # the arm moves meanwhile
        killed = time.monotonic()
        bridge.kill()
        deadline = killed + WAIT_S
        while watch.still_since(killed) is None:
            assert time.monotonic() < deadline, 'the arm never came to rest'
            pause.wait(0.02)
        covered = max(abs(q - a) for q, a in zip(fake.arm.positions, start)) / far
        return {'kill_to_still_s': watch.still_since(killed) - killed, 'tries': tries,
                'moved_before_kill_s': killed - began, 'goals': len(fake.executions),
                'refused': len(fake.refused), 'covered_at_rest': covered}
    finally:
        if bridge is not None:
            bridge.kill()
        watcher.close()
        peer.close()
