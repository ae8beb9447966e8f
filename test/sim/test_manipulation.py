"""Guarded moves, pick and place over MCP on the simulation; placements checked from physics."""

import math

import anyio
from mcp import Client
from mcp_ros_bridge.contract.results import error_block
from mcp_ros_bridge.server.app import build, ServeOptions
import numpy as np
import pytest
from sim_support import body_state, calls_in_chinese

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.sim, pytest.mark.anyio]
MODES = ['legacy', '2026-07-28']


async def _ok(c: Client, tool: str, args: dict) -> dict:
    r = await c.call_tool(tool, args)
    assert not r.is_error, (tool, r.content[0].text)
    return r.structured_content


def _tilt_deg(quat: np.ndarray) -> float:
    _, x, y, _ = quat / np.linalg.norm(quat)
    return math.degrees(math.acos(max(-1.0, min(1.0, 1.0 - 2.0 * (x * x + y * y)))))


def _arm(bridge) -> np.ndarray:
    w = bridge.backend.world
    return w.snapshot()[0][w.arm_qpos].copy()


@pytest.mark.parametrize('mode', MODES)
async def test_guarded_move_down_stops_on_the_table_and_reports_its_height(sim_bridge, mode):
    """From 10 cm up, down until contact: stops on the table top (z = 0) within 2 mm, still."""
    async with Client(sim_bridge.server, mode=mode) as c:
        with anyio.fail_after(120):
            await _ok(c, 'move_arm_to_pose', {'position': {'x': 0.4, 'y': -0.2, 'z': 0.1}})
            s = await _ok(c, 'move_until_contact', {'direction': 'down', 'max_distance_m': 0.2,
                                                    'contact_force_n': 5})
    assert s['status'] == 'CONTACT', s['message']
    contact = s['contact']
    assert abs(contact['height_m']) <= 0.002, contact
    assert contact['point_source'] == 'physics' and contact['force_n'] > 5.0
    assert 0.08 < contact['travelled_m'] < 0.1  # the pads reach 9 mm below the fingertip centre
    tip = sim_bridge.backend.world.data.site_xpos[sim_bridge.backend.world.model.site(
        'panda_hand_tcp').id]
    assert abs(tip[2] - contact['tip_m']['z']) < 0.003  # held where it touched
    assert float(np.abs(sim_bridge.backend.world.qvel_arm).max()) < 0.01
    assert s['stop_latency_s'] < 0.1
    assert 'CONTACT' in s['message'] or 'contact' in s['message']


async def test_guarded_move_without_contact_says_so(sim_bridge):
    """Up 5 cm touches nothing: NO_CONTACT after the whole distance, not an error."""
    async with Client(sim_bridge.server, mode='legacy') as c:
        with anyio.fail_after(120):
            r = await c.call_tool('move_until_contact', {'direction': 'up',
                                                         'max_distance_m': 0.05,
                                                         'speed_mps': 0.0075})
    assert not r.is_error, r.content[0].text
    s = r.structured_content
    assert s['status'] == 'NO_CONTACT' and abs(s['travelled_m'] - 0.05) < 0.002, s
    assert 'max_distance_m' in r.content[0].text


@pytest.mark.parametrize('mode', MODES)
async def test_guarded_move_refusals_name_the_field_and_move_nothing(sim_bridge, mode):
    """Slower than the schema allows, or a threshold above the contact limit: refused, still."""
    async with Client(sim_bridge.server, mode=mode) as c:
        with anyio.fail_after(60):
            before = _arm(sim_bridge)
            slow = await c.call_tool('move_until_contact', {'max_distance_m': 0.2,
                                                            'speed_mps': 0.001})
            hard = await c.call_tool('move_until_contact', {'contact_force_n': 400})
    assert slow.is_error and error_block(slow)['details']['fields'] == ['speed_mps']
    assert '0.005' in slow.content[0].text and 'CONTACT' in slow.content[0].text
    assert hard.is_error and 'contact_force_n' in hard.content[0].text
    assert 'CONTACT' in hard.content[0].text  # what a corrected call returns
    assert np.allclose(before, _arm(sim_bridge), atol=1e-4)


@pytest.mark.parametrize('mode', MODES)
async def test_pick_and_place_the_box_in_two_calls(sim_bridge, mode):
    """pick_object + place_object: the box rests within 10 mm of the target (physics)."""
    steps = []

    async def progress(done, total, message):
        steps.append(message)

    async with Client(sim_bridge.server, mode=mode) as c:
        with anyio.fail_after(180):
            picked = await c.call_tool('pick_object', {'object': 'box'},
                                       progress_callback=progress)
            placed = await c.call_tool('place_object', {'target': {'x': 0.45, 'y': 0.2}},
                                       progress_callback=progress)
    assert not picked.is_error and picked.structured_content['status'] == 'HOLDING'
    assert not placed.is_error, placed.content[0].text
    assert placed.structured_content['status'] == 'PLACED'
    assert picked.structured_content['duration_s'] > 1.0  # the robot's time, step by step
    pos, quat = body_state(sim_bridge, 'box')
    assert math.dist(pos, (0.45, 0.2, 0.025)) < 0.01, pos
    assert _tilt_deg(quat) < 5.0
    assert any(m.startswith('grasping') for m in steps) and any(
        m.startswith('touching down') for m in steps), steps


HALF_HEIGHT_M = {'box': 0.025, 'cylinder': 0.05}


@pytest.mark.parametrize('top,bottom', [('cylinder', 'box'), ('box', 'cylinder')])
async def test_stack_one_object_on_the_other_without_arithmetic(sim_bridge, top, bottom):
    """place_object(on: ...): the held object stands upright on the other's top within 10 mm."""
    async with Client(sim_bridge.server, mode='legacy') as c:
        with anyio.fail_after(180):
            await _ok(c, 'pick_object', {'object': top})
            s = await _ok(c, 'place_object', {'on': bottom})
    under, _ = body_state(sim_bridge, bottom)
    placed, quat = body_state(sim_bridge, top)
    surface = under[2] + HALF_HEIGHT_M[bottom]
    assert s['status'] == 'PLACED' and abs(s['contact_height_m'] - surface) < 0.003, s
    assert math.dist(placed, (under[0], under[1], surface + HALF_HEIGHT_M[top])) < 0.01
    assert _tilt_deg(quat) < 5.0


@pytest.mark.parametrize('mode', MODES)
async def test_place_failures_say_the_step_and_what_already_happened(sim_bridge, mode):
    """Place with nothing held, then onto the held object itself: fixable, nothing moves."""
    async with Client(sim_bridge.server, mode=mode) as c:
        with anyio.fail_after(180):
            empty = await c.call_tool('place_object', {'target': {'x': 0.45, 'y': 0.2}})
            await _ok(c, 'pick_object', {'object': 'box'})
            before = _arm(sim_bridge)
            itself = await c.call_tool('place_object', {'on': 'box'})
            both = await c.call_tool('place_object', {})
    assert empty.is_error and error_block(empty)['code'] == 'NOT_HOLDING'
    assert 'pick_object' in empty.content[0].text and 'PLACED' in empty.content[0].text
    text = itself.content[0].text
    assert itself.is_error and error_block(itself)['details']['field'] == 'on'
    assert 'holding the box with the fingertip at z 0.125 m' in text, text
    assert 'cylinder' in text and 'PLACED' in text  # allowed values, what a fix returns
    assert both.is_error and error_block(both)['details']['field'] == 'target'
    assert np.allclose(before, _arm(sim_bridge), atol=1e-4)


async def test_job_texts_in_chinese():
    """Under --lang zh the pick report and a place failure read Chinese, numbers unchanged."""
    picked, wrong = await calls_in_chinese([('pick_object', {'object': 'box'}),
                                            ('place_object', {'on': 'box'})])
    assert picked.content[0].text.startswith('HOLDING：已夹持 box'), picked.content[0].text
    assert '正夹持 box，指尖位于 z 0.125 m' in wrong.content[0].text, wrong.content[0].text


async def test_stop_arm_ends_a_pick_mid_step_and_nothing_after_it_runs():
    """stop_arm while pick_object moves above the box: the job ends there, the arm holds."""
    bridge, backend = await build(ServeOptions(sim_speed=1.0, watch=False))
    moving, results = anyio.Event(), {}

    async def progress(done, total, message):
        if message.startswith('moving above the object') and done > 2.2 / 7:
            moving.set()
    try:
        async with Client(bridge.server, mode='legacy') as c:
            async def pick():
                results['pick'] = await c.call_tool('pick_object', {
                    'object': 'box', 'velocity_scaling': 0.1}, progress_callback=progress)

            with anyio.fail_after(120):
                async with anyio.create_task_group() as tg:
                    tg.start_soon(pick)
                    await moving.wait()
                    results['stop'] = await c.call_tool('stop_arm', {})
            await backend.advance(0.1)
            grip = await c.call_tool('read_gripper_state', {})
    finally:
        await backend.close()
    assert results['stop'].structured_content['stopped_motion'] is True
    assert results['pick'].is_error and 'STOPPED' in error_block(results['pick'])['code']
    assert float(np.abs(backend.world.qvel_arm).max()) < 0.02
    assert grip.structured_content['status'] == 'OPEN'  # the grasp step never ran


async def test_guarded_move_along_the_fingers_follows_the_tilted_tool_axis(sim_bridge):
    """Fingers tilted 30 deg: along_fingers moves along that axis and stops on the table."""
    async with Client(sim_bridge.server, mode='legacy') as c:
        with anyio.fail_after(120):
            await _ok(c, 'move_arm_to_pose', {'position': {'x': 0.45, 'y': -0.2, 'z': 0.08},
                                              'orientation': {'roll': 180, 'pitch': 30,
                                                              'yaw': 0}})
            start = (await _ok(c, 'get_end_effector_pose', {}))['pose']['position_m']
            s = await _ok(c, 'move_until_contact', {'direction': 'along_fingers',
                                                    'max_distance_m': 0.15})
    assert s['status'] == 'CONTACT' and abs(s['contact']['height_m']) <= 0.002, s
    tip = s['contact']['tip_m']
    moved = [tip[k] - start[k] for k in 'xyz']
    assert moved[2] < 0 and abs(moved[1]) < 0.002  # down and sideways in the x-z plane
    assert abs(math.degrees(math.atan2(abs(moved[0]), -moved[2])) - 30.0) < 2.0, moved
