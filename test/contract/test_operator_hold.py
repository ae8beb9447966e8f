"""
The operator's hold in both protocol generations and both languages: only a person lifts it.

The console's STOP (the same call the page's button makes) holds the arm; every
motion is then OPERATOR_HOLD, read-only tools still answer, the agent's own
stop_arm does not lift it, and after the console's release a motion runs again.
"""

from __future__ import annotations

from typing import Any

import anyio
from bridge_kit import error_code, make_bridge, MODES, POSE_ARGS, text_of
from mcp import Client
from mcp_ros_bridge.server.calls import CallSettings
from mcp_ros_bridge.server.console.panel import Console
import pytest

pytestmark = [pytest.mark.contract, pytest.mark.anyio]


@pytest.mark.parametrize('mode', MODES)
@pytest.mark.parametrize(('lang', 'names'), [('en', 'OPERATOR_HOLD'), ('zh', '操作员')])
async def test_hold_refuses_motions_until_the_person_releases(mode: str, lang: str,
                                                              names: str) -> None:
    """OPERATOR_HOLD names the hold; stop_arm keeps it; the console's release ends it."""
    bridge, backend = make_bridge(settings=CallSettings(motion_rate_per_s=1000.0,
                                                        motion_burst=1000, lang=lang))
    console = Console(bridge, 10.0, 60.0, lang)
    with anyio.fail_after(60):
        async with Client(bridge.server, mode=mode) as client:
            stopped = await console.stop('operator (test)')
            held = await client.call_tool('move_arm_to_pose', POSE_ARGS)
            read = await client.call_tool('get_joint_states', {})
            await client.call_tool('stop_arm', {})
            still = await client.call_tool('move_arm_to_pose', POSE_ARGS)
            assert console.release('operator (test)')
            assert not console.release('operator (test)'), 'nothing left to release'
            moved = await client.call_tool('move_arm_to_pose', POSE_ARGS)
    assert stopped['released'] and not stopped['stopped_motion']
    assert error_code(held) == 'OPERATOR_HOLD' and names in text_of(held)
    assert 'OPERATOR_HOLD' in text_of(held) and 'move_arm_to_pose' in text_of(held)
    assert not read.is_error
    assert error_code(still) == 'OPERATOR_HOLD', 'the agent cannot release the hold'
    assert not moved.is_error, text_of(moved)
    assert [name for name, _ in backend.motion_calls] == ['move_to_pose']
    console.close()


async def test_stop_mid_motion_ends_the_motion_and_holds() -> None:
    """The console's STOP preempts a running motion as stop_arm does (STOPPED), then holds."""
    bridge, backend = make_bridge()
    backend.hold_motion = True
    console = Console(bridge, 10.0, 60.0, 'en')
    result: list[Any] = []
    with anyio.fail_after(60):
        async with Client(bridge.server) as client, anyio.create_task_group() as tg:
            async def move() -> None:
                result.append(await client.call_tool('move_arm_to_pose', POSE_ARGS))
            tg.start_soon(move)
            await backend.motion_started.wait()
            stopped = await console.stop('operator (test)')
    assert stopped['stopped_motion'] and stopped['released']
    assert backend.stopped.is_set(), 'the backend was told to stop'
    assert error_code(result[0]) == 'STOPPED' and 'operator console' in text_of(result[0])
    assert bridge.pipeline.arbiter.held_since is not None and bridge.pipeline.arbiter.running \
        is None
    console.close()
