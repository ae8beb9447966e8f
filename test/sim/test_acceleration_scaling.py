"""robot.yaml's default_acceleration_scaling sets how hard each motion accelerates."""

import shutil

import anyio
from mcp import Client
from mcp_ros_bridge.server.app import build, ServeOptions
import numpy as np
from paths import CONFIG_DIR
import pytest
from sim_support import limits, load_config

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.sim, pytest.mark.anyio]

GOAL = [1.0, -0.3, 0.0, -2.0, 0.0, 1.8, 0.785]
SHIPPED = 'default_acceleration_scaling: 0.2 '


def _config(tmp_path, default_acceleration: float) -> str:
    """Copy the shipped config with another default acceleration scaling."""
    shutil.copytree(CONFIG_DIR, tmp_path, dirs_exist_ok=True)
    robot = tmp_path / 'robot.yaml'
    text = robot.read_text(encoding='utf-8')
    assert SHIPPED in text
    changed = f'default_acceleration_scaling: {default_acceleration} '
    robot.write_text(text.replace(SHIPPED, changed), encoding='utf-8')
    return str(tmp_path)


def _planned(velocity: float, acceleration: float) -> float:
    """Return the planner's duration of home -> GOAL at explicit scalings."""
    import dataclasses

    from mcp_ros_bridge.backends.sim.planning import Planner
    from mcp_ros_bridge.backends.sim.world import World
    home = load_config().home
    w = World(home=tuple(home))
    p = Planner(w.model, w.arm_qpos, w.arm_dof, 0, 0.02, tuple(home))
    lim = dataclasses.replace(limits(velocity), acceleration_scaling=acceleration)
    return p.joint_trajectory(w.data.qpos.copy(), np.array(home), np.array(GOAL), lim,
                              0.002).duration


# (default_acceleration_scaling with the default velocity 0.2, call's velocity, expected
# acceleration): the ratio carries over (the cap: test/unit/test_acceleration_ratio.py).
CASES = [(0.2, 0.2, 0.2), (0.2, 0.5, 0.5), (0.05, 0.2, 0.05), (0.05, 0.4, 0.1),
         (0.5, 0.1, 0.25)]


@pytest.mark.parametrize('default_acc, velocity, acceleration', CASES)
async def test_a_plan_accelerates_at_the_configured_ratio(tmp_path, default_acc, velocity,
                                                          acceleration):
    """Over MCP, plan only: the duration is the planner's at the expected acceleration."""
    bridge, backend = await build(ServeOptions(sim_speed=0, watch=False,
                                               config_dir=_config(tmp_path, default_acc)))
    try:
        async with Client(bridge.server, mode='2026-07-28') as c:
            with anyio.fail_after(60):
                r = await c.call_tool('move_arm_joints', {
                    'positions': GOAL, 'velocity_scaling': velocity, 'plan_only': True})
    finally:
        await backend.close()
    assert not r.is_error, r.content[0].text
    took = r.structured_content['duration_s']
    assert took == pytest.approx(_planned(velocity, acceleration), abs=0.01)
    if acceleration != velocity:  # what acceleration = velocity scaling would have planned
        assert abs(took - _planned(velocity, velocity)) > 0.05
