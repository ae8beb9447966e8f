"""
Idempotency keys through real transports: per session, by value, never replaying a stop.

Raw HTTP against the server subprocess (two 2025-11-25 sessions), and the SDK's
server in memory with the recording double where a motion must be held open.
"""

from __future__ import annotations

from typing import Any

import anyio
from bridge_kit import BackgroundCalls, error_code, make_bridge, MODES, POSE_ARGS, text_of
import httpx2
from mcp import Client
from mcp_ros_bridge.contract.results import ERROR_META_KEY
import pytest
from raw_http import RawSession
from server_process import http_server

pytestmark = [pytest.mark.contract, pytest.mark.anyio]

TARGET = {'position': {'x': 0.4, 'y': 0.1, 'z': 0.35},
          'orientation': {'roll': 180.0, 'pitch': 0.0, 'yaw': 0.0}}
SAME_TARGET = {'position': {'x': 0.4, 'y': 0.1, 'z': 0.35},
               'orientation': {'roll': 180, 'pitch': 0, 'yaw': 0}}


def _text(result: dict[str, Any]) -> str:
    return '\n'.join(c['text'] for c in result['content'] if c['type'] == 'text')


async def test_keys_belong_to_one_http_session_and_compare_numbers_by_value() -> None:
    """Session A replays its key (180 == 180.0); B's same key runs; a trailing newline fails."""
    async with http_server(None) as (url, _):
        with anyio.fail_after(90):
            async with httpx2.AsyncClient(timeout=httpx2.Timeout(30, read=60)) as h:
                a = await RawSession(h, url, {}).start()
                b = await RawSession(h, url, {}).start()
                first = await a.call('move_arm_to_pose', dict(TARGET, idempotency_key='k'))
                again = await a.call('move_arm_to_pose', dict(SAME_TARGET, idempotency_key='k'))
                await a.call('release_robot', {})  # A's lease: B may move now
                other = await b.call('move_arm_to_pose', dict(TARGET, idempotency_key='k'))
                newline = await a.call('move_arm_to_pose',
                                       dict(TARGET, idempotency_key='k2\n'))
    assert not first.get('isError'), _text(first)
    assert not again.get('isError') and 'Replayed' in _text(again), _text(again)
    assert not other.get('isError') and 'Replayed' not in _text(other), _text(other)
    assert newline.get('isError') and 'idempotency_key' in _text(newline), _text(newline)
    assert newline['_meta'][ERROR_META_KEY]['code'] == 'INVALID_ARGUMENTS'


@pytest.mark.parametrize('mode', MODES)
async def test_stopped_first_call_is_not_replayed_to_the_retry(mode: str) -> None:
    """The first call is stopped; a retry with its key moves and says how the first ended."""
    bridge, backend = make_bridge()
    backend.hold_motion = True
    args = dict(POSE_ARGS, idempotency_key='pick-1')
    async with Client(bridge.server, mode=mode) as client:
        with anyio.fail_after(20):
            async with anyio.create_task_group() as tg:
                calls = BackgroundCalls(tg, client)
                calls.start('first', 'move_arm_to_pose', args)
                await backend.motion_started.wait()
                await client.call_tool('stop_arm', {})
            backend.hold_motion = False
            retry = await client.call_tool('move_arm_to_pose', args)
    assert calls.results['first'].structured_content['status'] == 'STOPPED'
    assert not retry.is_error, text_of(retry)
    assert 'Replayed' not in text_of(retry) and 'ended STOPPED' in text_of(retry)
    assert [c[0] for c in backend.motion_calls] == ['move_to_pose', 'move_to_pose']


@pytest.mark.parametrize('mode', MODES)
async def test_cancelled_first_call_leaves_the_waiting_repeat_and_connection_alive(
        mode: str) -> None:
    """Cancel the first call while a repeat waits: the repeat gets an answer; calls go on."""
    bridge, backend = make_bridge()
    backend.hold_motion = True
    args = dict(POSE_ARGS, idempotency_key='slow-1')
    async with Client(bridge.server, mode=mode) as client:
        with anyio.fail_after(20):
            async with anyio.create_task_group() as tg:
                calls = BackgroundCalls(tg, client)
                scope = anyio.CancelScope()
                calls.start('first', 'move_arm_to_pose', args, scope)
                await backend.motion_started.wait()
                calls.start('repeat', 'move_arm_to_pose', args)
                await anyio.wait_all_tasks_blocked()
                scope.cancel()
            read = await client.call_tool('get_joint_states', {})
    repeat = calls.results['repeat']
    assert error_code(repeat) == 'FIRST_CALL_CANCELLED', text_of(repeat)
    assert not read.is_error, 'the connection still answers'
    assert [c[0] for c in backend.motion_calls] == ['move_to_pose']
