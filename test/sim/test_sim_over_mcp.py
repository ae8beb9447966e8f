"""End to end on real physics, through the MCP server and the SDK's in-memory client."""

import io

import anyio
from mcp import Client
import numpy as np
import pytest

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.sim, pytest.mark.anyio]

MODES = ['legacy', '2026-07-28']


def _arm(result):
    return [j['position'] for j in result.structured_content['joints'] if j['unit'] == 'rad']


def _xyz(pose):
    return [pose['position_m'][axis] for axis in 'xyz']


@pytest.mark.parametrize('mode', MODES)
async def test_reach_and_unreachable_pose_over_mcp(sim_bridge, mode):
    """A reachable pose is reached within 2 mm; an unreachable one fails before motion."""
    async with Client(sim_bridge.server, mode=mode) as c:
        with anyio.fail_after(60):
            r = await c.call_tool('move_arm_to_pose',
                                  {'position': {'x': 0.45, 'y': -0.15, 'z': 0.35},
                                   'velocity_scaling': 0.5})
            assert not r.is_error, r.content[0].text
            assert r.structured_content['position_error_mm'] < 2.0
            before = _arm(await c.call_tool('get_joint_states', {}))
            far = await c.call_tool('move_arm_to_pose',
                                    {'position': {'x': 0.85, 'y': 0.85, 'z': 1.1}})
            assert far.is_error
            assert 'NO_IK_SOLUTION' in far.content[0].text
            after = _arm(await c.call_tool('get_joint_states', {}))
            assert np.allclose(before, after, atol=1e-3)


async def test_ft_at_rest_and_filters_reduce_noise(sim_bridge):
    """The wrist reads the hand's weight; both filters cut the noise of raw samples."""
    async with Client(sim_bridge.server, mode='legacy') as c:
        with anyio.fail_after(60):
            raw, kal, avg = [], [], []
            for _ in range(30):
                raw.append((await c.call_tool('read_ft_sensor', {'filter': 'raw', 'axes': [
                    'Fz']})).structured_content['values']['Fz'])
                kal.append((await c.call_tool('read_ft_sensor', {'filter': 'kalman', 'axes': [
                    'Fz'], 'window_s': 0.2})).structured_content['values']['Fz'])
                avg.append((await c.call_tool('read_ft_sensor', {
                    'filter': 'moving_average', 'axes': ['Fz'],
                    'window_s': 0.2})).structured_content['values']['Fz'])
                await sim_bridge.backend.wrench_samples(1)  # let the sensor stream advance
    v_raw, v_kal, v_avg = np.var(raw), np.var(kal), np.var(avg)
    assert v_kal < v_raw / 4, (v_raw, v_kal)
    assert v_avg < v_raw / 4, (v_raw, v_avg)


async def test_stop_arm_halts_a_motion_over_mcp(sim_bridge):
    """stop_arm during a move: STOPPED with its duration and stopped pose; the next move works."""
    async with Client(sim_bridge.server, mode='legacy') as c:
        started = anyio.Event()
        results = {}

        async def progress(p, total, message):
            if p > 0.2:
                started.set()

        async def mover():
            results['move'] = await c.call_tool(
                'move_arm_joints', {'positions': [1.0, -0.3, 0.0, -2.0, 0.0, 1.8, 0.785],
                                    'velocity_scaling': 0.1}, progress_callback=progress)

        with anyio.fail_after(120):
            async with anyio.create_task_group() as tg:
                tg.start_soon(mover)
                await started.wait()
                stop = await c.call_tool('stop_arm', {})
            assert stop.structured_content['stopped_motion'] is True
            stopped = results['move'].structured_content
            assert stopped['status'] == 'STOPPED'
            # It says how long it ran and where the arm stopped: where the arm still is.
            assert stopped['duration_s'] > 0.0, stopped
            here = (await c.call_tool('get_end_effector_pose', {})).structured_content['pose']
            assert _xyz(stopped['final_pose']) == pytest.approx(_xyz(here), abs=1e-3)
            assert 'Now at' in stopped['message']
            again = await c.call_tool('move_arm_joints', {
                'positions': [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785],
                'velocity_scaling': 0.5})
            assert not again.is_error, again.content[0].text


async def test_full_demo_in_fast_mode(tmp_path):
    """The README's main job: pick-and-place over a real stdio MCP session succeeds."""
    from mcp_ros_bridge.demo import run_demo
    out = io.StringIO()
    image = tmp_path / 'scene.png'
    with anyio.fail_after(240):
        rc = await run_demo(0.0, str(image), out)
    assert rc == 0, out.getvalue()[-3000:]
    assert 'SUCCESS' in out.getvalue()
    assert image.read_bytes()[:8] == b'\x89PNG\r\n\x1a\n'


async def test_grasp_in_empty_air_says_no_object(sim_bridge):
    """Closing on nothing is an isError that tells the agent what to do next."""
    async with Client(sim_bridge.server, mode='legacy') as c:
        with anyio.fail_after(60):
            await c.call_tool('release_object', {})
            r = await c.call_tool('grasp_object_force_control', {'force_n': 10})
    assert r.is_error
    assert r.structured_content['object_held'] is False
    assert r.structured_content['status'] == 'EMPTY'
    assert r.content[0].text.startswith('EMPTY: the fingers closed')
    assert 'list_objects' in r.content[0].text
