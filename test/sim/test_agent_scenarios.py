"""Scenarios written as an agent calls the tools: MCP client, shipped catalog, real physics."""

import json
import re

import anyio
from mcp import Client
import numpy as np
import pytest

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.sim, pytest.mark.anyio]


async def object_centre(c: Client, name: str) -> dict:
    """Return the centre (m) of ``name`` from list_objects (its pose source: ground truth)."""
    r = await c.call_tool('list_objects', {})
    assert not r.is_error, r.content[0].text
    return next(o for o in r.structured_content['objects'] if o['name'] == name)['pose'][
        'position_m']


async def _arm(c: Client) -> list[float]:
    r = await c.call_tool('get_joint_states', {'include_gripper': False})
    return [j['position'] for j in r.structured_content['joints']]


@pytest.mark.parametrize('mode', ['legacy', '2026-07-28'])
async def test_radians_in_degrees_are_refused_with_the_hint(sim_bridge, mode):
    """Radians sent as degrees move nothing; the hint's corrected call points fingers down."""
    async with Client(sim_bridge.server, mode=mode) as c:
        with anyio.fail_after(120):
            before = await _arm(c)
            r = await c.call_tool('move_arm_to_pose', {
                'position': {'x': 0.45, 'y': 0.0, 'z': 0.3},
                'orientation': {'roll': 3.14159, 'yaw': 1.5708}})
            text = r.content[0].text
            assert r.is_error, text
            assert 'roll 3.14159 looks like radians: 180 deg' in text
            assert 'Nothing moved' in text
            assert np.allclose(before, await _arm(c), atol=1e-4)
            fixed = json.loads(re.search(r'"orientation": (\{[^}]*\})', text).group(1))
            ok = await c.call_tool('move_arm_to_pose', {
                'position': {'x': 0.45, 'y': 0.0, 'z': 0.3}, 'orientation': fixed,
                'velocity_scaling': 0.5})
            assert not ok.is_error, ok.content[0].text
            o = ok.structured_content['final_pose']['orientation_deg']
            assert abs(abs(o['roll']) - 180) < 1 and abs(o['yaw'] - 90) < 1, o


async def test_unreachable_target_advice_is_checkable(sim_bridge):
    """Out of reach: the advice gives the distance from the shoulder in metres, no quaternion."""
    async with Client(sim_bridge.server, mode='legacy') as c:
        with anyio.fail_after(120):
            before = await _arm(c)
            r = await c.call_tool('move_arm_to_pose', {'position': {'x': 0.8, 'y': 0.0,
                                                                    'z': 0.6}})
            assert r.is_error
            text = r.content[0].text
            assert 'NO_IK_SOLUTION' in text and 'Nothing moved' in text, text
            assert '0.84 m from the shoulder' in text, text
            assert 'quaternion' not in text and 'w,x,y,z' not in text
            assert np.allclose(before, await _arm(c), atol=1e-4)


async def _pick(c: Client, name: str, lift_z: float = 0.2) -> dict:
    """Open, descend to the object's grasp height, grasp at 15 N, lift; return its centre."""
    p = await object_centre(c, name)
    listed = (await c.call_tool('list_objects', {})).structured_content['objects']
    z = next(o['grasp_z_m'] for o in listed if o['name'] == name)
    steps = [('release_object', {}),
             ('move_arm_to_pose', {'position': {'x': p['x'], 'y': p['y'], 'z': lift_z},
                                   'velocity_scaling': 0.5}),
             ('plan_trajectory', {'waypoints': [{'x': p['x'], 'y': p['y'], 'z': z + 0.05},
                                                {'x': p['x'], 'y': p['y'], 'z': z}]}),
             ('grasp_object_force_control', {'force_n': 15}),
             ('plan_trajectory', {'waypoints': [{'x': p['x'], 'y': p['y'], 'z': p['z'] + 0.05},
                                                {'x': p['x'], 'y': p['y'], 'z': lift_z}]})]
    for tool, args in steps:
        r = await c.call_tool(tool, args)
        assert not r.is_error, (tool, r.content[0].text)
    return p


@pytest.mark.parametrize('name', ['cylinder', 'box'])
async def test_weigh_a_held_object(sim_bridge, name):
    """Net of the gripper, the wrist sensor weighs the held object to 5 % of its model mass."""
    model = sim_bridge.backend.world.model
    true_g = float(model.body(name).mass[0]) * 1000.0
    async with Client(sim_bridge.server, mode='2026-07-28') as c:
        with anyio.fail_after(180):
            empty = await c.call_tool('read_ft_sensor', {'window_s': 0.2})
            assert empty.structured_content['compensation'] == 'gripper_gravity'
            assert abs(empty.structured_content['held_mass_g']) < 0.05 * true_g
            await _pick(c, name)
            r = await c.call_tool('read_ft_sensor', {'window_s': 0.2})
    assert r.structured_content['steady'] is True, r.content[0].text
    held = r.structured_content['held_mass_g']
    assert held == pytest.approx(true_g, rel=0.05), r.content[0].text
    assert f'holding \u2248 {held:.0f} g' in r.content[0].text


async def test_tare_then_weigh_and_tare_while_holding(sim_bridge):
    """Tared empty, the held cylinder weighs to 5 %; tared while held, ~0 until cleared."""
    true_g = float(sim_bridge.backend.world.model.body('cylinder').mass[0]) * 1000.0

    async def weigh(c):
        r = await c.call_tool('read_ft_sensor', {'window_s': 0.2})
        assert r.structured_content['steady'] is True, r.content[0].text
        return r.structured_content['compensation'], r.structured_content['held_mass_g']

    async with Client(sim_bridge.server, mode='legacy') as c:
        with anyio.fail_after(180):
            empty = await c.call_tool('tare_ft_sensor', {})
            assert not empty.is_error and empty.structured_content['tared'] is True
            assert abs(empty.structured_content['offset_mass_g']) < 0.05 * true_g
            await _pick(c, 'cylinder')
            reference, held = await weigh(c)
            assert reference == 'tared' and held == pytest.approx(true_g, rel=0.05)
            full = await c.call_tool('tare_ft_sensor', {})
            assert full.structured_content['offset_mass_g'] == pytest.approx(true_g, rel=0.05)
            reference, held = await weigh(c)
            assert reference == 'tared' and abs(held) < 0.05 * true_g
            cleared = await c.call_tool('tare_ft_sensor', {'clear': True})
            assert cleared.structured_content == {'tared': False}
            reference, held = await weigh(c)
    assert reference == 'gripper_gravity' and held == pytest.approx(true_g, rel=0.05)


async def test_joint_move_turning_the_fingers_up_is_refused_along_the_path(sim_bridge):
    """Every planned sample stays in the approach cone: a sweep turning fingers up is refused."""
    over_the_top = [0.344, -0.812, -0.175, -0.362, -1.281, 3.109, 0.38]
    async with Client(sim_bridge.server, mode='legacy') as c:
        with anyio.fail_after(120):
            before = await _arm(c)
            r = await c.call_tool('move_arm_joints', {'positions': over_the_top})
            text = r.content[0].text
            assert r.is_error and 'approach_cone (planned path at t=' in text, text
            assert 'Nothing moved' in text
            assert np.allclose(before, await _arm(c), atol=1e-4)


async def test_list_objects_gives_sizes_centres_and_grasp_heights(sim_bridge):
    """list_objects: catalog sizes match the simulated bodies; poses are their centres."""
    model = sim_bridge.backend.world.model
    geometry = sim_bridge.catalog.robot.gripper_geometry
    async with Client(sim_bridge.server, mode='2026-07-28') as c:
        with anyio.fail_after(60):
            r = await c.call_tool('list_objects', {})
            assert not r.is_error, r.content[0].text
            # the backend's ground truth (physics), which list_objects must report
            truth = {n: (await sim_bridge.backend.object_pose(n, 'panda_link0')).position
                     for n in ('box', 'cylinder')}
    s = r.structured_content
    assert s['pose_point'] == 'centre' and 'none' not in s['pose_source']
    by_name = {o['name']: o for o in s['objects']}
    assert set(by_name) == {'box', 'cylinder'}
    for name, o in by_name.items():
        geom = model.geom(name)
        half = geom.size if o['shape'] == 'box' else (geom.size[0], geom.size[0], geom.size[1])
        assert [o['size_m'][k] for k in 'xyz'] == pytest.approx([2 * h for h in half])
        assert o['mass_kg'] == pytest.approx(float(model.body(name).mass[0]))
        assert [o['pose']['position_m'][k] for k in 'xyz'] == pytest.approx(truth[name],
                                                                            abs=1e-4)
        # on the table: the centre, or higher so the hand's face stays 3 mm over the top
        face = geometry.finger_length_m - geometry.tip_past_tcp_m
        grasp = max(o['size_m']['z'] / 2, o['size_m']['z'] + 0.003 - face)
        assert o['grasp_z_m'] == pytest.approx(grasp, abs=2e-3), (name, o)
    assert 'box: red box 50\u00d750\u00d750 mm' in r.content[0].text
