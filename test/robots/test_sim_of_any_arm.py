"""
The embedded simulation of arms nobody here wrote: built from their URDF, driven over MCP.

For each arm the config comes from ``mcp-ros-bridge init``; ``serve --backend sim``
builds the MuJoCo world from the same description (URDF collision meshes, servos,
a parallel gripper at the tip) and an agent's pick-and-place of the box, through an
MCP client on the real SimBackend, sets it down within 10 mm of the target.
"""

from __future__ import annotations

import dataclasses
import math
import os
import re
import subprocess
import sys

import anyio
from mcp import Client
import numpy as np
import pytest
from robot_data import arm_files

from bridge_kit import REPO  # noqa: I100 - on the path robot_data sets

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.robots, pytest.mark.sim]

# A start posture is a CHECK line of init's robot.yaml: the UR5's SRDF names none (all zeros
# would lay the arm on the table), so this test sets one as a user does; the xArm7's and
# the Z1's come from their SRDF.
HOMES = {'ur5': [0.0, -1.5708, 1.5708, -1.5708, -1.5708, 0.0]}
APPROACH_M = 0.12


def _config(arm: str, out: str) -> str:
    """Write the arm's config with ``mcp-ros-bridge init`` (the CLI) and set its home."""
    urdf, srdf, _ = arm_files(arm)
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get('PYTHONPATH', ''))
    init = subprocess.run([sys.executable, '-m', 'mcp_ros_bridge.cli', 'init', '--urdf', urdf,
                           *(['--srdf', srdf] if srdf else []), '--out', out], cwd=REPO,
                          env=env, capture_output=True, text=True, timeout=120, check=False)
    assert init.returncode == 0, init.stderr
    if arm in HOMES:
        path = os.path.join(out, 'robot.yaml')
        with open(path, encoding='utf-8') as f:
            text = f.read()
        text = re.sub(r'  postures:\n    home: \[[^\]]*\]',
                      f'  postures:\n    home: {HOMES[arm]}', text)
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
    return out


async def _ok(c: Client, tool: str, args: dict | None = None) -> dict:
    r = await c.call_tool(tool, args or {})
    assert not r.is_error, (tool, r.content[0].text)
    assert 'panda' not in r.content[0].text.lower(), r.content[0].text
    return r.structured_content


async def _box(c: Client) -> dict:
    objects = {o['name']: o for o in (await _ok(c, 'list_objects'))['objects']}
    return objects['box']['pose']['position_m']


async def _pick_and_place(c: Client, target: tuple[float, float]) -> tuple[dict, float]:
    """Pick the box, weigh it, set it down at ``target``; return the reach and the weight (g)."""
    p = await _box(c)
    above = p['z'] + APPROACH_M
    await _ok(c, 'release_object')
    assert (await _ok(c, 'tare_ft_sensor'))['tared'] is True
    reach = await _ok(c, 'move_arm_to_pose', {
        'position': {'x': p['x'], 'y': p['y'], 'z': above}, 'velocity_scaling': 0.5})
    await _ok(c, 'move_arm_relative', {'offset': {'z': -APPROACH_M}})
    grasp = await _ok(c, 'grasp_object_force_control', {'force_n': 15})
    assert grasp['status'] == 'HOLDING' and grasp['object_held'] is True, grasp
    await _ok(c, 'move_arm_relative', {'offset': {'z': APPROACH_M}})
    weighed = await _ok(c, 'read_ft_sensor', {'window_s': 0.4})
    assert weighed['steady'] is True, weighed
    await _ok(c, 'move_arm_to_pose', {'position': {'x': target[0], 'y': target[1], 'z': above},
                                      'velocity_scaling': 0.5})
    await _ok(c, 'move_arm_relative', {'offset': {'z': -(APPROACH_M - 0.003)}})
    await _ok(c, 'release_object')
    await _ok(c, 'move_arm_relative', {'offset': {'z': APPROACH_M}})
    await _ok(c, 'move_arm_to_posture', {'posture': 'home', 'velocity_scaling': 0.5})
    return reach, weighed['held_mass_g']


@pytest.mark.anyio
@pytest.mark.parametrize('arm', ['ur5', 'xarm7', 'z1', 'kinova'])
async def test_pick_and_place_on_the_simulation_of_another_arm(arm, tmp_path):
    """The box goes to the target within 10 mm, the reach within 2 mm; the wrist weighs it."""
    from mcp_ros_bridge.server.app import build
    from mcp_ros_bridge.server.settings import ServeOptions
    config = _config(arm, str(tmp_path / arm))
    bridge, backend = await build(ServeOptions(config_dir=config, sim_speed=0, watch=False))
    robot = bridge.catalog.robot
    target = (0.3, -0.2) if arm == 'z1' else (0.45, 0.25)  # the Z1 is shorter
    try:
        async with Client(bridge.server, mode='2026-07-28') as c:
            with anyio.fail_after(300):
                tools = {t.name: t for t in (await c.list_tools()).tools}
                positions = tools['move_arm_joints'].input_schema['properties']['positions']
                assert positions['maxItems'] == len(robot.arm_joints)
                states = await _ok(c, 'get_joint_states', {'include_gripper': False})
                assert [j['name'] for j in states['joints']] == list(robot.arm_joints)
                assert [j['position'] for j in states['joints']] == pytest.approx(
                    list(robot.home), abs=2e-3)  # the servos hold the arm at home
                reach, grams = await _pick_and_place(c, target)
                placed = await _box(c)
    finally:
        await backend.close()
    assert reach['position_error_mm'] <= 2.0, reach
    assert grams == pytest.approx(1000 * robot.objects['box'].mass_kg, rel=0.05)
    assert 'panda' not in backend.info.description.lower()
    error = float(np.hypot(placed['x'] - target[0], placed['y'] - target[1]))
    assert error <= 0.010, (arm, placed, target)
    assert placed['z'] == pytest.approx(0.025, abs=0.003)  # standing on the table


@pytest.mark.anyio
async def test_serve_builds_the_simulation_of_the_described_arm(tmp_path):
    """Over stdio: ``serve --backend sim`` starts on the UR5's simulation and moves its joints."""
    from mcp import StdioServerParameters
    config = _config('ur5', str(tmp_path / 'ur5'))
    params = StdioServerParameters(
        command=sys.executable, cwd=REPO, env=dict(os.environ, PYTHONPATH=REPO),
        args=['-m', 'mcp_ros_bridge.cli', 'serve', '--backend', 'sim', '--config', config,
              '--sim-speed', '0', '--no-watch'])
    home = HOMES['ur5']
    bent = [home[0] + 0.3, *home[1:]]
    with anyio.fail_after(180):
        async with Client(params, mode='auto') as c:
            tools = (await c.list_tools()).tools
            assert 'move_arm_joints' in {t.name for t in tools}
            moved = await _ok(c, 'move_arm_joints', {'positions': bent})
            states = await _ok(c, 'get_joint_states', {'include_gripper': False})
    names = [j['name'] for j in states['joints']]
    assert names == ['shoulder_pan_joint', 'shoulder_lift_joint', 'elbow_joint',
                     'wrist_1_joint', 'wrist_2_joint', 'wrist_3_joint']
    assert [j['position'] for j in states['joints'][:6]] == pytest.approx(bent, abs=2e-3)
    assert moved['status'] == 'SUCCEEDED', moved


def test_an_arm_without_a_description_is_refused_naming_the_fix(tmp_path):
    """Another arm's joints without description: the sim refuses, naming init and the ROS way."""
    from mcp_ros_bridge.backends.port import BackendError
    from mcp_ros_bridge.backends.sim import SimBackend
    from mcp_ros_bridge.catalog.loader import load_robot
    cfg = load_robot(_config('ur5', str(tmp_path / 'ur5')))[0]
    with pytest.raises(BackendError) as refused:
        SimBackend(dataclasses.replace(cfg, description={}))
    assert refused.value.code == 'UNSUPPORTED'
    assert 'without a description' in str(refused.value)
    advice = refused.value.advice
    assert 'mcp-ros-bridge init' in advice and '--backend ros' in advice


def test_a_home_posture_in_the_table_is_refused_naming_the_fix(tmp_path):
    """An all-zeros UR5 home lays the arm on the table: the world refuses to start so."""
    from mcp_ros_bridge.backends.port import BackendError
    from mcp_ros_bridge.backends.sim import SimBackend
    from mcp_ros_bridge.catalog.init_config import write_config
    from mcp_ros_bridge.catalog.loader import load_robot
    urdf, srdf, _ = arm_files('ur5')
    write_config(str(tmp_path), urdf, srdf)
    path = tmp_path / 'robot.yaml'
    zeros = '  postures:\n    home: [0, 0, 0, 0, 0, 0]'
    path.write_text(re.sub(r'  postures:\n    home: \[[^\]]*\]', zeros,
                           path.read_text(encoding='utf-8')), encoding='utf-8')
    cfg = load_robot(str(tmp_path))[0]
    assert set(cfg.home) == {0.0}
    with pytest.raises(BackendError) as refused:
        SimBackend(cfg)
    text = str(refused.value)
    assert refused.value.code == 'UNSUPPORTED' and '\n' not in text
    assert 'home posture [0, 0, 0, 0, 0, 0]' in text and 'table<->' in text
    assert 'joints.postures.home' in refused.value.advice


@pytest.mark.anyio
@pytest.mark.parametrize('arm', ['ur3_gripper', 'ur5', 'ur10'])
async def test_init_finds_a_home_clear_of_the_table_when_the_srdf_has_none(arm, tmp_path):
    """No usable SRDF state: init writes one, fingers down above the reach; the sim starts."""
    from mcp_ros_bridge.backends.sim import SimBackend
    from mcp_ros_bridge.catalog.init_config import write_config
    from mcp_ros_bridge.catalog.loader import load_robot
    from robot_data import robots_dir
    names = {'ur3_gripper': ('ur3_gripper.urdf', 'ur3_gripper.srdf'),
             'ur5': ('ur5_robot.urdf', ''), 'ur10': ('ur10_robot.urdf', '')}[arm]
    base = os.path.join(robots_dir(), 'ur_description')
    write_config(str(tmp_path), os.path.join(base, 'urdf', names[0]),
                 os.path.join(base, 'srdf', names[1]) if names[1] else '')
    text = (tmp_path / 'robot.yaml').read_text(encoding='utf-8')
    assert 'found by init: fingers down' in text, text
    cfg = load_robot(str(tmp_path))[0]
    assert set(cfg.home) != {0.0}
    backend = SimBackend(cfg)  # refuses a home in the table or an object (test above)
    try:
        pose = await backend.end_effector_pose(cfg.base_frame)
    finally:
        await backend.close()
    assert pose.position[2] > 0.1  # above the table top, the base's z = 0
    down = 1 - 2 * (pose.orientation[1] ** 2 + pose.orientation[2] ** 2)  # the TCP's z . z
    assert down == pytest.approx(-1.0, abs=1e-3), pose


async def _pick_and_place_jobs(c: Client, target: tuple[float, float]) -> tuple[dict, dict]:
    """Pick the box and place it at ``target`` with the job tools; return the pick and its rest."""
    picked = await _ok(c, 'pick_object', {'object': 'box'})
    assert picked['status'] == 'HOLDING', picked
    placed = await _ok(c, 'place_object', {'target': {'x': target[0], 'y': target[1]}})
    assert placed['status'] == 'PLACED', placed
    return picked, await _box(c)


def _init(urdf: str, out: str) -> str:
    """Write a config with ``mcp-ros-bridge init`` from the URDF alone; return its directory."""
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get('PYTHONPATH', ''))
    init = subprocess.run([sys.executable, '-m', 'mcp_ros_bridge.cli', 'init', '--urdf', urdf,
                           '--out', out], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=300, check=False)
    assert init.returncode == 0, init.stderr
    return out


@pytest.mark.anyio
async def test_the_so101_picks_and_places_the_box_with_the_job_tools(tmp_path):
    """
    A 5-joint arm fingers down only below 8 cm: init lowers the approach, the slots fit.

    The SO-101's jaw is the gripper (not an arm joint); its fixed jaw is cut where the
    simulated fingers grasp; pick_object and place_object set the box down within 10 mm,
    upright, checked from physics.
    """
    from mcp_ros_bridge.server.app import build
    from mcp_ros_bridge.server.settings import ServeOptions
    from robot_data import robots_dir
    out = _init(os.path.join(robots_dir(), 'so_arm_description', 'urdf', 'so101.urdf'),
                str(tmp_path / 'so101'))
    text = (tmp_path / 'so101' / 'robot.yaml').read_text(encoding='utf-8')
    approach = float(re.search(r'\n  approach_m: ([0-9.]+)', text).group(1))
    assert 0.03 <= approach < 0.10, text
    bridge, backend = await build(ServeOptions(config_dir=out, sim_speed=0, watch=False))
    robot = bridge.catalog.robot
    assert robot.arm_joints == ('shoulder_pan', 'shoulder_lift', 'elbow_flex', 'wrist_flex',
                                'wrist_roll')
    assert robot.approach_m == approach
    target = (0.2, -0.1)
    try:
        async with Client(bridge.server, mode='2026-07-28') as c:
            with anyio.fail_after(300):
                box = await _box(c)
                assert np.hypot(box['x'], box['y']) < 0.3  # the slots fit the reach
                picked, rest = await _pick_and_place_jobs(c, target)
                assert picked['lifted_z_m'] == pytest.approx(picked['grasp_z_m'] + approach,
                                                             abs=1e-3)
    finally:
        await backend.close()
    assert float(np.hypot(rest['x'] - target[0], rest['y'] - target[1])) <= 0.010, rest
    assert rest['z'] == pytest.approx(0.025, abs=0.003)  # standing on the table


def _so101(tmp_path, approach: float | None = None, box_at: tuple | None = None):
    """Return the SO-101's config from init, its approach and its box's start changed."""
    from mcp_ros_bridge.catalog.init_config import write_config
    from mcp_ros_bridge.catalog.loader import load_robot
    from robot_data import robots_dir
    write_config(str(tmp_path), os.path.join(robots_dir(), 'so_arm_description', 'urdf',
                                             'so101.urdf'), '')
    path = tmp_path / 'robot.yaml'
    text = path.read_text(encoding='utf-8')
    if approach is not None:
        text, n = re.subn(r'\n  approach_m: [0-9.]+', f'\n  approach_m: {approach}', text)
        assert n == 1, text
    if box_at is not None:
        start = f'start_xy_m: [{box_at[0]}, {box_at[1]}]'
        text, n = re.subn(r'(\n  box: \{[^}]*)\}', rf'\1, {start}}}', text)
        assert n == 1, text
    path.write_text(text, encoding='utf-8')
    return load_robot(str(tmp_path))[0]


@pytest.mark.parametrize('approach,box_at,spots', [
    (0.15, None, '0.5, 0; 0.4, 0; 0.3, 0; 0.2, 0'),  # too high at every slot the fit tries
    (None, (0.45, 0.0), '0.45, 0'),                   # the box set where the arm cannot reach
])
def test_objects_the_arm_cannot_reach_refuse_the_start_naming_start_xy_m(
        tmp_path, approach, box_at, spots):
    """No silent layout out of reach: the start is refused in one line, naming the fix."""
    from mcp_ros_bridge.backends.port import BackendError
    from mcp_ros_bridge.backends.sim import SimBackend
    cfg = _so101(tmp_path, approach, box_at)
    with pytest.raises(BackendError) as refused:
        SimBackend(cfg)
    text = str(refused.value)
    assert refused.value.code == 'UNSUPPORTED' and '\n' not in text, text
    assert f'at none of x, y = {spots} (m, base frame)' in text, text
    assert 'objects.box.start_xy_m' in refused.value.advice


@pytest.mark.anyio
async def test_an_object_stands_where_robot_yaml_starts_it(tmp_path):
    """``start_xy_m`` puts the box there (physics read over the port); the others still fit."""
    from mcp_ros_bridge.backends.sim import SimBackend
    cfg = _so101(tmp_path, box_at=(0.19, 0.06))
    backend = SimBackend(cfg)
    try:
        box = await backend.object_pose('box', cfg.base_frame)
        cylinder = await backend.object_pose('cylinder', cfg.base_frame)
    finally:
        await backend.close()
    assert box.position[:2] == pytest.approx((0.19, 0.06), abs=1e-3)
    assert np.hypot(*cylinder.position[:2]) < 0.3  # at its slot moved in to the reach


@pytest.mark.anyio
async def test_baxter_s_right_arm_picks_and_places_a_box_that_fits_its_gap(tmp_path):
    """
    ``init --tip right_gripper``: the right arm's 7 joints; a 30 mm box fits its 41.7 mm gap.

    From home the first goal solution above the box sweeps the hand through it; the
    planner solves the goal again from over it and the pick goes ahead. The box ends
    within 10 mm of the target, standing, checked from physics.
    """
    from mcp_ros_bridge.catalog.init_config import write_config
    from mcp_ros_bridge.server.app import build
    from mcp_ros_bridge.server.settings import ServeOptions
    from robot_data import robots_dir
    write_config(str(tmp_path), os.path.join(robots_dir(), 'baxter_description', 'urdf',
                                             'baxter.urdf'), '', tip='right_gripper')
    path = tmp_path / 'robot.yaml'
    text = path.read_text(encoding='utf-8')
    assert text.count('size_m: [0.05, 0.05, 0.05], mass_kg: 0.2') == 1
    path.write_text(text.replace('size_m: [0.05, 0.05, 0.05], mass_kg: 0.2',
                                 'size_m: [0.03, 0.03, 0.05], mass_kg: 0.1'), encoding='utf-8')
    bridge, backend = await build(ServeOptions(config_dir=str(tmp_path), sim_speed=0,
                                               watch=False))
    robot = bridge.catalog.robot
    assert robot.arm_joints == tuple(f'right_{j}' for j in ('s0', 's1', 'e0', 'e1', 'w0', 'w1',
                                                            'w2'))
    target = (0.45, -0.2)
    try:
        async with Client(bridge.server, mode='legacy') as c:
            with anyio.fail_after(300):
                await _pick_and_place_jobs(c, target)
        model, qpos = backend.world.model, backend.world.snapshot()[0]
        adr = model.jnt_qposadr[model.body_jntadr[model.body('box').id]]
        rest, quat = qpos[adr:adr + 3], qpos[adr + 3:adr + 7]
    finally:
        await backend.close()
    assert float(np.hypot(rest[0] - target[0], rest[1] - target[1])) <= 0.010, rest
    assert rest[2] == pytest.approx(0.025, abs=0.003)
    assert 1 - 2 * (quat[1] ** 2 + quat[2] ** 2) > math.cos(math.radians(5))  # upright


@pytest.mark.anyio
async def test_pr2_s_right_arm_hanging_from_its_torso_picks_on_a_table_init_lowers(tmp_path):
    """
    PR2's right arm from ``torso_lift_link``: no home lies clear of that frame's z = 0.

    Init lowers the table (the workspace floor, marked CHECK) below the shoulder until
    a home is clear of it; the simulation stands the table and objects there, and
    pick_object + place_object set the box down within 10 mm, on that table.
    """
    from mcp_ros_bridge.catalog.init_config import write_config
    from mcp_ros_bridge.server.app import build
    from mcp_ros_bridge.server.settings import ServeOptions
    from robot_data import robots_dir
    base = os.path.join(robots_dir(), 'pr2_description')
    write_config(str(tmp_path), os.path.join(base, 'urdf', 'pr2.urdf'),
                 os.path.join(base, 'srdf', 'pr2.srdf'), group='right_arm')
    text = (tmp_path / 'robot.yaml').read_text(encoding='utf-8')
    assert 'z: the table top, lowered below the base plane (CHECK' in text, text
    bridge, backend = await build(ServeOptions(config_dir=str(tmp_path), sim_speed=0,
                                               watch=False))
    table = bridge.catalog.robot.table_z_m
    assert -1.0 < table <= -0.3
    target = (0.3, -0.1)
    try:
        async with Client(bridge.server, mode='legacy') as c:
            with anyio.fail_after(300):
                facts = await _ok(c, 'get_robot_info')
                assert facts['table']['top_z_m'] == table
                box = await _box(c)
                assert box['z'] == pytest.approx(table + 0.025, abs=2e-3)  # on that table
                rest = (await _pick_and_place_jobs(c, target))[1]
    finally:
        await backend.close()
    assert float(np.hypot(rest['x'] - target[0], rest['y'] - target[1])) <= 0.010, rest
    assert rest['z'] == pytest.approx(table + 0.025, abs=0.003)
