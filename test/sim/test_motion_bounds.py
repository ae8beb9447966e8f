"""Trajectory sizes are bounded: a motion must fit in its timeout, whatever the scaling."""

import dataclasses

from mcp_ros_bridge.backends.port import BackendError
import numpy as np
import pytest
from sim_support import limits, load_config

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.sim]

HOME = np.array(load_config().home)
FAR = HOME + np.array([1.0, 0, 0, 0, 0, 0, 0])


@pytest.fixture(scope='module')
def planner():
    from mcp_ros_bridge.backends.sim.planning import Planner
    from mcp_ros_bridge.backends.sim.world import World
    w = World(home=tuple(HOME))
    return w, Planner(w.model, w.arm_qpos, w.arm_dof, 0, 0.02, tuple(HOME))


@pytest.mark.parametrize('scaling', [1e-5, 1e-300, 5e-324, 0.0])
def test_too_slow_motion_is_refused_naming_the_slowest_allowed_scaling(planner, scaling):
    """The refusal names velocity_scaling and a value that fits; no samples are built."""
    w, p = planner
    lim = dataclasses.replace(limits(scaling), timeout_s=60.0)
    with pytest.raises(BackendError) as info:
        p.joint_trajectory(w.data.qpos.copy(), HOME, FAR, lim, 0.002)
    err = info.value
    assert err.code == 'LIMIT_EXCEEDED' and err.details['limit'] == 'velocity_scaling'
    if scaling > 0:
        slowest = float(err.details['allowed'].removeprefix('>= ').split()[0])
        fits = p.joint_trajectory(w.data.qpos.copy(), HOME, FAR,
                                  dataclasses.replace(lim, velocity_scaling=slowest,
                                                      acceleration_scaling=slowest), 0.002)
        assert 50.0 < fits.duration <= 60.0
        assert len(fits.q) <= 60.0 / 0.002 + 1


def test_sample_count_follows_the_duration(planner):
    """An ordinary motion: duration within the timeout, one sample per physics step."""
    w, p = planner
    traj = p.joint_trajectory(w.data.qpos.copy(), HOME, FAR, limits(0.5), 0.002)
    assert 0.5 < traj.duration < 5.0
    assert len(traj.q) == round(traj.duration / 0.002) + 1
