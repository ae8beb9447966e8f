"""
Ingestion benchmark: 1 kHz WrenchStamped + 500 Hz JointState through RosBackend.

A publisher runs in a separate process (so the figures are the bridge's own);
the bridge process runs RosBackend and an asyncio loop that reads the newest
samples every 10 ms. Printed: CPU share of one core used by the bridge (its
threads and the reads; the bench's own bookkeeping of lags and numbers, timed
apart on its thread, is subtracted and printed beside), CPU time per received
message (less sensitive to other load on the machine), received rates, wrench
messages lost (the publisher numbers them), freshness lag (time the bridge
stored a sample - header stamp) p50/p99, the age of the newest sample at each
read and the backlog (mean lag of the first and last tenth of the run). Unset
options take robot.yaml's values.

Usage: python bench/bench_ros_ingest.py [--seconds 10] [--ingest batched|raw|objects]
           [--executor single|multi|events] [--depth N] [--period MS] [--json]
       python bench/bench_ros_ingest.py --compare [--repeat 3] [--seconds 8]
           (every mode in a fresh process, ``--repeat`` times, interleaved; medians,
           CPU spread and the CPU ratio to the shipped defaults in one table)
       python bench/bench_ros_ingest.py --floor [--seconds 1]
           (the physical floor: CPU per message of ``take`` alone, then take + parse + store)
       python bench/bench_ros_ingest.py --smoke
           (1 s of the shipped defaults and a short floor, figures checked)
"""

import argparse
import asyncio
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import time

from smoke import add_flag, check, done

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)
sys.path.insert(0, os.path.join(REPO, 'test', 'ros'))

MODES = [  # (ingest, executor, QoS depth, drain period ms); the first is the oldest default
    ('objects', 'single', 5, 0), ('raw', 'single', 50, 0), ('raw', 'events', 50, 0),
    ('batched', 'single', 200, 2), ('batched', 'single', 200, 8), (None, None, 0, 0),
]


def publisher(raw, seconds, ready, counts, stop=None):
    """
    Publish at 1 kHz / 500 Hz in this process (``raw``: robot.yaml's dict).

    Until ``stop`` is set (at most ``seconds``), or for ``seconds`` without one.
    """
    from mcp_ros_bridge.catalog.robot import RobotConfig
    import ros_support
    config = RobotConfig.from_dict(raw)  # the config's read-only maps do not pickle: its source
    peer = ros_support.Peer('bench_publisher')
    pub = ros_support.SensorPublisher(peer, config, numbered=True)
    ready.set()
    (stop or multiprocessing.Event()).wait(seconds)
    pub.stop()
    counts['wrench'], counts['joints'] = pub.published['wrench'], pub.published['joints']
    peer.close()


def mode_name(ingest, executor, depth, period):
    """Return the label of a mode; unset parts are robot.yaml's."""
    parts = [ingest, executor, depth and f'depth{depth}', period and f'{period}ms']
    return '/'.join(str(p) for p in parts if p) or DEFAULTS


DEFAULTS = 'robot.yaml defaults'


async def run(seconds, ingest, executor, depth, period):
    """Run the benchmark once; return the figures as a dict."""
    import ros_support
    from mcp_ros_bridge.backends.ros import RosBackend
    from mcp_ros_bridge.catalog.robot import RobotConfig
    overrides = {key: value for key, value in (
        ('sensor_ingest', ingest), ('executor', executor), ('sensor_qos_depth', depth),
        ('sensor_drain_period_ms', period)) if value}
    raw = ros_support.robot_yaml(max_age_s=5.0, **overrides)
    config = RobotConfig.from_dict(raw)
    backend = RosBackend(config, node_name='bench_bridge')
    await backend.start()
    wrench, joints = backend.parts.wrench, backend.parts.joints
    offset = time.time() - time.monotonic()  # receive times are monotonic, stamps wall-clock
    ctx = multiprocessing.get_context('spawn')
    manager = ctx.Manager()
    counts, ready, stop = manager.dict(), ctx.Event(), ctx.Event()
    # it publishes until the measurement ends: discovery under load may take seconds
    proc = ctx.Process(target=publisher, args=(raw, seconds + 60.0, ready, counts, stop))
    proc.start()
    await asyncio.to_thread(ready.wait, 20.0)
    await backend.wait_for_sensors(10.0)
    await asyncio.sleep(0.5)  # warm-up
    lags, read_ages, numbers = [], [], []
    book_s = 0.0  # CPU the bench spends on its own bookkeeping, not the bridge's
    seen = wrench0 = wrench.count
    joints0 = joints.count
    threads0 = thread_cpu()
    cpu0, wall0 = time.process_time(), time.monotonic()
    while time.monotonic() - wall0 < seconds:
        samples = await backend.wrench_samples(1)
        states = await backend.joint_states()
        t_book = time.thread_time()
        read_ages.append(max(samples.age_s, states.age_s) * 1e3)
        count = wrench.count
        for stamp, recv, row in wrench.tail(count - seen):
            lags.append((recv + offset - stamp) * 1e3)
            numbers.append(ros_support.number_of(row))
        seen = count
        book_s += time.thread_time() - t_book
        await asyncio.sleep(0.01)
    cpu_s, wall = time.process_time() - cpu0 - book_s, time.monotonic() - wall0
    threads = thread_cpu()
    per_thread = {}
    for tid, (name, ticks) in threads.items():
        used = ticks - threads0.get(tid, (name, 0))[1]
        per_thread[name] = per_thread.get(name, 0.0) + 100.0 * used / TICKS / wall
    received = (seen - wrench0, joints.count - joints0)
    stop.set()
    await asyncio.to_thread(proc.join, 30.0)
    await backend.close()
    tenth = max(1, len(lags) // 10)
    ordered = sorted(lags)
    return {
        'mode': mode_name(ingest, executor, depth, period),
        'cpu_pct': 100.0 * cpu_s / wall, 'bookkeeping_pct': 100.0 * book_s / wall,
        'cpu_us_per_msg': 1e6 * cpu_s / max(1, sum(received)),
        'wrench_hz': received[0] / wall, 'joints_hz': received[1] / wall,
        'lag_p50_ms': ordered[len(ordered) // 2],
        'lag_p99_ms': ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))],
        'lag_max_ms': ordered[-1],
        'lost': int(numbers[-1] - numbers[0] + 1 - len(numbers)) if numbers else -1,
        'backlog_first_ms': statistics.mean(lags[:tenth]),
        'backlog_last_ms': statistics.mean(lags[-tenth:]),
        'read_age_p50_ms': statistics.median(read_ages),
        'read_age_p99_ms': sorted(read_ages)[int(0.99 * (len(read_ages) - 1))],
        'reads': len(read_ages),
        'published': dict(counts),
        'threads_pct': {k: round(v, 1) for k, v in sorted(per_thread.items()) if v >= 0.05},
        'ingest_pct': sum(v for k, v in per_thread.items() if k != 'MainThread'),
    }


TICKS = os.sysconf('SC_CLK_TCK')


def thread_cpu():
    """Return {thread id: (name, user + system clock ticks)} of this process."""
    import threading
    names = {t.native_id: t.name for t in threading.enumerate()}
    found = {}
    for tid in os.listdir('/proc/self/task'):
        try:
            with open(f'/proc/self/task/{tid}/stat', encoding='ascii') as f:
                stat = f.read()
        except OSError:
            continue
        comm = stat[stat.index('(') + 1:stat.rindex(')')]
        fields = stat[stat.rindex(')') + 2:].split()
        name = names.get(int(tid), comm)
        found[int(tid)] = (name.split('.')[0] + '.' + name.split('.')[1] if name.startswith(
            'dds.') else name, int(fields[11]) + int(fields[12]))
    return found


def floor(seconds):
    """Print (and return) the CPU per message of ``take`` alone and of take + parse + store."""
    import ros_support
    from geometry_msgs.msg import WrenchStamped
    from mcp_ros_bridge.backends.ros.batched import SensorDrain
    from mcp_ros_bridge.backends.ros.runtime import qos_from_name, RosRuntime
    from mcp_ros_bridge.backends.ros.sensors import WrenchBuffer
    from mcp_ros_bridge.catalog.robot import RobotConfig
    raw = ros_support.robot_yaml()
    config = RobotConfig.from_dict(raw)
    ctx = multiprocessing.get_context('spawn')
    manager = ctx.Manager()
    counts, ready = manager.dict(), ctx.Event()
    proc = ctx.Process(target=publisher, args=(raw, seconds * 4 + 3, ready, counts))
    proc.start()
    runtime = RosRuntime('bench_floor')
    runtime.start()
    drain = SensorDrain(runtime.context, 'bench_floor_sensors')
    buffer = WrenchBuffer('/w', maxlen=100_000)
    taken = []
    drain.subscribe(WrenchStamped, config.ros.topics['wrench'].name,
                    qos_from_name(None, sensor_depth=5000), taken.append)
    ready.wait(20.0)
    deadline = time.monotonic() + 20.0
    while not drain.drain() and time.monotonic() < deadline:
        time.sleep(0.05)  # wait for discovery
    found = []
    for label, sink in (('take alone', taken.append), ('take + parse + store', buffer.on_raw)):
        drain.drain()
        drain._routes[0] = drain._routes[0][:2] + (sink,)
        time.sleep(seconds)  # let messages queue; nothing is taken meanwhile
        t0 = time.thread_time()
        count = drain.drain()
        used = time.thread_time() - t0
        print(f'{label:24s} {1e6 * used / max(1, count):6.2f} us per message ({count} messages)')
        found.append(1e6 * used / count if count else float('nan'))
    proc.join(60.0)
    drain.close()
    runtime.shutdown()
    return found


def report(r, seconds):
    """Print one run's figures."""
    print(f'mode                {r["mode"]}, {seconds:.1f} s')
    print(f'bridge CPU          {r["cpu_pct"]:.1f} % of one core (goal <= 10 %), '
          f'{r["cpu_us_per_msg"]:.0f} us per received message; the bench\'s own bookkeeping '
          f'{r["bookkeeping_pct"]:.1f} % apart, not counted')
    print(f'received            wrench {r["wrench_hz"]:.0f} Hz, joints {r["joints_hz"]:.0f} Hz, '
          f'{r["lost"]} wrench messages lost')
    print(f'freshness lag       p50 {r["lag_p50_ms"]:.2f} ms, p99 {r["lag_p99_ms"]:.2f} ms, '
          f'max {r["lag_max_ms"]:.2f} ms (goal p99 < 5 ms)')
    print(f'backlog growth      lag first 10 % {r["backlog_first_ms"]:.2f} ms -> '
          f'last 10 % {r["backlog_last_ms"]:.2f} ms')
    print(f'reads               {r["reads"]}, age at read p50 {r["read_age_p50_ms"]:.2f} ms, '
          f'p99 {r["read_age_p99_ms"]:.2f} ms')
    print(f'published (total)   {r["published"]}')
    print(f'threads (% of core) {r["threads_pct"]}')


COLUMNS = [('cpu_pct', 'CPU %'), ('cpu_us_per_msg', 'us/msg'), ('ingest_pct', 'ingest %'),
           ('lost', 'lost'),
           ('lag_p50_ms', 'lag p50'), ('lag_p99_ms', 'lag p99'),
           ('read_age_p50_ms', 'read p50'), ('read_age_p99_ms', 'read p99'),
           ('backlog_last_ms', 'lag last10%')]


def compare(seconds, repeat):
    """Run every mode ``repeat`` times (interleaved), each in a fresh process; print medians."""
    runs = {}
    for i in range(repeat):
        for mode in MODES:
            cmd = [sys.executable, os.path.abspath(__file__), '--json', '--seconds', str(seconds)]
            for flag, value in zip(('--ingest', '--executor', '--depth', '--period'), mode):
                cmd += [flag, str(value)] if value else []
            out = subprocess.run(cmd, check=False, capture_output=True, text=True,
                                 timeout=180)
            line = out.stdout.strip().splitlines()[-1] if out.stdout.strip() else '{}'
            result = json.loads(line)
            if 'mode' not in result:
                print(f'{mode} failed: {out.stderr[-500:]}', file=sys.stderr)
                continue
            runs.setdefault(result['mode'], []).append(result)
            print(f'run {i + 1}/{repeat} {result["mode"]}: {result["cpu_pct"]:.1f} %, '
                  f'{result["cpu_us_per_msg"]:.0f} us/msg', file=sys.stderr)
    base = statistics.median(r['cpu_pct'] for r in runs.get(DEFAULTS, [{'cpu_pct': 0.0}]))
    print(f'medians of {repeat} runs of {seconds:.0f} s (1 kHz wrench + 500 Hz joints); '
          'goal: CPU <= 10 %, lag p99 < 5 ms, nothing lost')
    print(f'{"mode":<30}{"CPU min-max":>13}{"x defaults":>11}'
          + ''.join(f'{title:>12}' for _, title in COLUMNS))
    for mode, results in runs.items():
        cpu = [r['cpu_pct'] for r in results]
        cells = (statistics.median(r[key] for r in results) for key, _ in COLUMNS)
        ratio = statistics.median(cpu) / base if base else float('nan')
        print(f'{mode:<30}{min(cpu):>6.1f}-{max(cpu):<6.1f}{ratio:>11.2f}'
              + ''.join(f'{cell:>12.2f}' for cell in cells))


def main():
    """Parse arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument('--seconds', type=float, default=10.0)
    parser.add_argument('--ingest', choices=['batched', 'raw', 'objects'])
    parser.add_argument('--executor', choices=['single', 'multi', 'events'])
    parser.add_argument('--depth', type=int, default=0, help='sensor QoS depth')
    parser.add_argument('--period', type=float, default=0, help='batched: drain period, ms')
    parser.add_argument('--json', action='store_true', help='print one JSON line')
    parser.add_argument('--compare', action='store_true', help='every mode, medians')
    parser.add_argument('--repeat', type=int, default=3)
    parser.add_argument('--floor', action='store_true',
                        help='CPU per message of take alone and take + parse + store')
    add_flag(parser)
    args = parser.parse_args()
    if args.smoke:
        result = asyncio.run(run(1.0, None, None, 0, 0))
        report(result, 1.0)
        check(**{key: result[key] for key, _ in COLUMNS})
        assert result['wrench_hz'] > 0 and result['joints_hz'] > 0, 'smoke: nothing received'
        check(floor_us_per_message=floor(0.3))
        done()
        return
    if args.floor:
        floor(args.seconds)
        return
    if args.compare:
        compare(args.seconds, args.repeat)
        return
    result = asyncio.run(run(args.seconds, args.ingest, args.executor, args.depth,
                             args.period))
    if args.json:
        print(json.dumps(result))
    else:
        report(result, args.seconds)


if __name__ == '__main__':
    main()
