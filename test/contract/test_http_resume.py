"""
Resumable Streamable HTTP (2025-11-25 sessions), over raw HTTP requests.

A tools/call stream opens with a priming event (an id, ``retry``, no data). A host
whose connection drops mid-motion reconnects with ``GET`` + ``Last-Event-ID`` and
receives what it missed, ending with the call's result; the deadman has stopped
the arm meanwhile, so that result says where it stopped.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
import httpx2
from mcp_ros_bridge.server.event_store import EventLog, RETRY_MS
import mcp_types as types
import pytest
from raw_http import RawSession, sse_events as _events
from server_process import http_server, SIM

pytestmark = [pytest.mark.contract, pytest.mark.anyio]

SLOW_MOVE = {'positions': [1.2, -0.2, 0.0, -1.8, 0.0, 1.9, 0.785], 'velocity_scaling': 0.1}
TIMEOUT = httpx2.Timeout(30, read=60)


async def _drop_mid_call(http: httpx2.AsyncClient, session: RawSession,
                         body: dict[str, Any]) -> tuple[dict[str, str], list[str]]:
    """Post the call; leave once it is under way. Return the priming event and ids seen."""
    seen: list[str] = []
    priming: dict[str, str] = {}
    async with http.stream('POST', session.url, headers=session.headers, json=body) as r:
        assert r.status_code == 200 and r.headers['content-type'].startswith(
            'text/event-stream')
        async for event in _events(r.aiter_lines()):
            if not priming:
                priming = event
            seen.append(event['id'])
            message = json.loads(event['data']) if event.get('data') else {}
            assert message.get('id') != body['id'], 'the call ended before the drop'
            if not SIM or message.get('method') == 'notifications/progress' and \
                    message['params']['progress'] > 0.1:
                break
    return priming, seen


async def test_dropped_call_stream_resumes_with_last_event_id() -> None:
    """Priming event with retry; GET + Last-Event-ID replays the rest, ending in the result."""
    async with http_server(None, sim_speed='1') as (url, log_lines):
        with anyio.fail_after(120):
            async with httpx2.AsyncClient(timeout=TIMEOUT) as h:
                session = await RawSession(h, url, {}).start()
                body = session.call_body('move_arm_joints', SLOW_MOVE, progress='p')
                priming, seen = await _drop_mid_call(h, session, body)
                resumed: list[dict[str, str]] = []
                headers = {**session.headers, 'Accept': 'text/event-stream',
                           'Last-Event-ID': seen[-1]}
                async with h.stream('GET', url, headers=headers) as r:
                    assert r.status_code == 200
                    async for event in _events(r.aiter_lines()):
                        resumed.append(event)
                        data = json.loads(event['data']) if event.get('data') else {}
                        if data.get('id') == body['id']:
                            break
    assert not [line for line in log_lines if 'Traceback' in line], '\n'.join(log_lines)
    assert priming.get('id') and priming.get('data') == '' and \
        priming.get('retry') == str(RETRY_MS), priming
    replayed = [e['id'] for e in resumed if e.get('data')]
    assert not set(replayed) & set(seen), 'nothing the host already had is sent again'
    final = json.loads(resumed[-1]['data'])
    result = types.CallToolResult.model_validate(final['result'])
    assert result.content and result.content[0].text
    if SIM:
        # The requester vanished mid-motion: the deadman stopped the arm, and the resumed
        # stream tells the host so.
        assert result.is_error and result.structured_content['status'] == 'STOPPED', final


async def test_event_store_replays_only_later_events_of_the_same_stream() -> None:
    """Unit: replay after an id sends that stream's later messages; unknown ids send nothing."""
    log = EventLog(session_bytes=1000, total_bytes=1500)
    store, other_session = log.view('s1'), log.view('s2')
    ping = types.JSONRPCRequest(jsonrpc='2.0', id=1, method='ping')
    first = await store.store_event('a', None)
    other = await store.store_event('b', ping)
    second = await store.store_event('a', ping)
    foreign = await other_session.store_event('a', ping)
    sent: list[str | None] = []

    async def send(event: Any) -> None:
        sent.append(event.event_id)

    assert await store.replay_events_after(first, send) == 'a'
    assert sent == [second] and other not in sent and foreign not in sent
    sent.clear()
    assert await other_session.replay_events_after(first, send) is None and sent == []
    for _ in range(10):
        await store.store_event('c', ping)
    assert log.bytes <= 1500 and first not in str(log._events)
    assert await store.replay_events_after(first, send) == 'a' and sent == [], \
        'the oldest events are dropped once the budget is spent; the stream is still known'
    kept_by_s2 = log.bytes - sum(e.size for e in log._events.values() if e.session == 's1')
    log.forget('s1')
    assert log.bytes == kept_by_s2, 'an ended session frees its events'
    assert await store.replay_events_after(second, send) is None and sent == []
    assert await store.store_event('a', ping) and log.bytes == kept_by_s2, \
        'an ended session keeps nothing new'
