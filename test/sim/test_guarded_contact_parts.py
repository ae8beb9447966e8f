"""What touched what in a guarded move, over MCP on the simulation: fingers, or the hand's side."""

import math

import anyio
from mcp import Client
from mcp_ros_bridge.contract.results import error_block
import pytest

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.sim, pytest.mark.anyio]
MODES = ['legacy', '2026-07-28']


async def _down_from(c: Client, x: float, y: float, z: float, **args):
    moved = await c.call_tool('move_arm_to_pose', {'position': {'x': x, 'y': y, 'z': z}})
    assert not moved.is_error, moved.content[0].text
    return await c.call_tool('move_until_contact', {'direction': 'down', **args})


@pytest.mark.parametrize('mode', MODES)
async def test_the_hand_coming_down_on_the_cylinder_is_a_hand_contact(sim_bridge, mode):
    """The open fingers straddle the cylinder: the hand body touches it, an error that says so."""
    async with Client(sim_bridge.server, mode=mode) as c:
        with anyio.fail_after(120):
            r = await _down_from(c, 0.3, 0.35, 0.2, max_distance_m=0.2)
    text = r.content[0].text
    assert r.is_error, text
    s = r.structured_content
    assert s['status'] == 'HAND_CONTACT' and s['ended_by'] == 'contact', s
    contact = s['contact']
    assert contact['by'] == 'hand' and contact['by_fingers'] is False, contact
    assert contact['body'] == 'cylinder' and contact['by_body'] == 'panda_hand', contact
    assert abs(contact['height_m'] - 0.1) < 0.003, contact  # the cylinder's top
    assert contact['tip_m']['z'] < contact['height_m'] - 0.03  # the fingertips are lower
    assert contact['from_tip_m'] > 0.03, contact
    assert error_block(r)['code'] == 'HAND_CONTACT'
    assert 'not the fingers' in text and 'cylinder' in text and 'close the gripper' in text
    assert 'geom' not in text


@pytest.mark.parametrize('mode', MODES)
async def test_the_fingers_on_the_table_say_what_they_touched_and_what_ended_the_move(
        sim_bridge, mode):
    """Fingers on the table: CONTACT by the fingers; the contact, not the cut line, ended it."""
    async with Client(sim_bridge.server, mode=mode) as c:
        with anyio.fail_after(120):
            r = await _down_from(c, 0.45, -0.2, 0.05, max_distance_m=0.1)
    text = r.content[0].text
    assert not r.is_error, text
    s = r.structured_content
    assert s['status'] == 'CONTACT' and s['ended_by'] == 'contact', s
    contact = s['contact']
    assert contact['by'] == 'fingers' and contact['by_fingers'] is True, contact
    assert contact['body'] == 'table' and 'panda_' in contact['by_body'], contact
    # the workspace floor (z = 0) cut the line to 5 cm; the table stopped it before that
    assert s['path_limited_by'] == 'workspace' and abs(s['line_m'] - 0.05) < 0.002, s
    assert s['travelled_m'] < s['line_m'] - 0.005, s
    assert 0.0 <= contact['backed_off_m'] < 0.005 and contact['rest_force_n'] >= 0.0, contact
    back_mm = f"{contact['backed_off_m'] * 1000:.1f}".rstrip('0').rstrip('.')
    assert 'the fingers touched table' in text and f'backed off {back_mm} mm' in text, text
    assert ('no longer pressing' in text) == (contact['rest_force_n'] < 0.5), text
    assert math.isclose(contact['travelled_m'] - contact['backed_off_m'], s['travelled_m'],
                        abs_tol=2e-4), s


async def test_a_move_that_touches_nothing_was_ended_by_its_distance(sim_bridge):
    """Up 3 cm into free space: NO_CONTACT, ended by max_distance_m."""
    async with Client(sim_bridge.server, mode='legacy') as c:
        with anyio.fail_after(120):
            r = await c.call_tool('move_until_contact', {'direction': 'up',
                                                         'max_distance_m': 0.03})
    s = r.structured_content
    assert not r.is_error and s['status'] == 'NO_CONTACT', r.content[0].text
    assert s['ended_by'] == 'distance' and 'path_limited_by' not in s, s
