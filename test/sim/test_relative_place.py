"""place_object by intent: "8 cm toward the cylinder", "15 cm in front of it", from physics."""

import math

import anyio
from mcp import Client
from mcp_ros_bridge.contract.results import error_block
import numpy as np
import pytest
from sim_support import body_state

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.sim, pytest.mark.anyio]


def _xy(bridge, name: str) -> np.ndarray:
    """Return the body's x, y straight from the MuJoCo state (the base frame is the world's)."""
    return body_state(bridge, name)[0][:2]


def _arm(bridge) -> np.ndarray:
    w = bridge.backend.world
    return w.snapshot()[0][w.arm_qpos].copy()


async def _ok(c: Client, tool: str, args: dict) -> dict:
    r = await c.call_tool(tool, args)
    assert not r.is_error, (tool, r.content[0].text)
    return r.structured_content


def _toward(here: np.ndarray, there: np.ndarray, x: float, y: float) -> np.ndarray:
    u = (there - here) / np.linalg.norm(there - here)
    return here + x * u + y * np.array([-u[1], u[0]])


@pytest.mark.parametrize('x', [0.08, -0.05], ids=['toward', 'away'])
async def test_place_toward_another_object_lands_within_10_mm(sim_bridge, x):
    """{toward: cylinder, x}: the box lands x m along the line from where it is to the cylinder."""
    async with Client(sim_bridge.server, mode='legacy') as c:
        with anyio.fail_after(180):
            await _ok(c, 'pick_object', {'object': 'box'})
            held, cylinder = _xy(sim_bridge, 'box'), _xy(sim_bridge, 'cylinder')
            s = await _ok(c, 'place_object',
                          {'target': {'toward': 'cylinder', 'x': x, 'y': 0.0}})
    want = _toward(held, cylinder, x, 0.0)
    rest = _xy(sim_bridge, 'box')
    assert s['status'] == 'PLACED', s
    assert np.linalg.norm(rest - want) < 0.01, (rest, want)
    moved = float(np.dot(rest - held, (cylinder - held) / np.linalg.norm(cylinder - held)))
    assert moved == pytest.approx(x, abs=0.01)  # closer to (or farther from) the cylinder
    assert f'({want[0]:.3f}'[:5] in s['message'], s['message']  # the point it chose is said


async def test_place_from_another_object_counts_base_axes_from_its_centre(sim_bridge):
    """{from: cylinder, x: 0.15, y: -0.1}: the box lands 15 cm forward, 10 cm right of it."""
    async with Client(sim_bridge.server, mode='legacy') as c:
        with anyio.fail_after(180):
            await _ok(c, 'pick_object', {'object': 'box'})
            cylinder = _xy(sim_bridge, 'cylinder')
            s = await _ok(c, 'place_object', {'target': {'from': 'cylinder', 'x': 0.15,
                                                         'y': -0.1}})
    rest = _xy(sim_bridge, 'box')
    assert s['status'] == 'PLACED', s
    assert math.dist(rest, cylinder + (0.15, -0.1)) < 0.01, (rest, cylinder)


async def test_toward_the_held_object_itself_is_refused_and_nothing_moves(sim_bridge):
    """No direction from the box to the box: a fixable error naming the field; nothing moves."""
    async with Client(sim_bridge.server, mode='legacy') as c:
        with anyio.fail_after(180):
            await _ok(c, 'pick_object', {'object': 'box'})
            before, box = _arm(sim_bridge), _xy(sim_bridge, 'box')
            bad = await c.call_tool('place_object', {'target': {'toward': 'box', 'x': 0.05,
                                                                'y': 0.0}})
            still = await _ok(c, 'read_gripper_state', {})
    err = error_block(bad)
    assert bad.is_error and err['code'] == 'INVALID_ARGUMENTS', bad.content[0].text
    assert err['details']['field'] == 'target.toward'
    assert '"toward": "cylinder"' in err['details']['example']  # a valid call to copy
    assert 'PLACED' in bad.content[0].text  # what a corrected call returns
    assert np.allclose(before, _arm(sim_bridge), atol=1e-4)
    assert np.allclose(box, _xy(sim_bridge, 'box'), atol=1e-3)
    assert still['status'] == 'HOLDING'
