"""
Soak: mixed tool calls against the simulation for minutes; watch memory, threads, files, p99.

Usage: ``python3 bench/soak.py [--seconds 600] [--rate 20] [--smoke]`` (smoke: 4 s in
windows of 1 s). The server runs in
this process on the real-time simulation, driven by the SDK's in-memory client:
one task moves the arm back and forth (with a grasp/release now and then), the
other issues read-only calls so that the total is about ``--rate`` calls/s.
Every window prints RSS, thread and open-file counts and the read p99; the end
prints growth versus the first window. Goals: RSS growth < 10 %, no thread or
file-descriptor growth, p99 drift < 2x.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import threading
import time
from typing import Any

import anyio
from mcp import Client
from mcp_ros_bridge.server.app import build, ServeOptions
from smoke import add_flag, check, done

READS = [('get_joint_states', {}), ('read_ft_sensor', {'filter': 'kalman'}),
         ('get_end_effector_pose', {}), ('list_objects', {})]
POSES = [{'x': 0.45, 'y': -0.15, 'z': 0.3}, {'x': 0.45, 'y': 0.15, 'z': 0.35}]


def rss_mb() -> float:
    """Return this process's resident set size in MiB."""
    with open('/proc/self/statm', encoding='ascii') as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20


def open_fds() -> int:
    """Return the number of open file descriptors."""
    return len(os.listdir('/proc/self/fd'))


def p99(values: list[float]) -> float:
    """Return the 99th percentile."""
    return statistics.quantiles(values, n=100)[98] if len(values) >= 2 else float('nan')


async def soak(seconds: float, rate: float, window_s: float, smoke: bool = False) -> None:
    """Run the soak and print one line per window and a summary."""
    bridge, backend = await build(ServeOptions(sim_speed=1.0, watch=False))
    windows: list[dict[str, Any]] = []
    counts = {'calls': 0, 'errors': 0}
    began = time.monotonic()
    deadline = began + seconds

    async with Client(bridge.server, mode='legacy') as client:
        async def call(name: str, args: dict[str, Any]) -> float:
            t0 = time.perf_counter()
            r = await client.call_tool(name, args)
            counts['calls'] += 1
            counts['errors'] += int(r.is_error)
            return time.perf_counter() - t0

        async def mover() -> None:
            i = 0
            while time.monotonic() < deadline:
                await call('move_arm_to_pose', {'position': POSES[i % 2],
                                                'velocity_scaling': 0.5})
                if i % 5 == 0:
                    await call('release_object', {})
                i += 1

        async def reader() -> None:
            lat: list[float] = []
            start = time.monotonic()
            i = 0
            while time.monotonic() < deadline:
                lat.append(await call(*READS[i % len(READS)]))
                i += 1
                now = time.monotonic()
                if now - start >= window_s:
                    w = {'t': round(now - began),
                         'rss_mb': rss_mb(), 'threads': threading.active_count(),
                         'fds': open_fds(), 'p99_ms': p99(lat) * 1000, 'n': len(lat)}
                    windows.append(w)
                    print(f"t={w['t']:4d}s rss={w['rss_mb']:.1f} MiB threads={w['threads']} "
                          f"fds={w['fds']} read p99={w['p99_ms']:.2f} ms over {w['n']} reads, "
                          f"{counts['calls']} calls, {counts['errors']} errors", flush=True)
                    lat, start = [], now
                await anyio.sleep(max(0.0, 1.0 / rate))  # pacing of the load, not a wait

        async with anyio.create_task_group() as tg:
            tg.start_soon(mover)
            tg.start_soon(reader)
    await backend.close()
    if len(windows) >= 2:
        first, last = windows[0], windows[-1]
        growth = (last['rss_mb'] - first['rss_mb']) / first['rss_mb'] * 100
        drift = last['p99_ms'] / first['p99_ms']
        print(f'summary: {counts["calls"]} calls ({counts["calls"] / seconds:.1f}/s), '
              f'{counts["errors"]} errors; RSS {first["rss_mb"]:.1f} -> {last["rss_mb"]:.1f} MiB '
              f'({growth:+.1f} %, goal < 10 %); threads {first["threads"]} -> '
              f'{last["threads"]}; fds {first["fds"]} -> {last["fds"]}; read p99 '
              f'{first["p99_ms"]:.2f} -> {last["p99_ms"]:.2f} ms ({drift:.2f}x, goal < 2x)')
    if smoke:
        assert len(windows) >= 2, 'smoke: two report windows expected'
        check(rss=[w['rss_mb'] for w in windows], p99=[w['p99_ms'] for w in windows],
              calls=counts['calls'])
        assert counts['calls'] and not counts['errors'], f'smoke: {counts}'
        done()


if __name__ == '__main__':
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--seconds', type=float, default=600.0)
    parser.add_argument('--rate', type=float, default=20.0, help='read calls per second')
    parser.add_argument('--window', type=float, default=60.0, help='seconds per report line')
    add_flag(parser)
    a = parser.parse_args()
    if a.smoke:
        a.seconds, a.window = 4.0, 1.0
    anyio.run(soak, a.seconds, a.rate, a.window, a.smoke)
