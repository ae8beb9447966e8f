"""Simulated motions keep every joint within its scaled velocity and acceleration limits."""

import numpy as np
import pytest
from sim_support import down, limits, load_config, running

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.sim]

HOME = np.array(load_config().home)
DT = 0.002
TOL = 1e-6   # relative: rounding only
# Straight lines from the home tip (x 0.307, y 0, z 0.487 m), each bending in joint space.
PATHS = {
    'down': [(0.0, 0.0, -0.3)],
    'sideways': [(0.0, 0.3, 0.0)],
    'reach': [(0.25, -0.2, -0.25)],
    'three_corners': [(0.1, 0.0, 0.0), (0.1, 0.2, 0.0), (-0.1, 0.2, -0.2)],
}


@pytest.fixture(scope='module')
def planner():
    from mcp_ros_bridge.backends.sim.planning import Planner
    from mcp_ros_bridge.backends.sim.world import World
    w = World(home=tuple(HOME))
    return w, Planner(w.model, w.arm_qpos, w.arm_dof, 0, 0.02, tuple(HOME))


def _within_limits(traj, scale: float) -> tuple[float, float]:
    """Return the worst finite-difference velocity and acceleration over their scaled limits."""
    from mcp_ros_bridge.backends.sim.mjcf import DDQ_MAX, DQ_MAX
    vel = np.diff(traj.q, axis=0) / traj.dt
    acc = np.diff(traj.q, 2, axis=0) / traj.dt ** 2
    return (float((np.abs(vel) / (np.array(DQ_MAX) * scale)).max()),
            float((np.abs(acc) / (np.array(DDQ_MAX) * scale)).max()))


def _cartesian(w, p, offsets, scale):
    pos, quat = p.kin.fk(HOME)
    plan = p.cartesian(w.data.qpos.copy(), HOME.copy(), [(pos + o, quat) for o in offsets],
                       0.005, True)
    assert plan.fraction == 1.0, plan.stop_reason
    return plan, p.cartesian_trajectory(plan, limits(scale, cart=0.25), DT)


@pytest.mark.parametrize('scale', [0.1, 0.5])
@pytest.mark.parametrize('name', sorted(PATHS))
def test_cartesian_path_keeps_joint_velocity_and_acceleration_limits(planner, name, scale):
    """Every sample: |dq/dt| <= DQ_MAX * scale, |d²q/dt²| <= DDQ_MAX * scale, tip <= 0.25 m/s."""
    w, p = planner
    plan, traj = _cartesian(w, p, PATHS[name], scale)
    vel, acc = _within_limits(traj, scale)
    assert vel <= 1 + TOL and acc <= 1 + TOL, (vel, acc)
    assert acc > 0.9  # the limit binds somewhere: the timing is not merely slow
    tips = np.array([p.kin.fk(q)[0] for q in traj.q[::5]])
    assert (np.linalg.norm(np.diff(tips, axis=0), axis=1) / (5 * DT)).max() <= 0.25 * 1.01
    assert np.allclose(traj.q[0], HOME) and np.allclose(traj.q[-1], plan.q[-1])
    assert not traj.qd[0].any() and not traj.qd[-1].any()


@pytest.mark.parametrize('scale', [0.1, 0.5])
def test_joint_moves_and_detours_keep_the_limits(planner, scale):
    """Joint-space moves, with and without a detour leg, stay inside the same limits."""
    w, p = planner
    for goal in ((1.2, -0.3, 0.0, -2.0, 0.0, 1.8, 0.8), (0.3, -0.6, 0.0, -2.2, 0.0, 1.6, 0.8)):
        traj = p.joint_trajectory(w.data.qpos.copy(), HOME, np.array(goal), limits(scale), DT)
        vel, acc = _within_limits(traj, scale)
        assert vel <= 1 + TOL and acc <= 1 + TOL, (goal, vel, acc)
        assert np.allclose(traj.q[-1], goal)


def test_a_curved_joint_path_is_slowed_by_its_curvature():
    """A joint-space circle (no straight stretch): the centripetal term alone caps the speed."""
    from mcp_ros_bridge.backends.sim import trajectory
    angle = np.linspace(0.0, 2 * np.pi, 400)
    radius = 0.5
    circle = np.stack([radius * np.cos(angle), radius * np.sin(angle)], axis=1)
    amax, vmax = np.array([1.0, 1.0]), np.array([10.0, 10.0])
    traj = trajectory.time_parameterise(circle, vmax, amax, DT)
    acc = np.abs(np.diff(traj.q, 2, axis=0)).max() / DT ** 2
    assert acc <= 1.0 + TOL
    speed = np.linalg.norm(traj.qd, axis=1).max()
    # each joint's |q''| (s'')² <= 1: v <= sqrt(r) where one joint takes the whole centripetal
    # acceleration, sqrt(sqrt(2) r) where two share it; ignoring the curvature gave 1.77
    assert 0.9 * np.sqrt(radius) < speed <= 1.01 * np.sqrt(np.sqrt(2) * radius)


@pytest.mark.anyio
async def test_the_executed_path_is_the_bounded_one():
    """Through the backend: the path it runs is the bounded plan, and the arm arrives."""
    from mcp_ros_bridge.backends.port import CartesianGoal
    async with running() as b:
        built = []
        plan_it = b.planner.cartesian_trajectory

        def recording(*args):
            built.append(plan_it(*args))
            return built[-1]
        b.planner.cartesian_trajectory = recording
        result = await b.follow_cartesian_path(CartesianGoal(
            [down(0.45, 0.15, 0.3), down(0.35, -0.15, 0.2)], limits(0.1)))
        assert result.succeeded, result.message
        [traj] = built
        assert result.details['planned_duration_s'] == round(traj.duration, 4)
        vel, acc = _within_limits(traj, 0.1)
        assert vel <= 1 + TOL and acc <= 1 + TOL, (vel, acc)


def test_the_slowest_fitting_scaling_keeps_the_ratio_of_acceleration_to_velocity(planner):
    """A too-slow motion with acceleration at a quarter of velocity: the advice fits as is."""
    import dataclasses

    from mcp_ros_bridge.backends.port import BackendError
    w, p = planner
    far = HOME + np.array([1.0, 0, 0, 0, 0, 0, 0])
    lim = dataclasses.replace(limits(0.004), acceleration_scaling=0.001, timeout_s=20.0)
    with pytest.raises(BackendError) as info:
        p.joint_trajectory(w.data.qpos.copy(), HOME, far, lim, DT)
    slowest = float(info.value.details['allowed'].removeprefix('>= ').split()[0])
    fits = p.joint_trajectory(w.data.qpos.copy(), HOME, far, dataclasses.replace(
        lim, velocity_scaling=slowest, acceleration_scaling=slowest / 4), DT)
    assert 15.0 < fits.duration <= 20.0
