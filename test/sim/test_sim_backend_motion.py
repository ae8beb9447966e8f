"""The sim backend's arm through the port: reach, refusals, paths, guard, stop, cancel."""

import asyncio
import itertools
import math
import time

from mcp_ros_bridge.backends.port import BackendError, CartesianGoal, JointGoal, Pose, PoseGoal
import numpy as np
import pytest
from sim_support import down, drive_into_table, limits, load_config, running

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.sim, pytest.mark.anyio]


def _angle(q1, q2) -> float:
    """Return the rotation angle (rad) between two wxyz quaternions."""
    return 2.0 * math.acos(min(1.0, abs(float(np.dot(q1, q2)))))


async def _arm(backend) -> tuple[np.ndarray, np.ndarray]:
    js = await backend.joint_states()
    return np.array(js.positions[:7]), np.array(js.velocities[:7])


def _commanded(backend) -> np.ndarray:
    """Return the arm's commanded joint positions (position actuator targets)."""
    w = backend.world
    with w.lock:
        return w.data.ctrl[w.pos_act].copy()


def _robot_touches(backend, other: str) -> list[str]:
    """Return robot geoms in contact with the geom ``other`` right now."""
    w = backend.world
    m, d = w.model, w.data
    gid = m.geom(other).id
    out = []
    with w.lock:
        for i in range(d.ncon):
            g1, g2 = d.contact.geom1[i], d.contact.geom2[i]
            if gid in (g1, g2) and backend.guard.robot[g2 if g1 == gid else g1]:
                out.append(m.geom(g2 if g1 == gid else g1).name)
    return out


async def test_random_reachable_poses_are_reached_within_2mm_and_1deg():
    """Poses from random collision-free configurations are reached precisely."""
    rng = np.random.default_rng(7)
    async with running() as b:
        kin = b.planner.kin
        targets = []
        while len(targets) < 4:
            q = rng.uniform(kin.lo + 0.3, kin.hi - 0.3)
            pos, quat = kin.fk(q)
            if pos[2] > 0.15 and np.linalg.norm(pos[:2]) > 0.3 and not kin.collisions(q):
                targets.append((pos, quat))
        for pos, quat in targets:
            goal = PoseGoal(Pose(tuple(pos), tuple(quat), 'panda_link0'), limits(0.5))
            result = await b.move_to_pose(goal)
            assert result.status == 'SUCCEEDED', result.message
            reached = await b.end_effector_pose('panda_link0')
            assert np.linalg.norm(np.subtract(reached.position, pos)) < 0.002
            assert math.degrees(_angle(reached.orientation, quat)) < 1.0


@pytest.mark.parametrize('target, code', [((1.5, 0.0, 0.4), 'NO_IK_SOLUTION'),
                                          ((0.45, -0.25, -0.06), 'GOAL_IN_COLLISION')])
async def test_unreachable_or_colliding_pose_fails_before_motion(target, code):
    """The error comes before any motion; the arm does not move."""
    async with running() as b:
        before, _ = await _arm(b)
        with pytest.raises(BackendError) as err:
            await b.move_to_pose(PoseGoal(down(*target), limits()))
        assert err.value.code == code
        await b.advance(0.2)
        after, vel = await _arm(b)
        assert np.abs(after - before).max() < 1e-4
        assert np.abs(vel).max() < 1e-3


async def test_joint_goal_is_reached_with_monotone_progress():
    """A joint goal is reached; progress fractions rise to 1 and are awaited on the loop."""
    cfg = load_config()
    goal = dict(zip(cfg.arm_joints, (0.4, -0.4, 0.1, -2.2, 0.1, 1.9, 0.5)))
    seen = []

    async def progress(fraction, message):
        seen.append(fraction)
        await asyncio.sleep(0)

    async with running(cfg) as b:
        result = await b.move_to_joints(JointGoal(goal, limits(0.3)), progress)
        assert result.succeeded, result.message
        q, _ = await _arm(b)
        assert np.abs(q - list(goal.values())).max() < 0.005
    assert seen[-1] == 1.0 and len(seen) > 5
    assert all(a <= b for a, b in itertools.pairwise(seen))


async def test_cartesian_path_stays_within_1mm_of_the_line():
    """Physics TCP samples taken during execution stay within 1 mm of the straight line."""
    start, end = np.array([0.35, -0.2, 0.35]), np.array([0.55, 0.2, 0.2])
    samples = []
    async with running() as b:
        assert (await b.move_to_pose(PoseGoal(down(*start), limits()))).succeeded

        async def progress(fraction, message):
            samples.append((await b.end_effector_pose('panda_link0')).position)

        result = await b.follow_cartesian_path(
            CartesianGoal([down(*end)], limits(0.5, cart=0.15), max_step_m=0.005), progress)
        assert result.status == 'SUCCEEDED', result.message
        assert result.fraction == 1.0
        assert result.details['max_path_deviation_m'] < 0.001
        assert np.linalg.norm(np.subtract(result.final_pose.position, end)) < 0.001
    axis = (end - start) / np.linalg.norm(end - start)
    devs = [np.linalg.norm((p - start) - np.dot(p - start, axis) * axis)
            for p in np.array(samples)]
    assert len(devs) > 5 and max(devs) < 0.001


async def test_cartesian_path_through_the_table_is_partial_and_not_executed():
    """Below min_fraction nothing moves; above it the arm stops short of the table."""
    async with running() as b:
        assert (await b.move_to_pose(PoseGoal(down(0.3, -0.3, 0.25), limits()))).succeeded
        before, commanded = await _arm(b), _commanded(b)
        result = await b.follow_cartesian_path(CartesianGoal([down(0.3, -0.3, -0.1)], limits()))
        assert result.status == 'PARTIAL'
        assert 0.3 < result.fraction < 1.0
        assert 'table' in result.message
        # nothing was commanded; the servos only finish settling on the held target (the
        # world idles in real time while the planner runs, so that residue depends on load)
        assert np.array_equal(_commanded(b), commanded)
        assert np.abs((await _arm(b))[0] - before[0]).max() < 1e-3
        partial = await b.follow_cartesian_path(
            CartesianGoal([down(0.3, -0.3, -0.1)], limits(), min_fraction=0.5))
        assert partial.status == 'SUCCEEDED', partial.message
        assert partial.peak_force_n is None
        assert partial.fraction == pytest.approx(result.fraction)
        assert _robot_touches(b, 'table') == []


async def test_contact_watchdog_stops_within_50ms_and_reports_peak_force():
    """Driving into the table (collision checks off) trips the guard at the limit."""
    async with running(load_config(workspace_min_z=-0.2)) as b:
        result = await drive_into_table(b)
        assert result.status == 'CONTACT_ABORT', result.message
        assert result.peak_force_n > 30.0
        assert any('table' in pair for pair in result.contact['pairs'])
        d = result.details
        assert d['reaction_s'] <= 0.05
        assert result.contact['time_s'] - d['threshold_crossed_at_s'] <= 0.05
        _, vel = await _arm(b)
        assert np.abs(vel).max() < 0.01
        assert (await b.end_effector_pose('panda_link0')).position[2] > 0.0
        again = await b.move_to_pose(PoseGoal(down(0.35, -0.25, 0.2), limits()))
        assert again.succeeded, again.message


async def _slow_motion_until(b, fraction_reached: asyncio.Event):
    cfg = b.config

    async def progress(fraction, message):
        if fraction >= 0.2:
            fraction_reached.set()

    goal = dict(zip(cfg.arm_joints, (1.2, -0.3, 0.0, -2.0, 0.0, 1.8, 0.8)))
    return await b.move_to_joints(JointGoal(goal, limits(0.05)), progress)


async def test_stop_halts_the_motion_and_the_next_motion_works():
    """Stop ends the running motion, the arm is still within 100 ms, then moves again."""
    async with running() as b:
        reached = asyncio.Event()
        motion = asyncio.create_task(_slow_motion_until(b, reached))
        await reached.wait()
        stopped = await b.stop()
        result = await motion
        assert result.status == 'STOPPED'
        assert stopped.status == 'STOPPED' and stopped.details['was_moving']
        assert 0.2 <= result.fraction < 0.9
        assert result.details['still_after_halt_s'] <= 0.1
        _, vel = await _arm(b)
        assert np.abs(vel).max() < 0.01
        idle = await b.stop()
        assert idle.status == 'IDLE' and not idle.details['was_moving']
        assert (await b.move_to_pose(PoseGoal(down(0.4, 0.0, 0.3), limits()))).succeeded


async def test_cancel_halts_the_motion_and_the_next_motion_works():
    """Cancelling the awaiting task halts the arm before the cancellation propagates."""
    async with running() as b:
        reached = asyncio.Event()
        motion = asyncio.create_task(_slow_motion_until(b, reached))
        await reached.wait()
        t_cancel = b.world.time
        motion.cancel()
        with pytest.raises(asyncio.CancelledError):
            await motion
        assert b.world.time - t_cancel <= 0.15
        _, vel = await _arm(b)
        assert np.abs(vel).max() < 0.01
        assert (await b.move_to_pose(PoseGoal(down(0.4, 0.0, 0.3), limits()))).succeeded


async def test_motion_past_its_timeout_is_stopped_and_reported():
    """
    A motion running past its timeout halts with TIMED_OUT; the arm is still.

    The planner refuses plans longer than the timeout (test_motion_bounds.py), so the
    executor's own timeout is driven here with a long plan and a short timeout.
    """
    async with running() as b:
        w = b.world
        qpos = w.snapshot()[0]
        traj = b.planner.joint_trajectory(qpos, qpos[w.arm_qpos],
                                          np.array((1.2, -0.3, 0.0, -2.0, 0.0, 1.8, 0.8)),
                                          limits(0.05), 0.002)
        assert traj.duration > 5.0
        run = await b._execute(b._motion(traj, limits(0.05, timeout=0.5), 1e-3, 'moving'),
                               None)
        assert run.status == 'TIMED_OUT'
        assert 0.5 <= run.details['halt_at_s'] < 0.52
        _, vel = await _arm(b)
        assert np.abs(vel).max() < 0.01


async def test_speed_factor_paces_simulation_time_against_the_wall_clock():
    """At speed 4 a motion takes about a quarter of its simulated duration in wall time."""
    async with running(speed=4.0) as b:
        goal = dict(zip(b.config.arm_joints, (0.3, -0.6, 0.0, -2.2, 0.0, 1.6, 0.8)))
        t0 = time.perf_counter()
        result = await b.move_to_joints(JointGoal(goal, limits(0.5)))
        wall = time.perf_counter() - t0
        assert result.succeeded
        assert wall >= 0.8 * result.duration_s / 4.0


async def test_joint_moves_detour_when_the_straight_joint_line_hits_the_table():
    """Between home and a low, twisted configuration the joint line dips into the table."""
    low = np.array([0.957, 1.74, -1.499, -2.136, 1.754, 1.539, -0.397])
    async with running() as b:
        home = np.array(b.config.home)
        b.planner.kin.set_state(b.world.snapshot()[0])
        assert not b.planner.kin.collisions(low)
        assert b.planner._sweep(home, low, set())[1], 'the straight line should collide'
        for goal in (low, home):
            result = await b.move_to_joints(JointGoal(dict(zip(b.config.arm_joints, goal)),
                                                      limits()))
            assert result.succeeded, result.message
            assert result.peak_force_n is None
            assert np.abs((await _arm(b))[0] - goal).max() < 0.005
