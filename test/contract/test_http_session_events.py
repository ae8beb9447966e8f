"""
Resumed streams belong to their session, over raw HTTP against the real server.

SDK clients number requests from 0 in every session, so two sessions use the same
JSON-RPC ids. A resume (GET + Last-Event-ID) replays only the later events of the
resuming session's own stream: never another session's result, nothing for a
foreign, deleted or unknown id, and a stream that has ended closes after its
response. The event store is bounded in bytes, so large results are not retained.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
import httpx2
import pytest
from raw_http import RawSession, sse_events as _events
from server_process import http_server

pytestmark = [pytest.mark.contract, pytest.mark.anyio]

TIMEOUT = httpx2.Timeout(30, read=60)


async def _post_events(session: RawSession, body: dict[str, Any]) -> list[dict[str, str]]:
    """POST one request; return its SSE events (priming event first, response last)."""
    events: list[dict[str, str]] = []
    async with session.http.stream('POST', session.url, headers=session.headers,
                                   json=body) as r:
        assert r.status_code == 200, await r.aread()
        async for event in _events(r.aiter_lines()):
            events.append(event)
            if event.get('data') and json.loads(event['data']).get('id') == body['id']:
                break
    return events


async def _resume(session: RawSession, last_event_id: str) -> list[dict[str, Any]]:
    """Resume with ``last_event_id``; return the messages replayed until the stream closes."""
    headers = {**session.headers, 'Accept': 'text/event-stream',
               'Last-Event-ID': last_event_id}
    messages: list[dict[str, Any]] = []
    async with session.http.stream('GET', session.url, headers=headers) as r:
        assert r.status_code == 200
        async for event in _events(r.aiter_lines()):
            if event.get('data'):
                messages.append(json.loads(event['data']))
            if len(messages) > 1 or messages and 'result' in messages[-1]:
                break  # a stream ends with its one response; more would be foreign
    return messages


async def test_resume_replays_only_the_own_sessions_stream() -> None:
    """Two sessions, same id 2: each resume gets its own result or nothing, never the other's."""
    async with http_server(None) as (url, log_lines):
        with anyio.fail_after(120):
            async with httpx2.AsyncClient(timeout=TIMEOUT) as h:
                a = await RawSession(h, url, {}).start()
                b = await RawSession(h, url, {}).start()
                a_events = await _post_events(a, a.call_body('get_joint_states', {}))
                listing = {'jsonrpc': '2.0', 'id': next(b.ids), 'method': 'prompts/list'}
                b_events = await _post_events(b, listing)
                assert json.loads(a_events[-1]['data'])['id'] == \
                    json.loads(b_events[-1]['data'])['id'], 'the ids collide'
                from_priming = await _resume(a, a_events[0]['id'])
                after_result = await _resume(a, a_events[-1]['id'])
                foreign = await _resume(b, a_events[0]['id'])
                unknown = await _resume(a, 'f00d-0123')
                assert await a.delete() == 200
                deleted = await _resume(b, a_events[0]['id'])
    assert [list(m['result']) for m in from_priming] == [
        ['content', 'isError', 'structuredContent']], from_priming
    assert 'joints' in from_priming[0]['result']['structuredContent']
    assert after_result == [], "nothing after its own result, not the other session's"
    assert foreign == [] and unknown == [] and deleted == []
    assert not [line for line in log_lines if 'Traceback' in line], '\n'.join(log_lines)


def _rss_mib(pid: int) -> float:
    with open(f'/proc/{pid}/status', encoding='ascii') as f:
        kib = next(int(line.split()[1]) for line in f if line.startswith('VmRSS:'))
    return kib / 1024


async def test_large_results_are_not_retained() -> None:
    """40 prompts/get with a 0.9 MB argument (2.7 MB results each): the store stays small."""
    pids: list[int] = []
    big = 'x' * 900_000
    async with http_server(None, pids=pids) as (url, _):
        with anyio.fail_after(240):
            async with httpx2.AsyncClient(timeout=TIMEOUT) as h:
                session = await RawSession(h, url, {}).start()
                await session.call('get_joint_states', {})
                before = _rss_mib(pids[0])
                for _ in range(40):
                    body = {'jsonrpc': '2.0', 'id': next(session.ids), 'method': 'prompts/get',
                            'params': {'name': 'pick_and_place',
                                       'arguments': {'object': big, 'x': '0.5', 'y': '0'}}}
                    r = await h.post(url, headers=session.headers, json=body)
                    assert r.status_code == 200 and len(r.content) > 2_000_000
                grown = _rss_mib(pids[0]) - before
    # Unbounded, the 40 results stayed: about 430 MiB. Kept within 8 MiB per session now.
    print(f'grown {grown:.0f} MiB')
    assert grown < 120, f'the server grew by {grown:.0f} MiB'
