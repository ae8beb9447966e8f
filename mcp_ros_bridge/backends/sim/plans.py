"""
Plans of the simulated arm: a pose, joint or straight-line goal turned into a :class:`Plan`.

Everything runs on a scratch copy of the state (nothing moves). A plan starts
where the arm is, or at a given :class:`RobotState` (a job's later step starts
where the step before it ends): the arm joints and the object in the hand are
set on the scratch copy, the rest of the scene is as it is now.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, TYPE_CHECKING

from mcp_ros_bridge.backends.port import (BackendError, CartesianGoal, JointGoal, MotionGoal,
                                          MotionLimits, MotionStatus, Plan, PoseGoal,
                                          RobotState)
from mcp_ros_bridge.messages import t
import mujoco
import numpy as np

from .frames import to_world
from .planning import CartesianPlan, Planner
from .scene_check import check_planned
from .trajectory import Trajectory

if TYPE_CHECKING:
    from .backend import SimBackend


@dataclass(frozen=True)
class SimPath:
    """The simulation's executable form of a plan: the timed samples (and a line's points)."""

    traj: Trajectory | None
    points: np.ndarray | None = None  # a straight path's planned TCP points (world)


def held_name(sim: SimBackend, body: int) -> str:
    """Return the name of the body in the hand (``''``: none)."""
    if body < 0:
        return ''
    return mujoco.mj_id2name(sim.world.model, mujoco.mjtObj.mjOBJ_BODY, body) or ''


def _start(sim: SimBackend, start: RobotState | None) -> tuple[np.ndarray, np.ndarray, int]:
    """
    Return the scene state to plan in, the arm's start joints and the held body id.

    An object held now keeps its grip from the state now; one that ``start``
    says is held (a grasp planned before) is gripped where it is at ``start``.
    """
    w, arm = sim.world, sim.robot.arm_joints
    qpos = w.snapshot()[0].copy()
    if start is None:
        return qpos, qpos[w.arm_qpos].copy(), w.held_object
    unknown = sorted(set(start.joints) - set(arm))
    if unknown:
        raise BackendError('INVALID_GOAL', t('sim_unknown_joints', unknown=unknown),
                           advice=t('sim_unknown_joints_fix', joints=list(arm)))
    q0 = qpos[w.arm_qpos].copy()
    for name, value in start.joints.items():
        q0[arm.index(name)] = value
    held = -1
    if start.held:
        held = mujoco.mj_name2id(w.model, mujoco.mjtObj.mjOBJ_BODY, start.held)
    if held != w.held_object:  # gripped at the start state: the arm is there
        qpos[w.arm_qpos] = q0
    return qpos, q0, held


def _joint_target(sim: SimBackend, goal: JointGoal, q0: np.ndarray) -> np.ndarray:
    arm = sim.robot.arm_joints
    unknown = sorted(set(goal.positions) - set(arm))
    if unknown:
        raise BackendError('INVALID_GOAL', t('sim_unknown_joints', unknown=unknown),
                           advice=t('sim_unknown_joints_fix', joints=list(arm)))
    q1: np.ndarray = q0.copy()
    for name, value in goal.positions.items():
        q1[arm.index(name)] = value
    lo, hi = sim.planner.kin.lo, sim.planner.kin.hi
    bad = [t('sim_joint_outside', joint=arm[i], value=f'{q1[i]:.3f}',
             lo=f'{lo[i]:.3f}', hi=f'{hi[i]:.3f}')
           for i in range(len(arm)) if not lo[i] - 1e-9 <= q1[i] <= hi[i] + 1e-9]
    if bad:
        raise BackendError('INVALID_GOAL', t('sim_joints_outside', bad='; '.join(bad)))
    return q1


def _world_targets(sim: SimBackend, qpos: np.ndarray, poses: Any, link: str) -> list[Any]:
    m, d, _ = sim._view()
    base = sim.config.base_frame
    targets = [to_world(m, d, (p.position, p.orientation), p.frame_id or base) for p in poses]
    return [sim.planner.tcp_target(qpos, p, q, link or sim.config.end_effector)
            for p, q in targets]


async def make_plan(sim: SimBackend, goal: MotionGoal, start: RobotState | None) -> Plan:
    """Plan ``goal`` from ``start`` (default: now); run the goal's path check on the samples."""
    if start is None:  # from now: the arm must be free and its sensors sound
        sim._idle_arm()
        sim._check_sensors()
    qpos, q0, held = _start(sim, start)
    planner, dt = sim.planner, sim.world.model.opt.timestep
    planner.held = held
    first = RobotState(dict(zip(sim.robot.arm_joints, q0.tolist())), held_name(sim, held))
    points = None
    if isinstance(goal, CartesianGoal):
        if goal.max_step_m <= 0:
            raise BackendError('INVALID_GOAL', t('sim_max_step'))
        targets = _world_targets(sim, qpos, goal.waypoints, goal.link)
        line: CartesianPlan = await asyncio.to_thread(
            planner.cartesian, qpos, q0, targets, goal.max_step_m, goal.avoid_collisions)
        info = {'stop_reason': line.stop_reason} if line.stop_reason else {}
        if line.fraction < goal.min_fraction or len(line.q) < 2:
            partial = line.fraction < 1
            message = (t('sim_path_partial', fraction=f'{line.fraction:.0%}',
                         reason=line.stop_reason) if partial else t('sim_path_at_end'))
            return Plan(goal, first, first, (), (), (),
                        MotionStatus.PARTIAL if partial else MotionStatus.SUCCEEDED,
                        message, line.fraction, info, SimPath(None))
        traj = await asyncio.to_thread(planner.cartesian_trajectory, line, goal.limits, dt)
        points, fraction = line.points, line.fraction
        allowed = frozenset(goal.may_touch)
    else:
        info, fraction, allowed = {}, 1.0, frozenset()
        if isinstance(goal, PoseGoal):
            [(pos, quat)] = _world_targets(sim, qpos, [goal.target], goal.link)
            q1 = await asyncio.to_thread(planner.ik_goal, qpos, q0, pos, quat,
                                         goal.planning_attempts, goal.position_tolerance_m,
                                         goal.orientation_tolerance_rad)
            traj = await _pose_trajectory(planner, qpos, q0, q1, (pos, quat), goal.limits, dt)
        else:
            q1 = _joint_target(sim, goal, q0)
            traj = await asyncio.to_thread(planner.joint_trajectory, qpos, q0, q1, goal.limits,
                                           dt)
    # no known object on the path (but what the goal may touch), then the envelope
    await asyncio.to_thread(check_planned, planner, qpos, traj, allowed)
    times = (np.arange(len(traj.q)) * traj.dt).tolist()
    tips = await asyncio.to_thread(sim.tips.poses, traj.q)
    if goal.limits.path_check is not None:
        await asyncio.to_thread(goal.limits.path_check, tips, times)
    end = RobotState(dict(zip(sim.robot.arm_joints, traj.q[-1].tolist())), first.held)
    return Plan(goal, first, end, times, traj.q.tolist(), tips, fraction=fraction,
                details=info,
                trajectory=SimPath(traj, points))


async def _pose_trajectory(planner: Planner, qpos: np.ndarray, q0: np.ndarray, q1: np.ndarray,
                           target: tuple[np.ndarray, np.ndarray], limits: MotionLimits,
                           dt: float) -> Trajectory:
    """Return the joint path to a pose goal: to ``q1``, else to the goal solved from over it."""
    try:
        return await asyncio.to_thread(planner.joint_trajectory, qpos, q0, q1, limits, dt)
    except BackendError as exc:
        if exc.code != 'PLANNING_FAILED':
            raise
        other = await asyncio.to_thread(planner.goal_from_over, qpos, q0, *target)
        if other is None:
            raise
        try:
            return await asyncio.to_thread(planner.joint_trajectory, qpos, q0, other, limits,
                                           dt)
        except BackendError:
            raise exc from None


def check_start(sim: SimBackend, plan: Plan) -> None:
    """Refuse a plan whose start is not where the arm is now (STALE_PLAN)."""
    from mcp_ros_bridge.backends.port import START_TOLERANCE_RAD
    w = sim.world
    now = dict(zip(sim.robot.arm_joints, w.snapshot()[0][w.arm_qpos].tolist()))
    off = max((abs(now[n] - v) for n, v in plan.start.joints.items() if n in now), default=0.0)
    held = held_name(sim, w.held_object)
    if off > START_TOLERANCE_RAD or held != plan.start.held or not isinstance(
            plan.trajectory, SimPath):
        raise BackendError('STALE_PLAN', t('plan_stale', off=f'{off:.3f}',
                                           tol=START_TOLERANCE_RAD),
                           advice=t('plan_stale_fix'),
                           details={'joint_offset_rad': round(off, 4), 'held': held,
                                    'planned_held': plan.start.held})
