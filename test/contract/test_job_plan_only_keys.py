"""plan_only on the jobs neither uses nor consumes an idempotency key (both generations)."""

import anyio
from mcp import Client
import numpy as np
import pytest

pytest.importorskip('mujoco', reason='the jobs are checked on the simulation (needs mujoco)')
pytestmark = [pytest.mark.contract, pytest.mark.anyio]
MODES = ['legacy', '2026-07-28']


def _box_z(bridge) -> float:
    w = bridge.backend.world
    adr = w.model.jnt_qposadr[w.model.body_jntadr[w.model.body('box').id]]
    return float(w.snapshot()[0][adr + 2])


@pytest.mark.parametrize('mode', MODES)
async def test_pick_plan_only_with_a_key_leaves_the_key_to_the_real_pick(sim_bridge, mode):
    """Preview with key k, pick with k (moves), repeat k (replays), preview with k (plans)."""
    args = {'object': 'box', 'idempotency_key': 'pick-box-1'}
    w = sim_bridge.backend.world
    async with Client(sim_bridge.server, mode=mode) as c:
        with anyio.fail_after(180):
            before = w.snapshot()[0].copy()
            plan = await c.call_tool('pick_object', dict(args, plan_only=True))
            assert np.allclose(before, w.snapshot()[0], atol=1e-4), 'the preview moved'
            real = await c.call_tool('pick_object', args)
            lifted = _box_z(sim_bridge)
            again = await c.call_tool('pick_object', args)
            plan_after = await c.call_tool('pick_object', dict(args, plan_only=True))
    assert plan.structured_content['status'] == 'PLANNED', plan.content[0].text
    assert not real.is_error and real.structured_content['status'] == 'HOLDING'
    assert lifted > 0.1, lifted  # the real pick lifted the box (physics)
    assert again.structured_content == real.structured_content, 'the repeat replays'
    assert abs(_box_z(sim_bridge) - lifted) < 0.002, 'the repeat did not move'
    # the preview after the pick checks afresh: holding now, so it is refused as the run would be
    assert plan_after.is_error and 'already holds the box' in plan_after.content[0].text
