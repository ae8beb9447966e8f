"""
stop_arm latency over Streamable HTTP with N slow connections open, versus none.

Usage: ``python3 bench/bench_http_stop.py [--slow 1100] [--file-limit 1024] [--stops 20]``
or ``--smoke`` (seconds). The real server runs in a subprocess on loopback with an
open-file limit of ``--file-limit`` (soft and hard; 1,024 is a common default). A
session opened first (a kept keep-alive client) and a new client each call
stop_arm ``--stops`` times, first with no other connection, then with ``--slow``
connections that sent half a request head and then nothing. Prints p50 and max
of both side by side and the ratio; every stop must answer.
"""

from __future__ import annotations

import argparse
from contextlib import AsyncExitStack
import os
import statistics
import sys
import time

import anyio
from smoke import add_flag, done

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path[:0] = [REPO, os.path.join(REPO, 'test'), os.path.join(REPO, 'test', 'contract')]


async def stop_times(url: str, stops: int) -> tuple[list[float], list[float]]:
    """Return stop_arm latencies (s) of a kept session and of new clients."""
    import httpx2
    from raw_http import RawSession
    kept_times, new_times = [], []
    async with httpx2.AsyncClient(timeout=httpx2.Timeout(60)) as kept:
        session = await RawSession(kept, url, {}).start()
        for _ in range(stops):
            start = time.perf_counter()
            result = await session.call('stop_arm', {})
            kept_times.append(time.perf_counter() - start)
            assert not result['isError'], result
            async with httpx2.AsyncClient(timeout=httpx2.Timeout(60)) as fresh:
                start = time.perf_counter()
                other = await RawSession(fresh, url, {}).start()
                result = await other.call('stop_arm', {})
                new_times.append(time.perf_counter() - start)
                assert not result['isError'], result
    return kept_times, new_times


async def run(slow: int, file_limit: int, stops: int) -> dict[str, list[float]]:
    """Measure with no slow connections, then with ``slow`` of them."""
    from server_process import http_server
    from test_http_slow_connections import open_slow_connections
    figures: dict[str, list[float]] = {}
    async with http_server(None, file_limit=file_limit) as (url, _):
        figures['kept, none'], figures['new, none'] = await stop_times(url, stops)
        async with AsyncExitStack() as stack:
            opened = await open_slow_connections(stack, url, slow)
            assert opened == slow, f'only {opened} of {slow} slow connections opened'
            figures[f'kept, {slow} slow'], figures[f'new, {slow} slow'] = \
                await stop_times(url, stops)
    return figures


def report(figures: dict[str, list[float]]) -> list[str]:
    """Return the printed lines: p50 and max per case, and the slow/none ratio of p50."""
    lines = [f'{"case":<20} {"p50 ms":>8} {"max ms":>8}']
    for case, times in figures.items():
        lines.append(f'{case:<20} {statistics.median(times) * 1e3:8.1f} '
                     f'{max(times) * 1e3:8.1f}')
    cases = list(figures)
    for none, slow in ((cases[0], cases[2]), (cases[1], cases[3])):
        ratio = statistics.median(figures[slow]) / statistics.median(figures[none])
        lines.append(f'ratio p50 {slow} / {none}: {ratio:.2f}x')
    return lines


def main() -> None:
    """Parse the flags, run, print."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--slow', type=int, default=1100)
    parser.add_argument('--file-limit', type=int, default=1024)
    parser.add_argument('--stops', type=int, default=20)
    add_flag(parser)  # a few seconds: 150 slow connections, 3 stops per case
    args = parser.parse_args()
    if args.smoke:
        args.slow, args.file_limit, args.stops = 150, 128, 3
    print(f'stop_arm over HTTP, open-file limit {args.file_limit}, {args.stops} stops per case')
    lines = report(anyio.run(run, args.slow, args.file_limit, args.stops))
    print('\n'.join(lines))
    assert len(lines) == 7, 'every case printed'
    if args.smoke:
        done()


if __name__ == '__main__':
    main()
