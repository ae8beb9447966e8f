"""plan_only on pick_object and place_object over MCP: the step plan or the failing step; still."""

import anyio
from mcp import Client
from mcp_ros_bridge.contract.results import error_block
import numpy as np
import pytest
from sim_support import world_state

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.sim, pytest.mark.anyio]
MODES = ['legacy', '2026-07-28']


def _still(before: np.ndarray, bridge) -> bool:
    # a held box settles in the fingers by a fraction of a millimetre; a step would move cm
    return bool(np.allclose(before, world_state(bridge), atol=2e-3))


@pytest.mark.parametrize('mode', MODES)
async def test_pick_plan_only_returns_the_step_plan_and_moves_nothing(sim_bridge, mode):
    """Each step with its fingertip target and how it was checked; arm, fingers, box still."""
    async with Client(sim_bridge.server, mode=mode) as c:
        with anyio.fail_after(120):
            before = world_state(sim_bridge)
            r = await c.call_tool('pick_object', {'object': 'box', 'plan_only': True})
            assert _still(before, sim_bridge), 'a plan_only pick moved something'
    assert not r.is_error, r.content[0].text
    s = r.structured_content
    assert s['status'] == 'PLANNED' and s['steps_done'] == [], s
    plan = {step['step']: step for step in s['plan']}
    assert list(plan) == ['open', 'above', 'descend', 'grasp', 'lift']
    assert plan['above']['check'] == 'planned' and plan['above']['duration_s'] > 0
    # every motion planned from where the one before would end, as the run will move
    assert plan['descend']['check'] == 'planned' and plan['lift']['check'] == 'planned'
    assert plan['descend']['duration_s'] > 0 and plan['grasp']['check'] == 'gripper'
    assert plan['descend']['target_m']['z'] == pytest.approx(s['grasp_z_m'], abs=1e-3)
    assert plan['above']['target_m']['z'] == pytest.approx(s['lifted_z_m'], abs=1e-3)
    assert 'nothing moved' in r.content[0].text and 'plan_only' in r.content[0].text


@pytest.mark.parametrize('mode', MODES)
async def test_place_plan_only_names_the_step_that_would_fail_and_moves_nothing(sim_bridge, mode):
    """Holding the box: out of reach fails at "carry" as the real run does; a good target plans."""
    async with Client(sim_bridge.server, mode=mode) as c:
        with anyio.fail_after(240):
            picked = await c.call_tool('pick_object', {'object': 'box'})
            assert not picked.is_error, picked.content[0].text
            before = world_state(sim_bridge)
            far = await c.call_tool('place_object', {'target': {'x': 0.85, 'y': 0.0},
                                                     'plan_only': True})
            good = await c.call_tool('place_object', {'target': {'x': 0.45, 'y': 0.2},
                                                      'plan_only': True})
            assert _still(before, sim_bridge), 'a plan_only place moved something'
            real = await c.call_tool('place_object', {'target': {'x': 0.85, 'y': 0.0}})
    assert far.is_error, far.content[0].text
    block = error_block(far)
    assert block['details']['failed_step'] == 'carry' and block['details']['plan_only'] is True
    assert block['details']['steps_done'] == [] and 'carrying' in far.content[0].text
    assert 'holding the box' in far.content[0].text  # what the state is: nothing happened
    # the real run fails at the same step with the same fixable error
    assert real.is_error and error_block(real)['details']['failed_step'] == 'carry'
    assert error_block(real)['code'] == block['code']
    assert not good.is_error, good.content[0].text
    steps = {step['step']: step for step in good.structured_content['plan']}
    assert list(steps) == ['lift', 'carry', 'descend', 'touch', 'release', 'retreat']
    assert steps['touch']['check'] == 'contact'
    assert steps['touch']['target_m']['z'] < steps['descend']['target_m']['z'] < \
        steps['carry']['target_m']['z']
