"""
Approving a motion approves its plan: the question quotes the plan, and that plan is what runs.

On the simulation, with the single-plan motions marked ``requires_approval``:
the duration and peak fingertip speed the user is asked about are compared
with the executed motion (its reported duration; its peak speed measured from
the fingertip sampled at every physics step by a probe on the world's stepping
thread). The approved call plans once (a 2026-07-28 retry runs the plan its
request showed), an answer sent back on other arguments is rejected (the request
state is sealed to its request), and a plan the arm has left since it was shown
is refused (STALE_PLAN); nothing moves.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
import re
from typing import Any

import anyio
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp_ros_bridge.contract.results import error_block
import mcp_types as types
import numpy as np
import pytest
from sim_support import approving, approving_bridge, TipProbe, world_state

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.sim, pytest.mark.anyio]
MODES = ['legacy', '2026-07-28']
DOWN = {'roll': 180, 'pitch': 0, 'yaw': 0}
APPROVED = ('move_to_pose', 'move_to_joints', 'relative_move')
CARD = re.compile(r'The plan: ([\d.]+) s, fingertip up to (\d+) mm/s along ([\d.]+) m')
MOVES = [('move_arm_to_pose', {'position': {'x': 0.35, 'y': 0.3, 'z': 0.25},
                               'orientation': DOWN, 'velocity_scaling': 0.5}),
         ('move_arm_joints', {'positions': [-0.6, -0.3, 0.2, -2.0, 0.1, 1.9, 0.5],
                              'velocity_scaling': 0.3}),
         ('move_arm_relative', {'offset': {'x': 0.1, 'z': -0.1}})]


@pytest.fixture
async def bridge(tmp_path: Any) -> AsyncIterator[Any]:
    """Serve a fast simulation whose single-plan motions ask for approval."""
    async with approving_bridge(str(tmp_path / 'cfg'), APPROVED) as served:
        yield served


def _counting_plans(bridge: Any) -> list[Any]:
    """Count the simulation's plan() calls (a spy on the port, not a double)."""
    sim, planned = bridge.pipeline.raw_backend, []
    original = sim.plan

    async def plan(goal: Any, start: Any = None) -> Any:
        planned.append(goal)
        return await original(goal, start)
    sim.plan = plan
    return planned


@pytest.mark.parametrize('mode', MODES)
async def test_the_question_quotes_the_plan_that_then_runs(bridge: Any, mode: str) -> None:
    """Duration and peak tip speed asked about: within 20 % of the executed motion's."""
    asked: list[str] = []
    accept = approving(asked)

    planned = _counting_plans(bridge)
    world = bridge.backend.world
    async with Client(bridge.server, mode=mode, elicitation_callback=accept) as client:
        with anyio.fail_after(240):
            for tool, args in MOVES:
                probe = TipProbe(world)
                world.submit(probe)
                before = len(planned)
                result = await client.call_tool(tool, args)
                await probe.finish()
                assert not result.is_error, result.content[0].text
                assert len(planned) == before + 1, f'{tool}: planned once, asked, then run'
                card = CARD.search(asked[-1])
                assert card, asked[-1]
                duration, speed_mms = float(card.group(1)), float(card.group(2))
                ran = result.structured_content
                assert ran['duration_s'] == pytest.approx(duration, rel=0.2), (tool, asked[-1])
                measured = probe.peak_speed()
                assert speed_mms / 1000 == pytest.approx(measured, rel=0.2), (tool, measured)
    assert len(asked) == len(MOVES)


async def test_an_answer_on_other_arguments_or_a_left_start_is_refused(bridge: Any) -> None:
    """2026-07-28: the answer on other arguments: rejected; after the arm moved: STALE."""
    accept = {'approval': types.ElicitResult(action='accept', content={'approve': True})}
    asked_for = {'position': {'x': 0.4, 'y': 0.1, 'z': 0.3}, 'orientation': DOWN}
    other = {'position': {'x': 0.3, 'y': -0.3, 'z': 0.2}, 'orientation': DOWN}
    planned = _counting_plans(bridge)

    async def never(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        raise AssertionError('this test answers the requests itself')
    async with Client(bridge.server, mode='2026-07-28', elicitation_callback=never) as client:
        with anyio.fail_after(240):
            session = client.session
            first = await session.call_tool('move_arm_to_pose', asked_for,
                                            allow_input_required=True)
            assert isinstance(first, types.InputRequiredResult), first
            assert len(planned) == 1
            before = world_state(bridge)
            with pytest.raises(MCPError, match='requestState'):
                await session.call_tool('move_arm_to_pose', other, input_responses=accept,
                                        request_state=first.request_state,
                                        allow_input_required=True)
            assert np.allclose(before, world_state(bridge), atol=1e-4), 'the forged answer moved'

            second = await session.call_tool('move_arm_to_pose', asked_for,
                                             allow_input_required=True)
            assert isinstance(second, types.InputRequiredResult)
            moved = await client.call_tool('move_arm_to_posture', {'posture': 'ready'})
            assert not moved.is_error, moved.content[0].text
            elsewhere = world_state(bridge)
            stale = await session.call_tool('move_arm_to_pose', asked_for,
                                            input_responses=accept,
                                            request_state=second.request_state,
                                            allow_input_required=True)
            assert isinstance(stale, types.CallToolResult) and stale.is_error
            assert error_block(stale)['code'] == 'STALE_PLAN', stale.content[0].text
            assert np.allclose(elsewhere, world_state(bridge), atol=1e-3), 'a stale plan moved'
