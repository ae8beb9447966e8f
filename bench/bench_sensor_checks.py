"""
What validating every sensor sample costs, and what per-joint caching saves, side by side.

In one process, without DDS: serialized WrenchStamped and JointState messages
(9 joints) go through the caches' ``on_raw`` as the drain thread hands them over.

1. Ingest, CPU per message: the wrench buffer with values only vs. with the full
   checks (node clock, max age, rating); the joint cache parsing and validating
   on arrival vs. the earlier design that filed the bytes under their name set.
2. A joint-state read (what stop polls) after N different name sets: the earlier
   design (newest message per name set, all parsed on every read) vs. the
   per-joint cache (bounded names), and how many entries each keeps.

Usage: python bench/bench_sensor_checks.py [--messages 20000] [--name-sets 20000]
       python bench/bench_sensor_checks.py --smoke    (seconds; asserts it ran)
"""

import argparse
import os
import statistics
import sys
import time

from smoke import add_flag, check, done

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

ARM = tuple(f'panda_joint{i}' for i in range(1, 8)) + ('panda_finger_joint1',
                                                       'panda_finger_joint2')


def serialized(stamp_s, names=ARM):
    """Return (wrench bytes, joint-state bytes) stamped at ``stamp_s``."""
    from geometry_msgs.msg import WrenchStamped
    from rclpy.serialization import serialize_message
    from sensor_msgs.msg import JointState
    sec, nsec = int(stamp_s), int((stamp_s % 1) * 1e9)
    w = WrenchStamped()
    w.header.stamp.sec, w.header.stamp.nanosec, w.header.frame_id = sec, nsec, 'ft'
    w.wrench.force.z = 5.0
    js = JointState(name=list(names), position=[0.1] * len(names),
                    velocity=[0.0] * len(names))
    js.header.stamp.sec, js.header.stamp.nanosec = sec, nsec
    return serialize_message(w), serialize_message(js)


def per_message_us(sink, data, count):
    """Return the thread CPU time per call of ``sink(data)`` in microseconds."""
    t0 = time.thread_time()
    for _ in range(count):
        sink(data)
    return 1e6 * (time.thread_time() - t0) / count


class EarlierJointCache:
    """The earlier design: the newest message bytes per name set, all parsed on each read."""

    def __init__(self):
        """Start empty."""
        self.latest = {}

    def on_raw(self, data):
        """File the bytes under their names (parsed only when read)."""
        from mcp_ros_bridge.backends.ros.cdr import joint_names
        self.latest[joint_names(data)] = (data, time.monotonic())

    def read(self):
        """Parse every kept message and merge them per joint."""
        from mcp_ros_bridge.backends.ros.cdr import parse_joint_state
        values = {}
        for data, received in list(self.latest.values()):
            stamp, names, pos, vel, eff = parse_joint_state(data)
            for i, name in enumerate(names):
                values[name] = (pos[i], vel[i] if vel else 0.0, eff[i] if eff else 0.0,
                                stamp, received)
        return values


def read_us(read, count=50):
    """Return the median wall time of ``read()`` in microseconds."""
    times = []
    for _ in range(count):
        t0 = time.perf_counter()
        read()
        times.append(1e6 * (time.perf_counter() - t0))
    return statistics.median(times)


def main(argv=None):
    """Print both tables; with ``--smoke`` run small and assert the figures are there."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument('--messages', type=int, default=20000)
    parser.add_argument('--name-sets', type=int, default=20000)
    add_flag(parser)
    args = parser.parse_args(argv)
    if args.smoke:
        args.messages, args.name_sets = 500, 300
    from mcp_ros_bridge.backends.ros.joint_cache import JointStateCache
    from mcp_ros_bridge.backends.ros.sensors import Checks, WrenchBuffer
    from rclpy.clock import Clock, ClockType
    clock = Clock(clock_type=ClockType.ROS_TIME)  # the node clock's type, as parts.py reads it
    now = time.time()
    full = Checks(lambda: clock.now().nanoseconds * 1e-9, 5.0, 1000.0, 100.0)
    wrench, joints = serialized(now)
    rows = {
        'wrench, values only': per_message_us(WrenchBuffer('/w').on_raw, wrench, args.messages),
        'wrench, full checks': per_message_us(WrenchBuffer('/w', checks=full).on_raw, wrench,
                                              args.messages),
        'joints, earlier (file bytes)': per_message_us(EarlierJointCache().on_raw, joints,
                                                       args.messages),
        'joints, parse + check + store': per_message_us(
            JointStateCache('/j', ARM, full).on_raw, joints, args.messages),
    }
    print(f'ingest, CPU per message ({args.messages} messages)')
    for label, us in rows.items():
        print(f'  {label:32s} {us:7.2f} us')
    earlier, cache = EarlierJointCache(), JointStateCache('/j', ARM, full)
    print('joint-state read after N other name sets (median of 50 reads)')
    figures, added = [], 0
    for n in sorted({0, args.name_sets // 20, args.name_sets}):
        for i in range(added, n):
            _, other = serialized(now, (f'other_{i}',))
            earlier.on_raw(other)
            cache.on_raw(other)
        added = n
        earlier.on_raw(joints)
        cache.on_raw(joints)
        old_us = read_us(earlier.read)
        new_us = read_us(lambda: cache.read(ARM, time.time(), 5.0))
        figures.append((n, old_us, new_us))
        print(f'  N={n:6d}  earlier {old_us:9.1f} us ({len(earlier.latest)} messages kept)'
              f'   per joint {new_us:7.1f} us ({len(cache._joints)} joints kept)'
              f'   ratio {old_us / new_us:6.1f}x')
    if args.smoke:
        check(ingest=list(rows.values()), reads=[us for f in figures for us in f[1:]])
        assert len(figures) == 3
        assert figures[-1][1] > figures[0][1]  # the earlier design grows with name sets
        done()


if __name__ == '__main__':
    main()
