"""Moves agents ask for, as an agent calls them: relative moves, named postures, plan-only."""

import math

import anyio
from mcp import Client
from mcp_ros_bridge.safety.ratelimit import RateLimiter
import numpy as np
import pytest
from test_agent_scenarios import _arm, _pick, object_centre

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.sim, pytest.mark.anyio]


@pytest.fixture
def sim_bridge(sim_bridge):
    """Return the shared fast-simulation bridge without the rate limit (motions are quick)."""
    sim_bridge.pipeline.rate = RateLimiter(1000.0, 1000)
    return sim_bridge


async def _xyz(c: Client, tool: str, args: dict) -> np.ndarray:
    r = await c.call_tool(tool, args)
    assert not r.is_error, r.content[0].text
    p = r.structured_content['pose']['position_m']
    return np.array([p['x'], p['y'], p['z']])


async def _tip(c: Client) -> np.ndarray:
    return await _xyz(c, 'get_end_effector_pose', {})


async def _box(c: Client) -> np.ndarray:
    p = await object_centre(c, 'box')
    return np.array([p['x'], p['y'], p['z']])


@pytest.mark.parametrize('mode', ['legacy', '2026-07-28'])
async def test_lift_ten_centimetres_with_the_relative_move(sim_bridge, mode):
    """Holding the box, {"offset": {"z": 0.1}} lifts 10 cm within 2 mm; the box slips < 0.5 mm."""
    async with Client(sim_bridge.server, mode=mode) as c:
        with anyio.fail_after(180):
            await _pick(c, 'box', lift_z=0.12)
            tip0, box0 = await _tip(c), await _box(c)
            r = await c.call_tool('move_arm_relative', {'offset': {'z': 0.1},
                                                        'velocity_scaling': 0.5})
            assert not r.is_error, r.content[0].text
            tip1, box1 = await _tip(c), await _box(c)
    assert np.linalg.norm(tip1 - tip0 - (0, 0, 0.1)) <= 0.002, tip1 - tip0
    slip = np.linalg.norm((box1 - tip1) - (box0 - tip0))
    assert slip <= 0.0005, slip


async def test_relative_move_in_the_tool_frame(sim_bridge):
    """With the fingers down, +z in the tool frame moves the fingertip down."""
    async with Client(sim_bridge.server, mode='legacy') as c:
        with anyio.fail_after(120):
            tip0 = await _tip(c)
            r = await c.call_tool('move_arm_relative', {'offset': {'z': 0.05}, 'frame': 'tool'})
            assert not r.is_error, r.content[0].text
            tip1 = await _tip(c)
    assert np.linalg.norm(tip1 - tip0 - (0, 0, -0.05)) <= 0.002, tip1 - tip0


async def test_return_home_by_name(sim_bridge):
    """move_arm_to_posture reaches the postures named in robot.yaml."""
    robot = sim_bridge.catalog.robot
    async with Client(sim_bridge.server, mode='2026-07-28') as c:
        with anyio.fail_after(120):
            listed = {t.name: t for t in (await c.list_tools()).tools}
            names = listed['move_arm_to_posture'].input_schema['properties']['posture']['enum']
            assert names == list(robot.postures) and 'home' in names
            r = await c.call_tool('move_arm_to_posture', {'posture': 'ready'})
            assert not r.is_error, r.content[0].text
            assert np.allclose(await _arm(c), robot.postures['ready'], atol=2e-3)
            r = await c.call_tool('move_arm_to_posture', {'posture': 'home'})
            assert not r.is_error, r.content[0].text
            assert np.allclose(await _arm(c), robot.home, atol=2e-3)


@pytest.mark.parametrize('tool,args', [
    ('move_arm_to_pose', {'position': {'x': 0.4, 'y': 0.2, 'z': 0.3}}),
    ('move_arm_to_posture', {'posture': 'ready'}),
    ('move_arm_relative', {'offset': {'x': 0.1, 'z': -0.1}}),
    ('plan_trajectory', {'waypoints': [{'x': 0.35, 'y': 0.0, 'z': 0.4},
                                       {'x': 0.35, 'y': 0.1, 'z': 0.4}]}),
])
async def test_plan_only_moves_nothing(sim_bridge, tool, args):
    """plan_only returns duration, path length and fraction; the arm does not move."""
    async with Client(sim_bridge.server, mode='legacy') as c:
        with anyio.fail_after(120):
            before = await _arm(c)
            r = await c.call_tool(tool, dict(args, plan_only=True))
            assert not r.is_error, r.content[0].text
            s = r.structured_content
            assert s['status'] == 'PLANNED'
            assert s['duration_s'] > 0.1 and s['path_length_m'] > 0.05
            assert s['fraction'] == pytest.approx(1.0, abs=0.02)
            assert 'nothing moved' in r.content[0].text
            assert np.allclose(before, await _arm(c), atol=1e-4)
            moved = await c.call_tool(tool, args)
            assert not moved.is_error, moved.content[0].text
            assert moved.structured_content['duration_s'] == pytest.approx(
                s['duration_s'], rel=0.25, abs=0.3)
    end = s['final_pose']['position_m']
    reached = moved.structured_content['final_pose']['position_m']
    assert math.dist(end.values(), reached.values()) < 0.005


async def test_move_the_box_and_put_it_back(sim_bridge):
    """Pick, carry 15 cm, place, pick again, bring back: the box ends within 5 mm of the start."""
    async with Client(sim_bridge.server, mode='legacy') as c:
        with anyio.fail_after(240):
            start = await _box(c)
            for dy in (0.15, -0.15):
                p = await _pick(c, 'box', lift_z=0.15)
                steps = [('move_arm_relative', {'offset': {'y': dy}}),
                         ('move_arm_relative', {'offset': {'z': p['z'] + 0.003 - 0.15}}),
                         ('release_object', {}),
                         ('move_arm_relative', {'offset': {'z': 0.1}})]
                for tool, args in steps:
                    r = await c.call_tool(tool, args)
                    assert not r.is_error, (tool, r.content[0].text)
                moved = await _box(c)
                assert abs(moved[1] - p['y'] - dy) < 0.005, moved
            end = await _box(c)
    assert np.linalg.norm(end[:2] - start[:2]) <= 0.005, end - start
