"""
The simulated servos are force-limited at the URDF effort, checked from physics on real arms.

Each arm joint is driven by a position servo, a velocity servo and a feed-forward motor;
the joint's actuator force range is the URDF's ``effort``, and it bounds their sum. A
probe reads MuJoCo's joint forces every step of a fast motion: all of the drive comes
through the actuators (nothing is applied around them), and none passes the effort.
"""

from __future__ import annotations

import concurrent.futures
import xml.etree.ElementTree as ET

import anyio
from mcp import Client
import numpy as np
import pytest
from robot_data import arm_files
from test_sim_of_any_arm import _config

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.robots, pytest.mark.sim, pytest.mark.anyio]


class JointForceProbe:
    """Record the largest actuator and applied force per arm joint, every physics step."""

    channel = 'probe'

    def __init__(self, world) -> None:
        """Watch the arm's degrees of freedom."""
        self.future: concurrent.futures.Future = concurrent.futures.Future()
        self.halt_reason = None
        self.dof = world.arm_dof
        self.actuator = np.zeros(len(self.dof))
        self.applied = np.zeros(len(self.dof))
        self.ff = 0.0

    def start(self, world) -> None:
        """Nothing to prepare."""

    def pre(self, world) -> None:
        """Set no controls."""

    def post(self, world):
        """Keep the peaks; finish when asked."""
        d = world.data
        np.maximum(self.actuator, np.abs(d.qfrc_actuator[self.dof]), out=self.actuator)
        np.maximum(self.applied, np.abs(d.qfrc_applied[self.dof]), out=self.applied)
        self.ff = max(self.ff, float(np.abs(world.qfrc_arm).max()))
        return True if self.halt_reason else None

    def halt(self, reason: str) -> None:
        """Finish at the next step."""
        self.halt_reason = reason


def _efforts(arm: str) -> dict[str, float]:
    """Return each joint's ``<limit effort>`` read straight from the URDF."""
    root = ET.parse(arm_files(arm)[0]).getroot()
    return {j.get('name'): float(j.find('limit').get('effort'))
            for j in root.iter('joint') if j.find('limit') is not None
            and j.find('limit').get('effort') is not None}


@pytest.mark.parametrize('arm', ['ur5', 'xarm7'])
async def test_the_servos_never_pass_the_urdf_effort(arm, tmp_path):
    from mcp_ros_bridge.server.app import build
    from mcp_ros_bridge.server.settings import ServeOptions
    config = _config(arm, str(tmp_path / arm))
    bridge, backend = await build(ServeOptions(config_dir=config, sim_speed=0, watch=False))
    world, joints = backend.world, bridge.catalog.robot.arm_joints
    effort = np.array([_efforts(arm)[j] for j in joints])
    m = world.model
    ranges = np.array([m.jnt_actfrcrange[m.joint(j).id] for j in joints])
    assert np.allclose(ranges, np.c_[-effort, effort]), ranges
    probe = JointForceProbe(world)
    try:
        async with Client(bridge.server, mode='legacy') as c:
            with anyio.fail_after(300):
                world.submit(probe)
                r = await c.call_tool('move_arm_to_pose', {
                    'position': {'x': 0.4, 'y': 0.25, 'z': 0.3}, 'velocity_scaling': 0.5})
                assert not r.is_error, r.content[0].text
                r = await c.call_tool('move_arm_to_posture', {'posture': 'home',
                                                              'velocity_scaling': 0.5})
                assert not r.is_error, r.content[0].text
                probe.halt('done')
                await anyio.to_thread.run_sync(probe.future.result)
    finally:
        await backend.close()
    assert probe.ff > 0.0, 'the feed-forward went through its motors'
    assert probe.applied.max() == 0.0, probe.applied  # nothing drives the joints around them
    assert (probe.actuator <= effort + 1e-9).all(), (probe.actuator, effort)
