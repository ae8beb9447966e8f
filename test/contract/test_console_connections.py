"""
Console connections never compete with stops (raw HTTP against the real server subprocess).

Console event streams (no token needed on loopback) go to a pool of their own
(16, the oldest dropped), so a flood of them leaves stop_arm, new sessions and
the operator's STOP working; slow bodies are evicted before a stop is refused;
beside a stdio host the console port is booked the same way (ceiling, deadlines,
no descriptor exhaustion, no traceback flood).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, AsyncExitStack
import re
import sys
from typing import Any
from urllib.parse import urlsplit

import anyio
from anyio.abc import ByteStream
from bridge_kit import REPO
import httpx2
import pytest
from raw_http import RawSession, read_to_end
from server_process import FILE_LIMIT, LogLines, serve_argv, server_env

pytestmark = [pytest.mark.contract, pytest.mark.anyio]

TIMEOUT = httpx2.Timeout(30, read=60)
CEILING = ('--http-max-connections', '20')
VIEWER_POOL = 16
CONSOLE_LINE = re.compile(r'operator console at (http://127\.0\.0\.1:(\d+)/console)#secret=(\S+)')


def console_stop_request(port: int, secret: str) -> bytes:
    """Return the operator's STOP as the page sends it (its Origin, the secret, a JSON body)."""
    return (f'POST /console/stop HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n'
            f'Origin: http://127.0.0.1:{port}\r\nAuthorization: Bearer {secret}\r\n'
            'Content-Type: application/json\r\n'
            'Content-Length: 2\r\nConnection: close\r\n\r\n{}').encode()


async def raw_answer(port: int, request: bytes) -> bytes:
    """Send ``request`` on a new connection and return the whole answer."""
    async with await anyio.connect_tcp('127.0.0.1', port) as stream:
        await stream.send(request)
        return await read_to_end(stream)


async def open_viewers(stack: AsyncExitStack, port: int, count: int) -> list[ByteStream]:
    """Open ``count`` console event streams; return them once each sent its response head."""
    streams: list[ByteStream] = []
    for _ in range(count):
        stream = await stack.enter_async_context(await anyio.connect_tcp('127.0.0.1', port))
        await stream.send(f'GET /console/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n'
                          '\r\n'.encode())
        head = b''
        while b'\r\n\r\n' not in head:
            head += await stream.receive()
        assert head.startswith(b'HTTP/1.1 200'), head
        streams.append(stream)
    return streams


async def still_open(stream: ByteStream) -> bool:
    """After a STOP: True when the viewer's stream shows the hold, False when it was closed."""
    seen = b''
    try:
        while b'"held": true' not in seen:
            seen = seen[-64:] + await stream.receive()
        return True
    except (anyio.EndOfStream, anyio.BrokenResourceError, OSError):
        return False


def stopped(result: dict[str, Any]) -> bool:
    """Tell whether a stop_arm result says it stopped."""
    return not result['isError'] and 'stopped_motion' in result['structuredContent']


@asynccontextmanager
async def mcp_server(flags: tuple[str, ...]) -> AsyncIterator[tuple[str, int, str]]:
    """Serve the real server over HTTP (simulation); yield its URL, port, operator secret."""
    from server_process import http_server
    async with http_server(None, flags=flags) as (url, lines):
        printed = CONSOLE_LINE.search(await lines.wait_for('operator console at'))
        assert printed is not None, lines[-5:]
        yield url, urlsplit(url).port or 80, printed.group(3)


async def test_console_streams_do_not_starve_stops() -> None:
    """60 console streams against a ceiling of 20: stop_arm, a new session and STOP all answer."""
    async with mcp_server(CEILING) as (url, port, secret):
        with anyio.fail_after(180):
            async with AsyncExitStack() as stack, \
                    httpx2.AsyncClient(timeout=TIMEOUT) as kept, \
                    httpx2.AsyncClient(timeout=TIMEOUT) as fresh:
                existing = await RawSession(kept, url, {}).start()
                viewers = await open_viewers(stack, port, 60)
                old_stop = await existing.call('stop_arm', {})
                new_stop = await (await RawSession(fresh, url, {}).start()).call('stop_arm', {})
                console_stop = await raw_answer(port, console_stop_request(port, secret))
                served = [await still_open(v) for v in viewers]
    assert stopped(old_stop) and stopped(new_stop), (old_stop, new_stop)
    assert console_stop.startswith(b'HTTP/1.1 200') and b'stopped_motion' in console_stop, \
        console_stop
    assert served == [False] * (60 - VIEWER_POOL) + [True] * VIEWER_POOL, served


async def test_slow_bodies_are_evicted_before_a_stop_is_refused() -> None:
    """60 bodies trickling against a ceiling of 20: a new session's stop_arm and STOP answer."""
    flags = (*CEILING, '--http-body-timeout-s', '120')
    async with mcp_server(flags) as (url, port, secret):
        with anyio.fail_after(180):
            async with AsyncExitStack() as stack, \
                    httpx2.AsyncClient(timeout=TIMEOUT) as fresh:
                for _ in range(60):
                    slow = await stack.enter_async_context(
                        await anyio.connect_tcp('127.0.0.1', port))
                    await slow.send(b'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n'
                                    b'Content-Type: application/json\r\n'
                                    b'Content-Length: 100\r\n\r\n{')
                session = await RawSession(fresh, url, {}).start()
                new_stop = await session.call('stop_arm', {})
                console_stop = await raw_answer(port, console_stop_request(port, secret))
    assert stopped(new_stop), new_stop
    assert console_stop.startswith(b'HTTP/1.1 200'), console_stop


async def _read_log(stream: Any, lines: LogLines) -> None:
    buffer = b''
    async for chunk in stream:
        buffer += chunk
        *done, buffer = buffer.split(b'\n')
        for line in done:
            lines.add(line.decode('utf-8', 'replace'))


async def test_console_beside_stdio_is_booked() -> None:
    """Beside stdio, 300 idle connections against a 200-file limit: STOP answers, no traceback."""
    lines = LogLines()
    process = await anyio.open_process(
        [sys.executable, '-c', FILE_LIMIT, '200',
         *serve_argv('--console-port', '0', '--http-head-timeout-s', '120')],
        cwd=REPO, env=server_env(None))
    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(_read_log, process.stderr, lines)
            with anyio.fail_after(180):
                printed = CONSOLE_LINE.search(await lines.wait_for('operator console at'))
                assert printed is not None, lines[-5:]
                port, secret = int(printed.group(2)), printed.group(3)
                async with AsyncExitStack() as stack:
                    for _ in range(300):
                        idle = await stack.enter_async_context(
                            await anyio.connect_tcp('127.0.0.1', port))
                        await idle.send(b'GET /console HTTP/1.1\r\n')  # half a head
                    console_stop = await raw_answer(port, console_stop_request(port, secret))
            tg.cancel_scope.cancel()
    finally:
        process.kill()
        with anyio.move_on_after(10, shield=True):
            await process.wait()
    assert console_stop.startswith(b'HTTP/1.1 200') and b'stopped_motion' in console_stop, \
        console_stop
    assert not [line for line in lines if 'Traceback' in line or 'Too many open files' in line
                ], '\n'.join(lines[-40:])
