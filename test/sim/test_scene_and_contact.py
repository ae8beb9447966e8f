"""
What motions did to the scene, deliberate contact and result fields, over MCP on real physics.

A free motion or a straight path through a known object is refused before anything
moves; a guarded move that shoves an object says so in scene_changes. Closing an empty
gripper is not an error. Slip since the grasp never goes down, angles are reported in
(-180, 180], relative moves carry their position error and executed motions their
travelled path length.
"""

import pathlib

import anyio
from mcp import Client
from mcp_ros_bridge.contract.results import error_block
from mcp_ros_bridge.safety.ratelimit import RateLimiter
import numpy as np
import pytest
from sim_support import body_state

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.sim, pytest.mark.anyio]
MODES = ['legacy', '2026-07-28']


@pytest.fixture
def sim_bridge(sim_bridge):
    """Return the fast-simulation bridge without the rate limit (motions are quick)."""
    sim_bridge.pipeline.rate = RateLimiter(1000.0, 1000)
    return sim_bridge


async def _ok(c: Client, tool: str, args: dict) -> dict:
    r = await c.call_tool(tool, args)
    assert not r.is_error, (tool, r.content[0].text)
    return {'text': r.content[0].text, **r.structured_content}


def _off(angle: float, to: float) -> float:
    """Return the angular distance (deg) from ``angle`` to ``to``."""
    return abs((angle - to + 180.0) % 360.0 - 180.0)


async def _centre(c: Client, name: str) -> dict:
    objects = {o['name']: o for o in (await _ok(c, 'list_objects', {}))['objects']}
    return objects[name]['pose']['position_m']


def _physics(bridge) -> np.ndarray:
    """Return the whole physics state (arm, fingers, every object's pose)."""
    return bridge.backend.world.snapshot()[0].copy()


def _body(bridge, name: str) -> np.ndarray:
    """Return an object's position straight from the MuJoCo state."""
    return body_state(bridge, name)[0]


@pytest.mark.parametrize('mode', MODES)
async def test_a_straight_line_through_the_cylinder_is_refused_and_nothing_moves(
        sim_bridge, mode):
    """Closed fingers on a line through the cylinder's top: refused in planning, plan_only too."""
    async with Client(sim_bridge.server, mode=mode) as c:
        with anyio.fail_after(180):
            p = await _centre(c, 'cylinder')
            closed = await _ok(c, 'close_gripper', {})
            start = await _ok(c, 'move_arm_to_pose', {
                'position': {'x': p['x'] - 0.1, 'y': p['y'], 'z': 0.09}})
            before = _physics(sim_bridge)
            line = {'waypoints': [{'x': p['x'] - 0.05, 'y': p['y'], 'z': 0.09},
                                  {'x': p['x'] + 0.03, 'y': p['y'], 'z': 0.09}],
                    'velocity_scaling': 0.05}
            run = await c.call_tool('plan_trajectory', line)
            preview = await c.call_tool('plan_trajectory', {**line, 'plan_only': True})
            after = _physics(sim_bridge)
    assert closed['status'] == 'CLOSED'
    assert start['scene_changes'] == [], 'the free move touched nothing'
    for r in (run, preview):
        text = r.content[0].text
        block = error_block(r)
        assert r.is_error and block['code'] == 'PLANNING_FAILED', text
        assert block['details']['objects'] == ['cylinder'], block
        assert 'cylinder' in text and 'nothing moved' in text, text
        assert 0.0 < block['details']['fraction'] < 1.0
    assert np.allclose(before, after, atol=2e-3), 'neither the arm nor an object moved'


async def test_a_free_motion_across_the_box_goes_around_it_and_the_line_through_is_refused(
        sim_bridge):
    """Low beside the box to low past it: the planner detours; the straight line is refused."""
    from mcp_ros_bridge.backends.port import BackendError
    from mcp_ros_bridge.backends.sim.scene_check import check_planned
    from mcp_ros_bridge.backends.sim.trajectory import Trajectory
    backend = sim_bridge.backend
    async with Client(sim_bridge.server, mode='legacy') as c:
        with anyio.fail_after(180):
            p = await _centre(c, 'box')
            await _ok(c, 'move_arm_to_pose', {'position': {'x': p['x'], 'y': p['y'] + 0.12,
                                                           'z': 0.03}})
            start = _physics(sim_bridge)
            across = await _ok(c, 'move_arm_to_pose', {
                'position': {'x': p['x'], 'y': p['y'] - 0.12, 'z': 0.03}})
            end = _physics(sim_bridge)
    assert across['status'] == 'SUCCEEDED' and across['scene_changes'] == [], across['text']
    assert np.allclose(_body(sim_bridge, 'box'), [p['x'], p['y'], p['z']], atol=1e-3)
    # the joint line between the same two postures, as the planner's first try, runs
    # through the box: the check every planned motion passes refuses it
    w = backend.world
    line = np.linspace(start[w.arm_qpos], end[w.arm_qpos], 400)
    with pytest.raises(BackendError) as refused:
        check_planned(backend.planner, start, Trajectory(line, np.zeros_like(line), 0.01, 4.0))
    assert refused.value.code == 'PLANNING_FAILED' and refused.value.details['objects'] == [
        'box'], refused.value.message
    assert 'box' in refused.value.message and 'nothing moved' in refused.value.message


async def test_a_guarded_move_that_shoves_the_box_reports_the_contact(sim_bridge):
    """A sideways guarded move through the box below its threshold: the box is a scene change."""
    async with Client(sim_bridge.server, mode='legacy') as c:
        with anyio.fail_after(180):
            p = await _centre(c, 'box')
            await _ok(c, 'close_gripper', {})
            await _ok(c, 'move_arm_to_pose', {'position': {'x': p['x'], 'y': p['y'] + 0.09,
                                                           'z': 0.02}})
            r = await c.call_tool('move_until_contact', {
                'direction': 'right', 'max_distance_m': 0.12, 'speed_mps': 0.02,
                'contact_force_n': 20})
    box = _body(sim_bridge, 'box')
    moved_mm = 1000 * float(np.linalg.norm(box[:2] - [p['x'], p['y']]))
    s, text = r.structured_content, r.content[0].text
    assert moved_mm > 20, ('the box was shoved', text)
    (change,) = s['scene_changes']
    assert change['object'] == 'box' and change['moved_mm'] == pytest.approx(moved_mm, abs=3)
    assert 'without touching anything' not in text and 'box' in text, text


async def test_a_lifted_held_box_is_no_scene_change_and_slip_never_decreases(sim_bridge):
    """The held box moves with the hand: reported under grip, not scene_changes; slip is a max."""
    async with Client(sim_bridge.server, mode='2026-07-28') as c:
        with anyio.fail_after(240):
            p = await _centre(c, 'box')
            await _ok(c, 'move_arm_to_pose', {'position': {'x': p['x'], 'y': p['y'],
                                                           'z': p['z'] + 0.12}})
            down = await _ok(c, 'move_arm_relative', {'offset': {'z': -0.12}})
            assert (await _ok(c, 'grasp_object_force_control', {'force_n': 8}))[
                'status'] == 'HOLDING'
            moves = [await _ok(c, 'move_arm_relative', {'offset': offset, 'velocity_scaling': 0.5})
                     for offset in ({'z': 0.1}, {'x': -0.05}, {'y': 0.05}, {'z': -0.05},
                                    {'x': 0.05, 'z': 0.05})]
            state = await _ok(c, 'read_gripper_state', {})
    assert down['scene_changes'] == [] and down['position_error_mm'] < 1.0
    for m in moves:
        assert m['grip']['object'] == 'box' and m['scene_changes'] == [], m['text']
        assert 'not held' not in m['text']
        assert m['position_error_mm'] < 2.0 and m['path_length_m'] > 0.04
    since = [m['grip']['slip_since_grasp_mm'] for m in moves] + [state['slip_mm']]
    assert since == sorted(since), f'slip since the grasp went down: {since}'


@pytest.mark.parametrize('mode', MODES)
async def test_close_gripper_on_nothing_is_not_an_error(sim_bridge, mode):
    """Empty fingers close fully (CLOSED, gap ~0) or to a gap; read_gripper_state agrees."""
    async with Client(sim_bridge.server, mode=mode) as c:
        with anyio.fail_after(120):
            full = await _ok(c, 'close_gripper', {})
            state = await _ok(c, 'read_gripper_state', {})
            part = await _ok(c, 'close_gripper', {'width_m': 0.03})
    assert full['status'] == 'CLOSED' and full['width_m'] < 0.002
    assert full['text'].startswith('CLOSED: finger gap') and full['object_held'] is False
    assert state['status'] == 'EMPTY' and state['width_m'] < 0.002
    assert part['status'] == 'CLOSED' and part['width_m'] == pytest.approx(0.03, abs=0.002)


async def test_close_gripper_around_the_box_is_blocked_and_lets_go(sim_bridge):
    """Fingers stopped by the box: BLOCKED (an error), eased off, no squeeze left behind."""
    async with Client(sim_bridge.server, mode='legacy') as c:
        with anyio.fail_after(180):
            p = await _centre(c, 'box')
            await _ok(c, 'move_arm_to_pose', {'position': {'x': p['x'], 'y': p['y'],
                                                           'z': p['z'] + 0.12}})
            await _ok(c, 'move_arm_relative', {'offset': {'z': -0.12}})
            r = await c.call_tool('close_gripper', {})
            state = await _ok(c, 'read_gripper_state', {})
            await _ok(c, 'grasp_object_force_control', {})
            holding = await c.call_tool('close_gripper', {})
            still = await _ok(c, 'read_gripper_state', {})
    assert r.is_error and r.structured_content['status'] == 'BLOCKED'
    assert r.meta['io.github.mcp_ros_bridge/error']['code'] == 'BLOCKED'
    assert 'something is between them' in r.content[0].text
    assert state['status'] == 'OPEN' and state['force_n'] < 1.0, state
    assert state['width_m'] > 0.05, 'eased off around the 50 mm box'
    assert holding.is_error and 'does not squeeze a held object' in holding.content[0].text
    assert still['status'] == 'HOLDING', 'a refused close changes nothing'


async def test_roll_is_one_value_and_the_z_floor_is_the_fingertips(sim_bridge):
    """roll/yaw -180 come back in (-180, 180]; the schema's z floor is reachable, below is not."""
    tools = {}
    async with Client(sim_bridge.server, mode='2026-07-28') as c:
        with anyio.fail_after(120):
            tools = {t.name: t for t in (await c.list_tools()).tools}
            floor = tools['move_arm_to_pose'].input_schema['properties']['position'][
                'properties']['z']['minimum']
            flipped = await _ok(c, 'move_arm_to_pose', {
                'position': {'x': 0.4, 'y': -0.2, 'z': 0.2},
                'orientation': {'roll': -180, 'pitch': 0, 'yaw': -180}})
            pose = await _ok(c, 'get_end_effector_pose', {})
            low = await _ok(c, 'move_arm_to_pose', {'position': {'x': 0.4, 'y': -0.2,
                                                                 'z': floor}})
            below = await c.call_tool('move_arm_to_pose', {'position': {
                'x': 0.4, 'y': -0.2, 'z': floor - 0.002}})
    robot = sim_bridge.catalog.robot
    assert floor == pytest.approx(robot.limits.workspace.lo[2]
                                  + robot.gripper_geometry.tip_past_tcp_m)
    for o in (flipped['final_pose']['orientation_deg'], pose['pose']['orientation_deg']):
        assert -180 < o['roll'] <= 180 and -180 < o['yaw'] <= 180, o  # never -180
        assert _off(o['roll'], 180) < 0.5 and _off(o['yaw'], 180) < 0.5, o
    assert low['status'] == 'SUCCEEDED' and low['position_error_mm'] < 1.0
    assert below.is_error and 'position.z' in below.content[0].text


@pytest.mark.anyio
async def test_robot_yaml_starts_the_panda_scene_s_box_where_it_says(tmp_path):
    """``objects.box.start_xy_m`` moves the Panda scene's box: over MCP and in physics."""
    from mcp_ros_bridge.server.app import build
    from mcp_ros_bridge.server.settings import ServeOptions
    shipped = pathlib.Path(__file__).parents[2] / 'config'
    for name in ('robot.yaml', 'tools.yaml'):
        text = (shipped / name).read_text(encoding='utf-8')
        if name == 'robot.yaml':
            assert text.count('mass_kg: 0.2}') == 1
            text = text.replace('mass_kg: 0.2}', 'mass_kg: 0.2, start_xy_m: [0.42, -0.12]}')
        (tmp_path / name).write_text(text, encoding='utf-8')
    bridge, backend = await build(ServeOptions(config_dir=str(tmp_path), sim_speed=0,
                                               watch=False))
    try:
        async with Client(bridge.server, mode='2026-07-28') as c:
            listed = await _ok(c, 'list_objects', {})
        physics = body_state(bridge, 'box')[0]
    finally:
        await backend.close()
    box = next(o for o in listed['objects'] if o['name'] == 'box')['pose']['position_m']
    assert (box['x'], box['y']) == pytest.approx((0.42, -0.12), abs=1e-3)
    assert physics[:2] == pytest.approx((0.42, -0.12), abs=1e-3)
