"""Grips that hold and say so, called as an agent calls them: MCP client, real physics."""

import anyio
from mcp import Client
from mcp_ros_bridge.safety.ratelimit import RateLimiter
import pytest

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.sim, pytest.mark.anyio]


async def _call(c: Client, tool: str, args: dict) -> dict:
    r = await c.call_tool(tool, args)
    assert not r.is_error, (tool, r.content[0].text)
    return {'text': r.content[0].text, **r.structured_content}


async def _grasp(c: Client, name: str, force_n: float) -> dict:
    """Open above the object, descend around it and grasp; return the grasp result."""
    o = {o['name']: o for o in (await _call(c, 'list_objects', {}))['objects']}[name]
    p = o['pose']['position_m']
    await _call(c, 'release_object', {})
    await _call(c, 'move_arm_to_pose', {'position': {'x': p['x'], 'y': p['y'],
                                                     'z': o['grasp_z_m'] + 0.12},
                                        'velocity_scaling': 0.5})
    await _call(c, 'move_arm_relative', {'offset': {'z': -0.12}})
    return await _call(c, 'grasp_object_force_control', {'force_n': force_n})


async def test_lift_10cm_holding_the_box_reports_no_slip(sim_bridge):
    """15 N on the box: HOLDING, a 10 cm lift within 2 mm with slip under 0.5 mm reported."""
    async with Client(sim_bridge.server, mode='2026-07-28') as c:
        with anyio.fail_after(180):
            grasp = await _grasp(c, 'box', 15)
            assert grasp['status'] == 'HOLDING' and grasp['text'].startswith('HOLDING')
            state = await _call(c, 'read_gripper_state', {})
            before = await _call(c, 'get_end_effector_pose', {})
            lift = await _call(c, 'move_arm_relative', {'offset': {'z': 0.1},
                                                        'velocity_scaling': 0.5})
            after = await _call(c, 'read_gripper_state', {})
    assert state['status'] == 'HOLDING' and state['object'] == 'box'
    assert state['width_m'] == pytest.approx(0.05, abs=0.003)
    assert state['force_n'] == pytest.approx(15, rel=0.1) and state['force_source'] == 'measured'
    rise = (lift['final_pose']['position_m']['z']
            - before['pose']['position_m']['z'])
    assert rise == pytest.approx(0.1, abs=0.002)
    assert lift['grip']['status'] == 'HOLDING' and lift['grip']['object'] == 'box'
    assert lift['grip']['slip_mm'] < 0.5, lift['text']
    assert 'The box stayed in the grip (slip' in lift['text']
    assert after['status'] == 'HOLDING' and after['slip_mm'] < 0.5
    assert after['slip_method'] == 'object_in_hand'


async def test_a_slipping_grip_is_reported_in_the_motion_result(sim_bridge):
    """Wet pads (friction 0.05) and 5 N on the box: the lift reports the slip or the loss."""
    model = sim_bridge.backend.world.model
    wet = [i for i in range(model.npair) if model.geom(model.pair_geom2[i]).name == 'box']
    assert len(wet) == 2, 'the pad-box contact pairs of the MJCF'
    dry = model.pair_friction[wet, :2].copy()
    async with Client(sim_bridge.server, mode='legacy') as c:
        with anyio.fail_after(180):
            grasp = await _grasp(c, 'box', 5)
            assert grasp['status'] == 'HOLDING', grasp['text']
            model.pair_friction[wet, :2] = 0.05  # wet pads: 2 x 5 N x 0.05 < 2 N of weight
            try:
                lift = await _call(c, 'move_arm_relative', {'offset': {'z': 0.1},
                                                            'velocity_scaling': 0.5})
                state = await _call(c, 'read_gripper_state', {})
            finally:
                model.pair_friction[wet, :2] = dry
    grip = lift['grip']
    assert grip['status'] == 'LOST' or grip['slip_mm'] >= 3, lift['text']
    if grip['status'] == 'LOST':
        assert 'The box was lost' in lift['text'] and state['status'] == 'LOST'
    else:
        assert f"The box slipped {grip['slip_mm']:.1f} mm in the grip" in lift['text']
    assert 'stayed in the grip' not in lift['text']


async def test_grasp_while_holding_re_regulates_without_opening(sim_bridge):
    """A second grasp at 25 N tightens the held box: no opening, the box stays put."""
    async with Client(sim_bridge.server, mode='2026-07-28') as c:
        with anyio.fail_after(180):
            first = await _grasp(c, 'box', 8)
            await _call(c, 'move_arm_relative', {'offset': {'z': 0.05}})
            tighter = await _call(c, 'grasp_object_force_control', {'force_n': 25})
            state = await _call(c, 'read_gripper_state', {})
    assert first['force_n'] == pytest.approx(8, rel=0.1)
    assert tighter['status'] == 'HOLDING' and tighter['force_n'] == pytest.approx(25, rel=0.1)
    assert tighter['width_m'] <= first['width_m'] + 0.0005  # squeezed harder, never opened
    assert state['status'] == 'HOLDING' and state['slip_mm'] < 0.5
    assert state['force_n'] == pytest.approx(25, rel=0.1)


async def test_15n_holds_the_box_through_30s_of_moves_at_the_speed_cap(sim_bridge):
    """Back and forth, up and down at the speed cap for 30 s: under 0.5 mm of slip."""
    sim_bridge.pipeline.rate = RateLimiter(1000.0, 1000)  # 30 quick moves in a row
    legs = [{'y': 0.15}, {'y': -0.3}, {'y': 0.15, 'z': 0.15}, {'z': -0.15}]
    async with Client(sim_bridge.server, mode='2026-07-28') as c:
        with anyio.fail_after(600):
            assert (await _grasp(c, 'box', 15))['status'] == 'HOLDING'
            moved_s, slips = 0.0, []
            await _call(c, 'move_arm_relative', {'offset': {'z': 0.1}, 'velocity_scaling': 0.5})
            while moved_s < 30.0:
                r = await _call(c, 'move_arm_relative', {'offset': legs[len(slips) % 4],
                                                         'velocity_scaling': 0.5})
                moved_s += r['duration_s']
                slips.append(r['grip']['slip_mm'])
                assert r['grip']['status'] == 'HOLDING', r['text']
            state = await _call(c, 'read_gripper_state', {})
    assert state['status'] == 'HOLDING' and state['slip_mm'] < 0.5, (state, slips)
    assert max(slips) < 0.5, slips
