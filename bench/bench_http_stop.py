"""
stop_arm latency over Streamable HTTP under each connection attack, versus none.

Usage: ``python3 bench/bench_http_stop.py [--attackers 1100] [--viewers 300]
[--file-limit 1024] [--stops 20]`` or ``--smoke`` (seconds). The real server runs in
a subprocess on loopback with an open-file limit of ``--file-limit`` (soft and hard;
1,024 is a common default) and head and body deadlines of 300 s, so no attacker is
timed out while stops are measured. A session opened first (a kept keep-alive
client) and a new client each call stop_arm ``--stops`` times: with nothing else
open, then with ``--attackers`` connections of each kind (half a request head; a
body of which one byte came; a console event stream; an idle MCP session) and
with ``--viewers`` console pages. Prints p50 and max per case and the ratio of
p50 to the quiet case; every stop must answer.
"""

from __future__ import annotations

import argparse
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
import os
import statistics
import sys
import time
from urllib.parse import urlsplit

import anyio
from smoke import add_flag, done

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path[:0] = [REPO, os.path.join(REPO, 'test'), os.path.join(REPO, 'test', 'contract')]
SLOW_BODY = (b'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n'
             b'Content-Length: 100\r\n\r\n{')


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


async def slow_bodies(stack: AsyncExitStack, url: str, count: int) -> None:
    """Open ``count`` POSTs whose body stopped after its first byte."""
    port = urlsplit(url).port or 80
    for _ in range(count):
        stream = await stack.enter_async_context(await anyio.connect_tcp('127.0.0.1', port))
        await stream.send(SLOW_BODY)


async def idle_sessions(stack: AsyncExitStack, url: str, count: int) -> None:
    """Open ``count`` MCP sessions and leave them idle (their connections closed)."""
    import httpx2
    from raw_http import INIT_PARAMS, JSON_HEADERS
    async with httpx2.AsyncClient(timeout=httpx2.Timeout(60)) as http:
        for i in range(count):
            r = await http.post(url, headers=JSON_HEADERS, json={
                'jsonrpc': '2.0', 'id': i, 'method': 'initialize', 'params': INIT_PARAMS})
            r.raise_for_status()


def attacks(attackers: int, viewers: int
            ) -> dict[str, Callable[[AsyncExitStack, str], Awaitable[object]]]:
    """Return each attack by name: it opens its connections on the stack."""
    from test_console_connections import open_viewers
    from test_http_slow_connections import open_slow_connections

    def viewers_of(count: int) -> Callable[[AsyncExitStack, str], Awaitable[object]]:
        return lambda stack, url: open_viewers(stack, urlsplit(url).port or 80, count)
    return {
        f'{attackers} slow heads': lambda stack, url: open_slow_connections(
            stack, url, attackers),
        f'{attackers} slow bodies': lambda stack, url: slow_bodies(stack, url, attackers),
        f'{attackers} console streams': viewers_of(attackers),
        f'{attackers} idle sessions': lambda stack, url: idle_sessions(stack, url, attackers),
        f'{viewers} viewers': viewers_of(viewers)}


async def run(attackers: int, viewers: int, file_limit: int, stops: int
              ) -> dict[str, tuple[list[float], list[float]]]:
    """Measure with nothing open, then under each attack in turn (a fresh server each)."""
    from server_process import http_server
    flags = ('--http-head-timeout-s', '300', '--http-body-timeout-s', '300')
    figures: dict[str, tuple[list[float], list[float]]] = {}
    cases = {'none': None, **attacks(attackers, viewers)}
    for case, attack in cases.items():
        async with http_server(None, file_limit=file_limit, flags=flags) as (url, _), \
                AsyncExitStack() as stack:
            if attack is not None:
                await attack(stack, url)
            figures[case] = await stop_times(url, stops)
    return figures


def report(figures: dict[str, tuple[list[float], list[float]]]) -> list[str]:
    """Return the printed lines: p50 and max per case, and the p50 ratio to none."""
    head = (f'{"case":<22} {"kept p50":>9} {"kept max":>9} {"new p50":>9} {"new max":>9} '
            f'{"kept x":>7} {"new x":>7}')
    lines = [head]
    quiet = [statistics.median(times) for times in figures['none']]
    for case, (kept, new) in figures.items():
        p50 = statistics.median(kept), statistics.median(new)
        lines.append(f'{case:<22} {p50[0] * 1e3:9.1f} {max(kept) * 1e3:9.1f} '
                     f'{p50[1] * 1e3:9.1f} {max(new) * 1e3:9.1f} '
                     f'{p50[0] / quiet[0]:6.2f}x {p50[1] / quiet[1]:6.2f}x')
    return lines


def main() -> None:
    """Parse the flags, run, print."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--attackers', type=int, default=1100)
    parser.add_argument('--viewers', type=int, default=300)
    parser.add_argument('--file-limit', type=int, default=1024)
    parser.add_argument('--stops', type=int, default=20)
    add_flag(parser)  # a few seconds: 100 attackers, 30 viewers, 3 stops per case
    args = parser.parse_args()
    if args.smoke:
        args.attackers, args.viewers, args.file_limit, args.stops = 100, 30, 256, 3
    print(f'stop_arm over HTTP (ms), open-file limit {args.file_limit}, {args.stops} stops '
          'per case; x: p50 / p50 with none')
    lines = report(anyio.run(run, args.attackers, args.viewers, args.file_limit, args.stops))
    print('\n'.join(lines))
    assert len(lines) == 7, 'every case printed'
    if args.smoke:
        done()


if __name__ == '__main__':
    main()
