"""
Latency of a read-only tool call on the ROS backend versus the simulation backend.

Usage: ``python3 bench/bench_read_call.py [--calls 2000] [--warmup 200] [--smoke]``
(smoke: 30 calls). Times ``get_joint_states`` through the in-memory MCP client
(both protocol modes) on the bridge over a real ``RosBackend``, fed by a
JointState publisher at 500 Hz in a separate process on its own topics, and on
the bridge over the MuJoCo ``SimBackend``, in one run, the two taking turns call
by call. Prints p50 and p99 of each and the ROS/sim ratio. Every call must
succeed: a stale read aborts the run.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import sys
import threading
import time
from typing import Any

import anyio
from smoke import add_flag, check, done

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path[:0] = [REPO, os.path.join(REPO, 'test'), os.path.join(REPO, 'test', 'ros'), HERE]
MODES = ('legacy', '2026-07-28')
TOOL = 'get_joint_states'


def publish_joint_states(raw: dict[str, Any], hz: float, ready: Any, stop: Any) -> None:
    """Publish JointState at ``hz`` until ``stop`` is set (runs in a child process)."""
    from mcp_ros_bridge.catalog.robot import RobotConfig
    from rclpy.qos import qos_profile_sensor_data
    import ros_support
    from sensor_msgs.msg import JointState
    config = RobotConfig.from_dict(raw)  # the config's read-only maps do not pickle: its source
    peer = ros_support.Peer('bench_joint_publisher')
    topic = config.ros.topics['joint_states'].name
    pub = peer.node.create_publisher(JointState, topic, qos_profile_sensor_data)
    msg = JointState(name=list(config.arm_joints) + list(config.gripper_joints),
                     position=list(config.home) + [0.02, 0.02])
    clock, period, next_t = peer.node.get_clock(), 1.0 / hz, time.monotonic()
    paced = threading.Event()  # never set: wait() paces the loop with a bounded timeout
    ready.set()
    while not stop.is_set():
        now = clock.now().nanoseconds
        msg.header.stamp.sec, msg.header.stamp.nanosec = divmod(now, 1_000_000_000)
        pub.publish(msg)
        next_t += period
        paced.wait(max(0.0, next_t - time.monotonic()))
    peer.close()


async def run(calls: int, warmup: int, hz: float, smoke: bool = False) -> None:
    """Start both backends, measure every mode on each, print the table."""
    from bench_latency import interleaved, pct
    from mcp_ros_bridge.backends.ros import RosBackend
    from mcp_ros_bridge.backends.sim import SimBackend
    from mcp_ros_bridge.capabilities import KINDS
    from mcp_ros_bridge.catalog.loader import load_catalog
    from mcp_ros_bridge.catalog.robot import RobotConfig
    from mcp_ros_bridge.server.bridge import BridgeServer
    from mcp_ros_bridge.server.calls import CallSettings
    import ros_support
    catalog = load_catalog(os.path.join(REPO, 'config'), kinds=KINDS)
    raw = ros_support.robot_yaml(max_age_s=0.5)  # unique topic names
    ros_config = RobotConfig.from_dict(raw)
    spawn = multiprocessing.get_context('spawn')
    ready, stop = spawn.Event(), spawn.Event()
    proc = spawn.Process(target=publish_joint_states, args=(raw, hz, ready, stop))
    proc.start()
    ros = RosBackend(ros_config, node_name='bench_read_call')
    sim = SimBackend(catalog.robot)
    try:
        if not await asyncio.to_thread(ready.wait, 30.0):
            raise RuntimeError('the JointState publisher did not start')
        await ros.start()
        await sim.start()
        if not await asyncio.to_thread(ros.parts.joints.received.wait, 10.0):
            raise RuntimeError('no JointState arrived from the publisher')
        bridges = {name: BridgeServer(catalog, backend, CallSettings())
                   for name, backend in (('ros', ros), ('sim', sim))}
        print(f'{calls} calls of {TOOL} after {warmup} warm-up calls each, '
              f'in-memory client; latency in ms; ROS backend fed by JointState at {hz:.0f} Hz')
        print(f"{'mode':12s} {'ros p50':>8s} {'p99':>7s} {'sim p50':>8s} {'p99':>7s} "
              f"{'ratio p50':>9s} {'p99':>6s}")
        for mode in MODES:
            r, s = await interleaved([(bridges['ros'].server, TOOL),
                                      (bridges['sim'].server, TOOL)], mode, calls, warmup)
            rp50, rp99, sp50, sp99 = pct(r, 50), pct(r, 99), pct(s, 50), pct(s, 99)
            print(f'{mode:12s} {rp50:8.3f} {rp99:7.3f} {sp50:8.3f} {sp99:7.3f} '
                  f'{rp50 / sp50:8.2f}x {rp99 / sp99:5.2f}x', flush=True)
            if smoke:
                check(**{mode: [rp50, rp99, sp50, sp99]})
        for bridge in bridges.values():
            bridge.close()
        if smoke:
            done()
    finally:
        await sim.close()
        await ros.close()
        stop.set()
        await asyncio.to_thread(proc.join, 30.0)


def main() -> int:
    """Parse arguments and run the benchmark."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    p.add_argument('--calls', type=int, default=2000)
    p.add_argument('--warmup', type=int, default=200)
    p.add_argument('--hz', type=float, default=500.0, help='JointState publishing rate')
    add_flag(p)
    args = p.parse_args()
    if args.smoke:
        anyio.run(run, 30, 5, args.hz, True)
    else:
        anyio.run(run, args.calls, args.warmup, args.hz)
    return 0


if __name__ == '__main__':
    sys.exit(main())
