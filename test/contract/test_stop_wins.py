"""
Stop and deadman through the SDK's server: awaited, holding the arm, winning in any phase.

The recording double lets a test hold a motion or a stop open at will, so the
order of events is deterministic (no sleeps).
"""

from __future__ import annotations

import asyncio
from typing import Any

import anyio
from bridge_kit import (APPROVAL_EDIT, BackgroundCalls, copy_config, error_code, HOME,
                        make_bridge, MODES, POSE_ARGS, text_of)
from mcp import Client
from mcp_ros_bridge.contract.results import error_block
from mcp_ros_bridge.server.calls import CallSettings
import mcp_types as types
import pytest

pytestmark = [pytest.mark.contract, pytest.mark.anyio]


@pytest.mark.parametrize('mode', MODES)
async def test_cancelled_motion_holds_the_arm_until_the_stop_finished(mode: str) -> None:
    """A motion sent while the deadman stop runs waits for it; it reaches the backend after."""
    bridge, backend = make_bridge()
    backend.hold_motion = True
    backend.stop_gate = asyncio.Event()
    arbiter = bridge.pipeline.arbiter
    waiting = asyncio.Event()
    wait_idle = arbiter.wait_idle

    async def observed_wait_idle(timeout: float) -> bool:
        waiting.set()
        return await wait_idle(timeout)

    arbiter.wait_idle = observed_wait_idle  # type: ignore[method-assign]
    async with Client(bridge.server, mode=mode) as client:
        with anyio.fail_after(20):
            async with anyio.create_task_group() as tg:
                calls = BackgroundCalls(tg, client)
                scope = anyio.CancelScope()
                calls.start('move', 'move_arm_to_pose', POSE_ARGS, scope)
                await backend.motion_started.wait()
                scope.cancel()
                await backend.stop_entered.wait()
                backend.hold_motion = False
                calls.start('second', 'move_arm_joints', {'positions': HOME})
                await waiting.wait()  # the second call waits for the stopping motion
                assert 'second' not in calls.results
                assert [c[0] for c in backend.motion_calls] == ['move_to_pose']
                backend.stop_gate.set()
    second = calls.results['second']
    assert not second.is_error, text_of(second)
    order = [c[0] for c in backend.calls]
    assert order.index('stop_done') < order.index('move_to_joints'), order


@pytest.mark.parametrize('mode', MODES)
async def test_stop_arm_waits_for_the_arm_and_reports_the_stopped_motion(mode: str) -> None:
    """stop_arm answers only after the preempted motion let the arm go; the move says STOPPED."""
    bridge, backend = make_bridge()
    backend.hold_motion = True
    async with Client(bridge.server, mode=mode) as client:
        with anyio.fail_after(20):
            async with anyio.create_task_group() as tg:
                calls = BackgroundCalls(tg, client)
                calls.start('move', 'move_arm_to_pose', POSE_ARGS)
                await backend.motion_started.wait()
                stop = await client.call_tool('stop_arm', {})
                assert bridge.pipeline.arbiter.running is None
            idle = await client.call_tool('stop_arm', {})
    assert stop.structured_content['stopped_motion'] is True, text_of(stop)
    assert calls.results['move'].structured_content['status'] == 'STOPPED'
    assert idle.structured_content['stopped_motion'] is False, text_of(idle)


async def test_motion_approved_after_a_stop_does_not_start(tmp_path: Any) -> None:
    """Queued behind the user's approval: stop_arm meanwhile → the approved call never moves."""
    bridge, backend = make_bridge(copy_config(str(tmp_path / 'cfg'), APPROVAL_EDIT),
                                  CallSettings(motion_rate_per_s=1000.0, motion_burst=1000))
    asked, answer = anyio.Event(), anyio.Event()

    async def on_elicit(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.set()
        await answer.wait()
        return types.ElicitResult(action='accept', content={'approve': True})

    async with Client(bridge.server, mode='legacy', elicitation_callback=on_elicit) as client:
        with anyio.fail_after(20):
            async with anyio.create_task_group() as tg:
                calls = BackgroundCalls(tg, client)
                calls.start('move', 'move_arm_to_pose', POSE_ARGS)
                await asked.wait()
                stop = await client.call_tool('stop_arm', {})
                answer.set()
            later = await client.call_tool('move_arm_joints', {'positions': HOME})
    move = calls.results['move']
    assert move.is_error and error_code(move) == 'STOPPED', text_of(move)
    assert 'not started' in text_of(move) and 'stop_arm' in text_of(move)
    assert error_block(move)['details']['started'] is False
    assert stop.structured_content['stopped_motion'] is False
    assert not later.is_error, 'a call that arrives after the stop runs normally'
    assert [c[0] for c in backend.motion_calls] == ['move_to_joints']
