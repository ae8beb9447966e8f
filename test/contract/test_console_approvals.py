"""
Console approvals in both protocol generations: the first to decide, person or host, counts.

The bridge (recording backend) runs in memory with an operator console attached;
an operator's open stream (what a page holds) is opened on the console's hub.
The browser layer (test/browser) shows the same through the real page.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
from bridge_kit import APPROVAL_EDIT, copy_config, error_code, make_bridge, MODES, POSE_ARGS, \
    text_of
from mcp import Client
from mcp_ros_bridge.server.console.panel import Console
import mcp_types as types
import pytest

pytestmark = [pytest.mark.contract, pytest.mark.anyio]


async def _waiting(queue: Any) -> dict[str, Any]:
    """Return the first call the console shows as waiting."""
    while True:
        frame = await queue.get()
        kind, data = frame.split('\n')[0][7:], frame.split('\n')[1][6:]
        if kind == 'approvals' and json.loads(data)['waiting']:
            return dict(json.loads(data)['waiting'][0])


async def _waiting_id(queue: Any) -> str:
    """Return the id of the first call the console shows as waiting."""
    return str((await _waiting(queue))['id'])


@pytest.mark.parametrize('mode', MODES)
@pytest.mark.parametrize('person', [True, False], ids=['approves', 'denies'])
async def test_the_person_decides_before_the_host(mode: str, person: bool, tmp_path: Any) -> None:
    """The host answers the opposite only after the person decided: the person's word counts."""
    bridge, backend = make_bridge(copy_config(str(tmp_path / 'cfg'), APPROVAL_EDIT))
    console = Console(bridge, 10.0, 60.0, 'en')
    decided = anyio.Event()

    async def host(context: Any, request: types.ElicitRequestParams) -> types.ElicitResult:
        await decided.wait()
        return types.ElicitResult(action='accept', content={'approve': not person})

    result: list[types.CallToolResult] = []
    with anyio.fail_after(60):
        async with Client(bridge.server, mode=mode, elicitation_callback=host) as client, \
                console.hub.stream(operator=True) as queue, anyio.create_task_group() as tg:
            async def call() -> None:
                result.append(await client.call_tool('move_arm_to_pose', POSE_ARGS))
            tg.start_soon(call)
            waiting = await _waiting(queue)
            assert console.desk.settle(waiting['id'], person, 'operator (test)')
            decided.set()
    # the card shows the plan the person approves (the double plans 0.2 s, to the target)
    assert waiting['facts']['duration_s'] == 0.2, waiting
    assert waiting['facts']['target'] == 'x=0.500 y=0.000 z=0.300 m (panda_link0)', waiting
    moved = [name for name, _ in backend.motion_calls]
    if person:
        assert not result[0].is_error, text_of(result[0])
        assert moved == ['move_to_pose']
    else:
        assert error_code(result[0]) == 'NOT_APPROVED' and 'operator console' in \
            text_of(result[0])
        assert moved == [], 'a denied call changes nothing'
    console.close()


@pytest.mark.parametrize('mode', MODES)
async def test_the_host_decides_first_and_the_console_entry_goes(mode: str,
                                                                 tmp_path: Any) -> None:
    """The host declines while the person has not decided: denied, and the queue empties."""
    bridge, backend = make_bridge(copy_config(str(tmp_path / 'cfg'), APPROVAL_EDIT))
    console = Console(bridge, 10.0, 60.0, 'en')

    async def host(context: Any, request: types.ElicitRequestParams) -> types.ElicitResult:
        return types.ElicitResult(action='decline')

    with anyio.fail_after(60):
        async with Client(bridge.server, mode=mode, elicitation_callback=host) as client, \
                console.hub.stream(operator=True):
            result = await client.call_tool('move_arm_to_pose', POSE_ARGS)
    assert error_code(result) == 'NOT_APPROVED'
    assert backend.motion_calls == [] and console.desk.queue() == []
    console.close()


async def test_a_decision_counts_once_and_only_for_its_call(tmp_path: Any) -> None:
    """An unknown id changes nothing; the same id cannot be decided twice."""
    bridge, backend = make_bridge(copy_config(str(tmp_path / 'cfg'), APPROVAL_EDIT))
    console = Console(bridge, 10.0, 60.0, 'en')
    result: list[types.CallToolResult] = []
    with anyio.fail_after(60):
        async with Client(bridge.server) as client, \
                console.hub.stream(operator=True) as queue, anyio.create_task_group() as tg:
            async def call() -> None:
                result.append(await client.call_tool('move_arm_to_pose', POSE_ARGS))
            tg.start_soon(call)
            waiting = await _waiting_id(queue)
            assert not console.desk.settle('forged-id', True, 'someone')
            assert console.desk.settle(waiting, False, 'operator (test)')
            assert not console.desk.settle(waiting, True, 'operator (test)')
    assert error_code(result[0]) == 'NOT_APPROVED' and backend.motion_calls == []
    console.close()


@pytest.mark.parametrize('mode', MODES)
async def test_viewers_without_the_secret_neither_decide_nor_see_the_trail(
        mode: str, tmp_path: Any) -> None:
    """--approval-policy deny denies at once while only viewers are open; they get no audit."""
    bridge, backend = make_bridge(copy_config(str(tmp_path / 'cfg'), APPROVAL_EDIT))
    console = Console(bridge, 10.0, 60.0, 'en')
    with anyio.fail_after(60):
        async with Client(bridge.server, mode=mode) as client, \
                console.hub.stream(operator=False) as queue:
            assert not console.desk.present()
            result = await client.call_tool('move_arm_to_pose', POSE_ARGS)
            seen = [queue.get_nowait() for _ in range(queue.qsize())]
    assert error_code(result) == 'NOT_APPROVED' and backend.motion_calls == []
    assert seen and not any(f.startswith(('event: audit', 'event: image')) for f in seen)
    console.close()
