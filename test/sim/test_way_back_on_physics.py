"""The envelope never locks the arm out: on real physics, the way back into it always works."""

from __future__ import annotations

from dataclasses import replace

import anyio
from mcp import Client
from mcp_ros_bridge.backends.port import JointGoal, MotionStatus, Pose, PoseGoal
from mcp_ros_bridge.geometry import approach_angle_deg, rpy_deg_to_quat
from mcp_ros_bridge.safety.envelope import Envelope, EnvelopedBackend, LimitError
from mcp_ros_bridge.safety.path_limits import PathWatch
import numpy as np
import pytest
from sim_support import down, limits, load_config, running

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.sim, pytest.mark.anyio]

SIDEWAYS = {'position': {'x': 0.45, 'y': 0.0, 'z': 0.35},
            'orientation': {'roll': 180, 'pitch': 90, 'yaw': 0}}
FINGERS_DOWN = {'position': {'x': 0.45, 'y': 0.0, 'z': 0.35},
                'orientation': {'roll': 180, 'pitch': 0, 'yaw': 0}}


def _angle(result) -> float:
    o = result.structured_content['final_pose']['orientation_deg']
    return approach_angle_deg(rpy_deg_to_quat(o['roll'], o['pitch'], o['yaw']))


WAYS_BACK = {'move_arm_to_posture': ({'posture': 'home'}, 1.0),
             'move_arm_to_pose': (FINGERS_DOWN, 1.0),
             'move_arm_relative': ({'offset': {'x': 0.0, 'y': 0.0, 'z': 0.05}}, 90.6)}


@pytest.mark.parametrize('way_back', sorted(WAYS_BACK))
async def test_a_target_on_the_cone_edge_leaves_a_way_back(sim_bridge, way_back: str) -> None:
    """Pitch 90 (the 90 deg cone's edge) ends within tolerance; the next motion may run."""
    back, angle_after = WAYS_BACK[way_back]
    async with Client(sim_bridge.server, mode='legacy') as client:
        with anyio.fail_after(120):
            edge = await client.call_tool('move_arm_to_pose', SIDEWAYS)
            assert not edge.is_error, edge.content[0].text
            assert _angle(edge) == pytest.approx(90.0, abs=0.5)
            again = await client.call_tool(way_back, back)
            assert not again.is_error, again.content[0].text
            assert _angle(again) < angle_after  # a relative move keeps the orientation


async def _tilted_60(sim) -> EnvelopedBackend:
    """Tilt the fingers 60 deg under the shipped 90 deg cone; return a 30 deg cone envelope."""
    cfg = sim.config
    wide = EnvelopedBackend(sim, cfg)
    goal = PoseGoal(Pose((0.45, 0.0, 0.35), rpy_deg_to_quat(180, 60, 0), cfg.base_frame),
                    limits())
    assert (await wide.move_to_pose(goal)).succeeded
    narrow = replace(cfg, limits=replace(cfg.limits, approach_cone_deg=30.0))
    return EnvelopedBackend(sim, narrow)


async def test_from_outside_a_narrowed_cone_home_and_down_work_and_farther_is_refused() -> None:
    """At 60 deg with a 30 deg cone: home and a fingers-down pose move; tilting more does not."""
    async with running() as sim:
        cfg = sim.config
        with anyio.fail_after(120):
            narrow = await _tilted_60(sim)
            home = await narrow.move_to_joints(JointGoal(dict(zip(cfg.arm_joints, cfg.home)),
                                                         limits()))
            assert home.status is MotionStatus.SUCCEEDED, home.message
            assert approach_angle_deg(home.final_pose.orientation) < 1.0
            narrow = await _tilted_60(sim)
            back = await narrow.move_to_pose(PoseGoal(down(0.45, 0.0, 0.35), limits()))
            assert back.status is MotionStatus.SUCCEEDED, back.message
            narrow = await _tilted_60(sim)
            before = (await sim.joint_states()).positions
            farther = PoseGoal(Pose((0.45, 0.0, 0.35), rpy_deg_to_quat(180, 70, 0),
                                    cfg.base_frame), limits())
            with pytest.raises(LimitError):
                await narrow.move_to_pose(farther)
            assert np.allclose((await sim.joint_states()).positions, before, atol=1e-3)


async def test_a_planned_path_that_tilts_further_before_coming_back_is_refused() -> None:
    """Real FK of a joint path 60 deg → more tilted → home: refused at the first farther sample."""
    cfg = load_config()
    async with running(cfg) as sim:
        with anyio.fail_after(120):
            narrow = await _tilted_60(sim)
            q0 = np.array((await sim.joint_states()).positions[:7])
            q_more = q0 + np.array([0, 0, 0, 0, 0, -0.4, 0])  # panda_joint6 tilts the hand
            rows = [*np.linspace(q0, q_more, 10), *np.linspace(q_more, cfg.home, 20)]
            poses = await sim.tip_poses(rows)
            angles = [approach_angle_deg(p.orientation) for p in poses]
            assert max(angles) > angles[0] + 5  # the path really goes farther out first
            with pytest.raises(LimitError) as info:
                PathWatch(Envelope(narrow.robot))(poses, [0.1 * k for k in range(len(rows))])
            assert 'sample 2 of 30' in info.value.details['limit']
            straight = [*np.linspace(q0, cfg.home, 20)]
            PathWatch(Envelope(narrow.robot))(await sim.tip_poses(straight),
                                              [0.1 * k for k in range(20)])
