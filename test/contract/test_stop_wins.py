"""
Stop and deadman through the SDK's server: awaited, holding the arm, winning in any phase.

The recording double lets a test hold a motion or a stop open at will, so the
order of events is deterministic (no sleeps).
"""

from __future__ import annotations

import asyncio
from typing import Any

import anyio
from bridge_kit import (APPROVAL_EDIT, copy_config, error_code, HOME, make_bridge, MODES,
                        POSE_ARGS, text_of)
from mcp import Client
from mcp_ros_bridge.contract.results import error_block
from mcp_ros_bridge.server.calls import CallSettings
import mcp_types as types
import pytest

pytestmark = [pytest.mark.contract, pytest.mark.anyio]


@pytest.mark.parametrize('mode', MODES)
async def test_cancelled_motion_holds_the_arm_until_the_stop_finished(mode: str) -> None:
    """A second motion sent while the deadman stop runs is BUSY; it never reaches the backend."""
    bridge, backend = make_bridge()
    backend.hold_motion = True
    backend.stop_gate = asyncio.Event()
    async with Client(bridge.server, mode=mode) as client:
        with anyio.fail_after(20):
            async with anyio.create_task_group() as tg:
                scope = anyio.CancelScope()

                async def move() -> None:
                    with scope:
                        await client.call_tool('move_arm_to_pose', POSE_ARGS)

                tg.start_soon(move)
                await backend.motion_started.wait()
                scope.cancel()
                await backend.stop_entered.wait()
                second = await client.call_tool('move_arm_joints', {'positions': HOME})
                assert error_code(second) == 'BUSY', text_of(second)
                assert [c[0] for c in backend.motion_calls] == ['move_to_pose']
                backend.stop_gate.set()
            assert await bridge.pipeline.arbiter.wait_idle(10)
            assert backend.calls.index(('stop_done', None)) < len(backend.calls)
            backend.hold_motion = False
            third = await client.call_tool('move_arm_joints', {'positions': HOME})
    assert not third.is_error, text_of(third)


@pytest.mark.parametrize('mode', MODES)
async def test_stop_arm_waits_for_the_arm_and_reports_the_stopped_motion(mode: str) -> None:
    """stop_arm answers only after the preempted motion let the arm go; the move says STOPPED."""
    bridge, backend = make_bridge()
    backend.hold_motion = True
    results: dict[str, types.CallToolResult] = {}
    async with Client(bridge.server, mode=mode) as client:
        with anyio.fail_after(20):
            async with anyio.create_task_group() as tg:
                async def move() -> None:
                    results['move'] = await client.call_tool('move_arm_to_pose', POSE_ARGS)

                tg.start_soon(move)
                await backend.motion_started.wait()
                stop = await client.call_tool('stop_arm', {})
                assert bridge.pipeline.arbiter.running is None
            idle = await client.call_tool('stop_arm', {})
    assert stop.structured_content['stopped_motion'] is True, text_of(stop)
    assert results['move'].structured_content['status'] == 'STOPPED'
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

    results: dict[str, types.CallToolResult] = {}
    async with Client(bridge.server, mode='legacy', elicitation_callback=on_elicit) as client:
        with anyio.fail_after(20):
            async with anyio.create_task_group() as tg:
                async def move() -> None:
                    results['move'] = await client.call_tool('move_arm_to_pose', POSE_ARGS)

                tg.start_soon(move)
                await asked.wait()
                stop = await client.call_tool('stop_arm', {})
                answer.set()
            later = await client.call_tool('move_arm_joints', {'positions': HOME})
    move = results['move']
    assert move.is_error and error_code(move) == 'STOPPED', text_of(move)
    assert 'not started' in text_of(move) and 'stop_arm' in text_of(move)
    assert error_block(move)['details']['started'] is False
    assert stop.structured_content['stopped_motion'] is False
    assert not later.is_error, 'a call that arrives after the stop runs normally'
    assert [c[0] for c in backend.motion_calls] == ['move_to_joints']
