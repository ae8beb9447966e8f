"""
Slow or idle HTTP connections cannot starve stop_arm (raw HTTP, the real server, loopback).

The server runs with an open-file limit of 200; 300 connections that send half a
request head and then nothing would exhaust it. stop_arm must still answer, from
a session opened before the flood and from a new client. When every connection is
busy (open SSE streams), a reserved connection still carries stop_arm of an open
session, and nothing else.
"""

from __future__ import annotations

from contextlib import AsyncExitStack
import json
from typing import Any
from urllib.parse import urlsplit

import anyio
import httpx2
import pytest
from raw_http import RawSession, read_to_end
from server_process import http_server

pytestmark = [pytest.mark.contract, pytest.mark.anyio]

TIMEOUT = httpx2.Timeout(30, read=60)
SLOW = 300
HALF_HEAD = b'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n'


async def open_slow_connections(stack: AsyncExitStack, url: str, count: int) -> int:
    """Open ``count`` loopback connections that send half a head; return how many connected."""
    parts = urlsplit(url)
    opened = 0
    for _ in range(count):
        try:
            stream = await stack.enter_async_context(
                await anyio.connect_tcp(parts.hostname or '127.0.0.1', parts.port or 80))
            await stream.send(HALF_HEAD)
            opened += 1
        except OSError:
            break  # the server is out of descriptors (what the old server did)
    return opened


async def test_stop_answers_with_300_slow_connections_open() -> None:
    """300 half-sent heads against a 200-file limit: stop_arm answers old and new clients."""
    async with http_server(None, file_limit=200) as (url, log_lines):
        with anyio.fail_after(120):
            async with AsyncExitStack() as stack, \
                    httpx2.AsyncClient(timeout=TIMEOUT) as kept, \
                    httpx2.AsyncClient(timeout=TIMEOUT) as fresh:
                existing = await RawSession(kept, url, {}).start()
                opened = await open_slow_connections(stack, url, SLOW)
                old_stop = await existing.call('stop_arm', {})
                new_session = await RawSession(fresh, url, {}).start()
                new_stop = await new_session.call('stop_arm', {})
    assert opened == SLOW, 'every slow connection was accepted (the oldest are evicted)'
    for result in (old_stop, new_stop):
        assert not result['isError'] and 'stopped_motion' in result['structuredContent'], result
    assert not [line for line in log_lines if 'Too many open files' in line or
                'Traceback' in line], '\n'.join(log_lines)


async def _hold_stream(http: httpx2.AsyncClient, session: RawSession,
                       opened: anyio.Semaphore) -> None:
    headers = {**session.headers, 'Accept': 'text/event-stream'}
    async with http.stream('GET', session.url, headers=headers) as r:
        assert r.status_code == 200
        opened.release()
        async for _ in r.aiter_lines():
            pass


async def test_reserved_connection_carries_only_a_stop() -> None:
    """Every connection busy with an SSE stream: stop_arm and DELETE get in; tools/list: 503."""
    busy = 12
    async with http_server(None, flags=('--http-max-connections', str(busy))) as (url, _):
        with anyio.fail_after(120):
            limits = httpx2.Limits(max_connections=busy + 5, max_keepalive_connections=0)
            async with httpx2.AsyncClient(timeout=TIMEOUT) as setup, \
                    httpx2.AsyncClient(timeout=TIMEOUT, limits=limits) as streams, \
                    httpx2.AsyncClient(timeout=TIMEOUT) as stopper, \
                    anyio.create_task_group() as tg:
                sessions = [await RawSession(setup, url, {}).start() for _ in range(busy + 1)]
                await setup.aclose()  # its idle connection must not count as busy
                opened = anyio.Semaphore(0)
                for session in sessions[:busy]:
                    tg.start_soon(_hold_stream, streams, session, opened)
                for _ in range(busy):
                    await opened.acquire()
                last = sessions[busy]
                headers = {**last.headers}
                listed = await stopper.post(url, headers=headers, json={
                    'jsonrpc': '2.0', 'id': 50, 'method': 'tools/list'})
                stop = await stopper.post(url, headers=headers,
                                          json=last.call_body('stop_arm', {}))
                deleted = await stopper.delete(url, headers=headers)  # the deadman's way in
                tg.cancel_scope.cancel()
    assert listed.status_code == 503, listed.text
    assert 'stop_arm' in listed.json()['error']['message']
    assert stop.status_code == 200 and deleted.status_code == 200, (stop.text, deleted.text)
    answer: dict[str, Any] = next(
        json.loads(line[5:]) for line in stop.text.splitlines()
        if line.startswith('data:') and line[5:].strip())
    assert not answer['result']['isError'], answer


async def test_slow_head_is_closed_and_slow_body_gets_408() -> None:
    """Half a head: closed after --http-head-timeout-s; half a body: 408 after the body timeout."""
    flags = ('--http-head-timeout-s', '1', '--http-body-timeout-s', '1')
    async with http_server(None, flags=flags) as (url, _):
        parts = urlsplit(url)
        with anyio.fail_after(60):
            async with await anyio.connect_tcp('127.0.0.1', parts.port or 80) as head:
                await head.send(HALF_HEAD)
                with pytest.raises((anyio.EndOfStream, anyio.BrokenResourceError, OSError)):
                    await head.receive()
            async with await anyio.connect_tcp('127.0.0.1', parts.port or 80) as body:
                await body.send(HALF_HEAD + b'Content-Length: 100\r\n\r\n{"jsonrpc"')
                answer = await read_to_end(body)
    assert answer.startswith(b'HTTP/1.1 408'), answer
    assert b'"code": -32600' in answer and b'1.0 s' in answer
