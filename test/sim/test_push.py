"""push_object over MCP on the simulation: displacement, tilt and refusals checked from physics."""

import math

import anyio
from mcp import Client
from mcp_ros_bridge.contract.results import error_block
import numpy as np
import pytest
from sim_support import body_state, calls_in_chinese, world_state

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.sim, pytest.mark.anyio]
MODES = ['legacy', '2026-07-28']


def _tilt_deg(quat):
    _, x, y, _ = quat / np.linalg.norm(quat)
    return math.degrees(math.acos(max(-1.0, min(1.0, 1.0 - 2.0 * (x * x + y * y)))))


@pytest.mark.parametrize('mode', MODES)
async def test_push_moves_the_cylinder_5_cm_and_leaves_it_upright(sim_bridge, mode):
    """Push the cylinder 5 cm forward: physics says 50 +- 10 mm along x, upright, box untouched."""
    steps = []

    async def progress(done, total, message):
        steps.append(message)

    start, _ = body_state(sim_bridge, 'cylinder')
    box, _ = body_state(sim_bridge, 'box')
    async with Client(sim_bridge.server, mode=mode) as c:
        with anyio.fail_after(180):
            r = await c.call_tool('push_object', {'object': 'cylinder', 'direction': 'forward',
                                                  'distance_m': 0.05},
                                  progress_callback=progress)
    assert not r.is_error, r.content[0].text
    s = r.structured_content
    end, quat = body_state(sim_bridge, 'cylinder')
    moved = end - start
    assert abs(moved[0] - 0.05) < 0.01 and abs(moved[1]) < 0.01, moved
    assert _tilt_deg(quat) < 5.0
    assert s['status'] == 'PUSHED' and abs(s['moved_m'] - moved[0]) < 0.001, s
    assert abs(s['lateral_m'] - moved[1]) < 0.001 and s['tilt_deg'] < 5.0
    assert 0.0 < s['push_force_n'] < 15.0  # within the default cap
    assert s['scene_changes'] == []  # the pushed cylinder is reported as moved_m, not here
    assert np.allclose(body_state(sim_bridge, 'box')[0], box, atol=1e-4)
    assert s['steps_done'][-1] == 'verify' and 'PUSHED the cylinder' in r.content[0].text
    assert any(m.startswith('pushing') for m in steps), steps


@pytest.mark.parametrize('mode', MODES)
async def test_push_into_another_object_or_too_far_is_refused_and_nothing_moves(
        sim_bridge, mode):
    """The box set beside the cylinder: pushing it right into the box, or 5 m, moves nothing."""
    async with Client(sim_bridge.server, mode=mode) as c:
        with anyio.fail_after(240):
            for tool, args in (('pick_object', {'object': 'box'}),
                               ('place_object', {'target': {'x': 0.3, 'y': 0.2}})):
                assert not (await c.call_tool(tool, args)).is_error
            before = world_state(sim_bridge)
            into = await c.call_tool('push_object', {'object': 'cylinder',
                                                     'direction': 'right', 'distance_m': 0.1})
            far = await c.call_tool('push_object', {'object': 'cylinder',
                                                    'direction': 'left', 'distance_m': 5})
            after = world_state(sim_bridge)
    text = into.content[0].text
    assert into.is_error and error_block(into)['details']['field'] == 'direction', text
    details = error_block(into)['details']
    assert 'box' in text and 'right' not in details['allowed'] and 'left' in details['allowed']
    assert '"direction": "forward"' in details['example'] and 'PUSHED' in text
    assert far.is_error and error_block(far)['details']['fields'] == ['distance_m']
    assert '0.2' in far.content[0].text and 'PUSHED' in far.content[0].text
    assert np.allclose(before, after, atol=1e-4)


async def test_a_force_cap_below_the_friction_stops_the_push_and_says_so(sim_bridge):
    """max_force_n 1 N, below the cylinder's 1.5 N of sliding friction: FORCE_CAP, arm still."""
    start, _ = body_state(sim_bridge, 'cylinder')
    async with Client(sim_bridge.server, mode='legacy') as c:
        with anyio.fail_after(180):
            r = await c.call_tool('push_object', {'object': 'cylinder', 'direction': 'forward',
                                                  'distance_m': 0.05, 'max_force_n': 1})
    text = r.content[0].text
    assert r.is_error and error_block(r)['code'] == 'FORCE_CAP', text
    s = r.structured_content
    assert s['status'] == 'FAILED' and s['failed_step'] == 'push' and s['push_force_n'] > 1.0
    assert 'max_force_n' in text and 'descending' in text  # what already happened
    end, quat = body_state(sim_bridge, 'cylinder')
    assert abs(s['moved_m'] - (end - start)[0]) < 0.001 and (end - start)[0] < 0.01
    assert _tilt_deg(quat) < 5.0
    assert float(np.abs(sim_bridge.backend.world.qvel_arm).max()) < 0.02


async def test_a_push_that_tips_the_object_says_so_and_names_the_other_object_moved(
        sim_bridge):
    """The cylinder stacked on the box, pushed off it: TIPPED, tilt; the box is a scene change."""
    async with Client(sim_bridge.server, mode='2026-07-28') as c:
        with anyio.fail_after(240):
            for tool, args in (('pick_object', {'object': 'cylinder'}),
                               ('place_object', {'on': 'box'})):
                assert not (await c.call_tool(tool, args)).is_error
            box, _ = body_state(sim_bridge, 'box')
            r = await c.call_tool('push_object', {'object': 'cylinder', 'direction': 'forward',
                                                  'distance_m': 0.06, 'max_force_n': 40})
    s, text = r.structured_content, r.content[0].text
    _, quat = body_state(sim_bridge, 'cylinder')
    assert r.is_error and s['status'] == 'TIPPED', text
    assert _tilt_deg(quat) > 5.0 and abs(s['tilt_deg'] - _tilt_deg(quat)) < 1.0, s
    assert f"tilted {s['tilt_deg']:g} deg" in text
    moved = {c['object']: c for c in s['scene_changes']}
    assert 'cylinder' not in moved  # the pushed object is reported by the push itself
    box_moved = 1000 * math.dist(body_state(sim_bridge, 'box')[0], box)
    assert box_moved > 5.0 and abs(moved['box']['moved_mm'] - box_moved) < 1.0, (s, box_moved)
    assert 'The box (not held) moved' in text


async def test_push_texts_in_chinese():
    """Under --lang zh the push report reads Chinese with the same numbers."""
    push = {'object': 'box', 'direction': 'left', 'distance_m': 0.03}
    (r,) = await calls_in_chinese([('push_object', push)])
    assert not r.is_error, r.content[0].text
    assert r.content[0].text.startswith('PUSHED：box 移动了'), r.content[0].text


async def test_a_push_over_the_tables_edge_is_never_pushed(sim_bridge):
    """
    The box 80 mm from the table's left edge (y 0.8 m), pushed 120 mm left: never PUSHED.

    At the edge the box either drops (FELL, how far from physics) or wedges on the edge's
    corner until the force cap stops the push (FORCE_CAP, the box at the edge); which one
    varies from run to run, and the result says which happened.
    """
    async with Client(sim_bridge.server, mode='legacy') as c:
        with anyio.fail_after(240):
            for tool, args in (('pick_object', {'object': 'box'}),
                               ('place_object', {'target': {'x': 0.3, 'y': 0.72}})):
                r = await c.call_tool(tool, args)
                assert not r.is_error, r.content[0].text
            start, _ = body_state(sim_bridge, 'box')
            r = await c.call_tool('push_object', {'object': 'box', 'direction': 'left',
                                                  'distance_m': 0.12, 'max_force_n': 30})
    end, _ = body_state(sim_bridge, 'box')
    s, text = r.structured_content, r.content[0].text
    assert r.is_error and s['status'] != 'PUSHED', text
    code = error_block(r)['code']
    if end[2] < start[2] - 0.3:  # it fell to the floor
        assert code == 'FELL' and s['status'] == 'FELL', text
        assert s['dropped_m'] == pytest.approx(start[2] - end[2], abs=0.002)
        assert 'fell off the table' in text
    else:  # it stands at the edge: its centre still over the table
        assert code == 'FORCE_CAP' and 0.77 < end[1] <= 0.8, (end, text)
        assert s['moved_m'] == pytest.approx(end[1] - start[1], abs=0.002), s
