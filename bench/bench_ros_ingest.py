"""
Ingestion benchmark: 1 kHz WrenchStamped + 500 Hz JointState through RosBackend.

A publisher runs in a separate process (so the figures are the bridge's own);
the bridge process runs RosBackend and an asyncio loop that reads the newest
samples. Printed: CPU share of one core used by the bridge process, freshness
lag (receive time - header stamp) p50/p99, received rates and the backlog
(samples published but not yet received) at the start and the end.

Usage: python bench/bench_ros_ingest.py [--seconds 10]
"""

import argparse
import asyncio
import multiprocessing
import os
import statistics
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)
sys.path.insert(0, os.path.join(REPO, 'test', 'ros'))


def publisher(config, seconds, ready, counts):
    """Publish at 1 kHz / 500 Hz for ``seconds`` in this process."""
    import ros_support
    peer = ros_support.Peer('bench_publisher')
    pub = ros_support.SensorPublisher(peer, config)
    ready.set()
    stop = multiprocessing.Event()
    stop.wait(seconds)
    pub.stop()
    counts['wrench'], counts['joints'] = pub.published['wrench'], pub.published['joints']
    peer.close()


def new_lags(buffer, after, offset):
    """Return (lags in ms, newest stamp) of samples stamped after ``after``."""
    with buffer._lock:
        rows = list(buffer._rows)
    lags = [(recv + offset - stamp) * 1e3 for stamp, recv, _ in rows if stamp > after]
    return lags, (rows[-1][0] if rows else after)


async def run(seconds):
    """Run the benchmark and print the figures."""
    import ros_support
    from mcp_ros_bridge.backends.ros import RosBackend
    config = ros_support.robot_config(max_age_s=5.0)
    backend = RosBackend(config, node_name='bench_bridge')
    await backend.start()
    wrench = backend._parts['wrench']
    offset = time.time() - time.monotonic()  # receive times are monotonic, stamps wall-clock
    ctx = multiprocessing.get_context('spawn')
    manager = ctx.Manager()
    counts, ready = manager.dict(), ctx.Event()
    proc = ctx.Process(target=publisher, args=(config, seconds + 1.0, ready, counts))
    proc.start()
    await asyncio.to_thread(ready.wait, 20.0)
    await backend.wait_for_sensors(10.0)
    await asyncio.sleep(0.5)  # warm-up
    _, last = new_lags(wrench, 0.0, offset)
    lags_all = []
    cpu0, wall0 = time.process_time(), time.monotonic()
    reads, read_ages = 0, []
    while time.monotonic() - wall0 < seconds:
        samples = await backend.wrench_samples(1)
        joints = await backend.joint_states()
        read_ages.append(max(samples.age_s, joints.age_s) * 1e3)
        reads += 1
        lags, last = new_lags(wrench, last, offset)
        lags_all.extend(lags)
        await asyncio.sleep(0.01)
    cpu = (time.process_time() - cpu0) / (time.monotonic() - wall0)
    first, final = lags_all[: len(lags_all) // 10], lags_all[-len(lags_all) // 10:]
    lags = sorted(lags_all)
    received = len(lags)
    await asyncio.to_thread(proc.join, 30.0)
    await backend.close()
    print(f'duration            {seconds:.1f} s')
    print(f'bridge CPU          {cpu * 100:.1f} % of one core (goal <= 10 %)')
    print(f'wrench received     {received / seconds:.0f} Hz')
    p50, p99 = lags[len(lags) // 2], lags[min(len(lags) - 1, int(0.99 * len(lags)))]
    print(f'freshness lag       p50 {p50:.2f} ms, p99 {p99:.2f} ms, '
          f'max {lags[-1]:.2f} ms (goal p99 < 5 ms)')
    print(f'backlog growth      lag first 10 % {statistics.mean(first):.2f} ms -> '
          f'last 10 % {statistics.mean(final):.2f} ms')
    print(f'reads               {reads}, age at read p50 {statistics.median(read_ages):.2f} ms')
    print(f'published (total)   wrench {counts.get("wrench")}, joints {counts.get("joints")}')


def main():
    """Parse arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument('--seconds', type=float, default=10.0)
    asyncio.run(run(parser.parse_args().seconds))


if __name__ == '__main__':
    main()
