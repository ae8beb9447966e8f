"""
plan_only → plan_id → execute_plan over MCP on the simulation, in both protocol generations.

The kept plan runs as planned (its measured duration within 20 % of the plan's);
the same id again, an expired id and an id planned before the arm moved are
refused naming why, with nothing moved.
"""

import re

import anyio
import contract_kits  # noqa: F401 - puts bridge_kit on the path
from bridge_kit import copy_config  # noqa: I100 - on that path
from mcp import Client
from mcp_ros_bridge.contract.results import error_block
from mcp_ros_bridge.safety.ratelimit import RateLimiter
import numpy as np
import pytest
from sim_support import world_state

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.sim, pytest.mark.anyio]
MODES = ['legacy', '2026-07-28']
DOWN = {'roll': 180, 'pitch': 0, 'yaw': 0}


def _pose(x: float, y: float, z: float, **extra) -> dict:
    return {'position': {'x': x, 'y': y, 'z': z}, 'orientation': DOWN, **extra}


@pytest.fixture
def bridge(sim_bridge):
    """Return the fast simulation without the rate limit (the calls are quick)."""
    sim_bridge.pipeline.rate = RateLimiter(1000.0, 1000)
    return sim_bridge


@pytest.mark.parametrize('mode', MODES)
async def test_a_kept_plan_runs_once_as_planned(bridge, mode):
    """The plan's facts, then its run: duration within 20 %, at the target; again: refused."""
    async with Client(bridge.server, mode=mode) as c:
        with anyio.fail_after(180):
            before = world_state(bridge)
            planned = await c.call_tool('move_arm_to_pose',
                                        _pose(0.4, 0.15, 0.3, plan_only=True))
            assert np.allclose(before, world_state(bridge), atol=1e-4), 'plan_only moved'
            s = planned.structured_content
            assert s['status'] == 'PLANNED' and s['plan_id'].startswith('plan-'), s
            facts = s['plan']
            assert facts['target_m'] == {'x': 0.4, 'y': 0.15, 'z': 0.3}
            assert facts['duration_s'] > 0 and facts['peak_tip_speed_mps'] > 0
            assert s['plan_id'] in planned.content[0].text
            ran = await c.call_tool('execute_plan', {'plan_id': s['plan_id']})
            assert not ran.is_error, ran.content[0].text
            after = world_state(bridge)
            again = await c.call_tool('execute_plan', {'plan_id': s['plan_id']})
            assert np.allclose(after, world_state(bridge), atol=1e-4), 'a used plan moved'
    r = ran.structured_content
    assert r['status'] == 'SUCCEEDED' and r['position_error_mm'] < 2.0, r
    assert r['duration_s'] == pytest.approx(facts['duration_s'], rel=0.2)
    assert again.is_error and error_block(again)['code'] == 'PLAN_USED'
    assert 'nothing moved' in again.content[0].text


@pytest.mark.parametrize('mode', MODES)
async def test_an_expired_or_stale_plan_is_refused_and_nothing_moves(bridge, mode):
    """Past its TTL: PLAN_EXPIRED; planned before another move: STALE_PLAN; unknown: refused."""
    async with Client(bridge.server, mode=mode) as c:
        with anyio.fail_after(180):
            first = await c.call_tool('move_arm_to_pose', _pose(0.4, -0.1, 0.3, plan_only=True))
            second = await c.call_tool('move_arm_to_pose', _pose(0.35, 0.1, 0.35,
                                                                 plan_only=True))
            store = bridge.pipeline.memory.plans
            clock = store.clock
            store.clock = lambda: clock() + store.ttl_s + 1.0  # the TTL has passed
            before = world_state(bridge)
            expired = await c.call_tool('execute_plan',
                                        {'plan_id': first.structured_content['plan_id']})
            assert np.allclose(before, world_state(bridge), atol=1e-4), 'an expired plan moved'
            store.clock = clock
            moved = await c.call_tool('move_arm_to_pose', _pose(0.45, 0.0, 0.25))
            assert not moved.is_error, moved.content[0].text
            before = world_state(bridge)
            stale = await c.call_tool('execute_plan',
                                      {'plan_id': second.structured_content['plan_id']})
            unknown = await c.call_tool('execute_plan', {'plan_id': 'plan-0123'})
            assert np.allclose(before, world_state(bridge), atol=1e-4), 'a stale plan moved'
    assert error_block(expired)['code'] == 'PLAN_EXPIRED', expired.content[0].text
    assert error_block(stale)['code'] == 'STALE_PLAN', stale.content[0].text
    assert 'no longer starts where the arm is' in stale.content[0].text
    assert error_block(unknown)['code'] == 'PLAN_UNKNOWN'


@pytest.mark.parametrize('mode', MODES)
async def test_the_approval_quotes_the_plan_and_the_run_matches_it(tmp_path, mode):
    """Approving a kept plan shows its duration, peak tip speed and target; the run keeps them."""
    from mcp import types
    from mcp_ros_bridge.server.app import build, ServeOptions
    cfg = copy_config(str(tmp_path / 'cfg'), {
        '    kind: execute_plan\n': '    kind: execute_plan\n    requires_approval: true\n'})
    asked: list[str] = []

    async def approve(context, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action='accept', content={'approve': True})
    bridge, backend = await build(ServeOptions(config_dir=cfg, sim_speed=0, watch=False))
    try:
        async with Client(bridge.server, mode=mode, elicitation_callback=approve) as c:
            with anyio.fail_after(180):
                planned = await c.call_tool('move_arm_to_pose',
                                            _pose(0.42, -0.12, 0.32, plan_only=True))
                facts = planned.structured_content['plan']
                ran = await c.call_tool('execute_plan',
                                        {'plan_id': planned.structured_content['plan_id']})
    finally:
        await backend.close()
    assert not ran.is_error, ran.content[0].text
    assert len(asked) == 1 and 'x=0.420 y=-0.120 z=0.320' in asked[0], asked
    quoted = re.search(r'The plan: ([0-9.]+) s, fingertip up to ([0-9]+) mm/s', asked[0])
    assert quoted, asked[0]
    seconds, mm_s = float(quoted.group(1)), float(quoted.group(2))
    assert seconds == pytest.approx(facts['duration_s'], abs=0.01)
    assert mm_s == pytest.approx(facts['peak_tip_speed_mps'] * 1000, abs=1.0)
    r = ran.structured_content
    assert r['duration_s'] == pytest.approx(seconds, rel=0.2)  # what the person approved ran
    # the mean speed of the executed tip path stays below the quoted peak
    assert r['path_length_m'] / r['duration_s'] * 1000 <= mm_s
