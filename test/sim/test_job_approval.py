"""
Approving a job shows its chain of arm plans, made before anyone is asked.

On the simulation, with ``pick_object`` and ``place_object`` marked
``requires_approval``: the question quotes the job's arm motions, each planned
from where the one before ends (count, time in all, peak fingertip speed). They
are compared with the pick as it ran: its arm time and peak fingertip speed
measured at every physics step by a probe on the world's stepping thread. A
job whose preview fails is answered at once with the run's error; nobody is
asked and nothing moves.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
import re
from typing import Any

import anyio
from mcp import Client
from mcp_ros_bridge.contract.results import error_block
import numpy as np
import pytest
from sim_support import approving, approving_bridge, TipProbe, world_state

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.sim, pytest.mark.anyio]
MODES = ['legacy', '2026-07-28']
JOB = re.compile(r"The job's (\d+) arm motions, each planned from where the one before ends: "
                 r'([\d.]+) s in all, fingertip up to (\d+) mm/s along ([\d.]+) m')


@pytest.fixture
async def bridge(tmp_path: Any) -> AsyncIterator[Any]:
    """Serve a fast simulation whose pick and place ask for approval."""
    async with approving_bridge(str(tmp_path / 'cfg'), ('pick_object', 'place_object')) as served:
        yield served


def _arm_time_s(probe: TipProbe, world: Any) -> float:
    """Return how long the arm moved while the probe ran: its samples times the time step."""
    return len(probe.samples) * float(world.model.opt.timestep)


@pytest.mark.parametrize('mode', MODES)
async def test_the_question_quotes_the_chain_of_the_pick_that_then_runs(
        bridge: Any, mode: str) -> None:
    """Motions, arm time and peak tip speed asked about: within 25 % of the pick as it ran."""
    asked: list[str] = []
    accept = approving(asked)

    world = bridge.backend.world
    async with Client(bridge.server, mode=mode, elicitation_callback=accept) as client:
        with anyio.fail_after(240):
            preview = await client.call_tool('pick_object', {'object': 'box', 'plan_only': True})
            assert not preview.is_error, preview.content[0].text
            asked.clear()  # the preview asks too (on the arguments: it has no chain yet)
            planned = [s for s in preview.structured_content['plan'] if s['check'] == 'planned']
            probe = TipProbe(world)
            world.submit(probe)
            picked = await client.call_tool('pick_object', {'object': 'box'})
            await probe.finish()
    assert not picked.is_error, picked.content[0].text
    assert len(asked) == 1 and 'Object: the box.' in asked[0], asked
    card = JOB.search(asked[0])
    assert card, asked[0]
    motions, duration = int(card.group(1)), float(card.group(2))
    assert motions == len(planned) == 3  # above, descend, lift
    assert picked.structured_content['plans_run_as_approved'] == 3  # the plans asked about
    assert duration == pytest.approx(sum(s['duration_s'] for s in planned), abs=0.02)
    assert duration == pytest.approx(_arm_time_s(probe, world), rel=0.25), asked[0]
    assert float(card.group(3)) / 1000 == pytest.approx(probe.peak_speed(), rel=0.25)


async def test_an_approved_place_runs_its_plans_and_plans_the_retreat_after_the_touch(
        bridge: Any) -> None:
    """Each placing motion runs its approved plan, but the retreat: the touch moved the arm."""
    asked: list[str] = []
    async with Client(bridge.server, elicitation_callback=approving(asked)) as client:
        with anyio.fail_after(240):
            picked = await client.call_tool('pick_object', {'object': 'box'})
            assert not picked.is_error, picked.content[0].text
            placed = await client.call_tool('place_object', {'target': {'x': 0.4, 'y': 0.1}})
    assert not placed.is_error, placed.content[0].text
    card = JOB.search(asked[-1])
    assert card, asked[-1]
    assert placed.structured_content['plans_run_as_approved'] == int(card.group(1)) - 1


class ApprovingDesk:
    """A person at the console who approves every card and keeps its facts."""

    def __init__(self) -> None:
        """Start with no card seen."""
        self.cards: list[tuple[str, dict[str, Any] | None]] = []

    def present(self) -> bool:
        """Return True: the person is there."""
        return True

    async def decide(self, tool: str, message: str,
                     facts: dict[str, Any] | None = None) -> None:
        """Approve, keeping the card."""
        self.cards.append((message, facts))

    def offer(self, state: str, tool: str, message: str,
              facts: dict[str, Any] | None = None) -> None:
        """Keep an offered card."""
        self.cards.append((message, facts))

    def ruling(self, state: str) -> bool:
        """Return False: the host answers."""
        return False


async def test_the_console_card_shows_the_chain(bridge: Any) -> None:
    """The person's card gets the chain's facts (motions, time, peak speed, object)."""
    desk = ApprovingDesk()
    bridge.pipeline.desk = desk
    async with Client(bridge.server) as client:  # no elicitation: the console decides
        with anyio.fail_after(240):
            picked = await client.call_tool('pick_object', {'object': 'box'})
    assert not picked.is_error, picked.content[0].text
    [(message, facts)] = desk.cards
    assert facts is not None and facts['motions'] == 3 and facts['object'] == 'box', facts
    card = JOB.search(message)
    assert card and float(card.group(2)) == pytest.approx(facts['duration_s'], abs=0.01)
    assert float(card.group(3)) == pytest.approx(facts['peak_tip_speed_mps'] * 1000, abs=1)


@pytest.mark.parametrize('mode', MODES)
async def test_a_job_that_cannot_run_is_answered_without_asking(bridge: Any, mode: str) -> None:
    """place_object with an empty hand: NOT_HOLDING at once, nobody asked, nothing moved."""
    asked: list[str] = []
    accept = approving(asked)

    before = world_state(bridge)
    async with Client(bridge.server, mode=mode, elicitation_callback=accept) as client:
        with anyio.fail_after(120):
            placed = await client.call_tool('place_object', {'target': {'x': 0.4, 'y': 0.1}})
    assert placed.is_error and error_block(placed)['code'] == 'NOT_HOLDING', placed.content
    assert not asked
    assert np.allclose(before, world_state(bridge), atol=1e-4), 'a refused job moved'
