"""The workspace box holds for the whole path on the simulation, not only at targets."""

import dataclasses
import shutil

import anyio
from mcp import Client
from mcp_ros_bridge.backends.port import BackendError, JointGoal
from mcp_ros_bridge.server.app import build, ServeOptions
import numpy as np
from paths import CONFIG_DIR
import pytest
from sim_support import limits, running

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.sim, pytest.mark.anyio]

# In the joint limits, tip at (-0.50, -0.14, 1.11) m: inside the box. The straight joint
# path from home lifts the tip to z = 1.22 m, above the 1.19 m ceiling.
SWEEPS_OVER_THE_CEILING = [0.344, -0.812, -0.175, -0.362, -1.281, 3.109, 0.38]


def _arm(result) -> list[float]:
    return [j['position'] for j in result.structured_content['joints'] if j['unit'] == 'rad']


def _without_cone(tmp_path) -> str:
    """Copy the shipped config with the approach cone opened to 180 deg (box check alone)."""
    shutil.copytree(CONFIG_DIR, tmp_path, dirs_exist_ok=True)
    robot = tmp_path / 'robot.yaml'
    text = robot.read_text(encoding='utf-8')
    assert 'approach_cone_deg: 90.0' in text
    robot.write_text(text.replace('approach_cone_deg: 90.0', 'approach_cone_deg: 180.0'),
                     encoding='utf-8')
    return str(tmp_path)


@pytest.mark.parametrize('mode', ['legacy', '2026-07-28'])
async def test_joint_move_whose_path_leaves_the_box_is_refused_and_nothing_moves(mode, tmp_path):
    """Both ends are inside the box; the plan is not: LIMIT_EXCEEDED naming where, no motion."""
    bridge, backend = await build(ServeOptions(sim_speed=0, watch=False,
                                               config_dir=_without_cone(tmp_path)))
    try:
        async with Client(bridge.server, mode=mode) as c:
            with anyio.fail_after(120):
                before = _arm(await c.call_tool('get_joint_states', {}))
                r = await c.call_tool('move_arm_joints',
                                      {'positions': SWEEPS_OVER_THE_CEILING})
                assert r.is_error
                text = r.content[0].text
                assert 'LIMIT_EXCEEDED' in text and 'planned path at t=' in text, text
                assert 'z in [0.0, 1.19]' in text
                after = _arm(await c.call_tool('get_joint_states', {}))
                assert np.allclose(before, after, atol=1e-4)
                tip = (await backend.tip_poses([SWEEPS_OVER_THE_CEILING]))[0].position
                assert tip[2] < 1.19  # the target itself is allowed
    finally:
        await backend.close()


async def test_tip_poses_match_the_measured_end_effector_pose():
    """tip_poses is forward kinematics of the same TCP end_effector_pose reports."""
    async with running() as b:
        js = await b.joint_states()
        here = await b.end_effector_pose('panda_link0')
        rows = [js.positions[:7], SWEEPS_OVER_THE_CEILING]
        poses = await b.tip_poses(rows)
        assert len(poses) == 2 and poses[0].frame_id == 'panda_link0'
        assert np.allclose(poses[0].position, here.position, atol=1e-6)
        assert abs(abs(np.dot(poses[0].orientation, here.orientation)) - 1.0) < 1e-9
        assert poses[1].position == pytest.approx((-0.504, -0.135, 1.110), abs=2e-3)


async def test_execution_stops_when_a_sample_leaves_the_envelope():
    """
    The tip is watched while the arm moves: a sample refused mid-motion halts the arm.

    The check double passes the whole plan (many samples at once) and refuses any single
    executed sample after 0.3 s, standing in for an envelope the real tip leaves.
    """
    seen = []

    def check(poses, times):
        if len(poses) == 1 and times[0] > 0.3:
            seen.append(poses[0].position)
            raise BackendError('LIMIT_EXCEEDED', 'workspace (test) is out',
                               details={'limit': 'workspace (test)'})

    async with running() as b:
        watched = dataclasses.replace(limits(0.5), path_check=check)
        goal = JointGoal({'panda_joint1': 1.2}, watched)
        res = await b.move_to_joints(goal)
        assert res.status == 'FAILED', res.message
        assert 'while executing; the arm stopped' in res.message
        assert res.details['path_exit'] == {'limit': 'workspace (test)'}
        assert res.details['halt_at_s'] < 0.35
        js = await b.joint_states()
        assert js.positions[0] < 0.6 and max(map(abs, js.velocities[:7])) < 0.05
