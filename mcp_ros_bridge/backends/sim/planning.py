"""
Motion planning for the simulated arm: IK goals, joint paths, Cartesian paths.

Everything here runs in a worker thread on a scratch copy of the state, before
any motion; failures raise :class:`BackendError` with MoveIt-style codes.
"""

from __future__ import annotations

from collections.abc import Callable
import dataclasses
import itertools
import math
import threading
from typing import Any

from mcp_ros_bridge.backends.port import BackendError, MotionLimits
from mcp_ros_bridge.messages import t
import mujoco
import numpy as np

from . import trajectory
from .frames import compose, frame_in_world, inverse
from .kinematics import Collision, Kinematics, quat_error
from .sim_robot import PANDA, SimRobot

PATH_CLEARANCE_M = 0.003
JUMP_THRESHOLD_RAD = 0.3


@dataclasses.dataclass
class CartesianPlan:
    """The IK'd part of a straight-line path."""

    fraction: float
    q: np.ndarray          # (K, 7) joint waypoints actually reachable
    points: np.ndarray     # (K, 3) TCP positions (world)
    sigma: np.ndarray      # (K,) path parameter
    stop_reason: str
    corners: list[int] = dataclasses.field(default_factory=list)  # waypoint indices


def _describe(hits: list[Collision]) -> list[str]:
    return sorted({f'{h.geom1}<->{h.geom2}' for h in hits})


class Planner:
    """IK and trajectory construction for one backend (thread-safe)."""

    def __init__(self, model: mujoco.MjModel, arm_qpos: np.ndarray, arm_dof: np.ndarray,
                 seed: int, margin_rad: float | np.ndarray,
                 home: tuple[float, ...],
                 robot: SimRobot = PANDA) -> None:
        """Create scratch kinematics and a seeded random generator for restarts."""
        self.home = np.array(home, dtype=float)
        self.robot = robot
        self.dq_max, self.ddq_max = np.array(robot.dq_max), np.array(robot.ddq_max)
        self.kin = Kinematics(model, arm_qpos, arm_dof, margin_rad, robot)
        self.rng = np.random.default_rng(seed)
        self.lock = threading.Lock()
        self.held = -1  # body id of the object in the hand, set before planning

    def tcp_target(self, qpos: np.ndarray, pos: np.ndarray, quat: np.ndarray,
                   link: str) -> tuple[np.ndarray, np.ndarray]:
        """Turn a world goal for ``link`` into the world goal of the TCP."""
        tcp, rigid = self.robot.tcp, self.robot.rigid_to_tcp
        if link == tcp:
            return pos, quat
        if link not in rigid:
            raise BackendError('INVALID_GOAL', t('sim_link_unknown', link=repr(link)),
                               advice=t('sim_link_unknown_fix', links=list(rigid)))
        k = self.kin
        k.set_state(qpos, self.held)
        mujoco.mj_kinematics(k.m, k.d)
        rel = compose(inverse(frame_in_world(k.m, k.d, link)),
                      frame_in_world(k.m, k.d, tcp))
        return compose((pos, quat), rel)

    def _timed(self, legs: list[tuple[np.ndarray, dict[str, Any]]], limits: MotionLimits,
               dt: float) -> trajectory.Trajectory:
        """
        Time-parameterise rest-to-rest legs ``(waypoints, sigma/tool_points)`` within limits.

        The scaling is the envelope's to check; here the motion must fit in the
        goal's timeout, so its samples are bounded (LIMIT_EXCEEDED otherwise,
        naming the slowest velocity_scaling that would fit). Each leg's timing
        keeps every joint within its scaled velocity and acceleration limits,
        curvature of the joint path included (:mod:`.trajectory`).
        """
        cap = limits.max_cartesian_speed_mps

        def total(vel: float, acc: float) -> float:
            return sum(trajectory.duration(w, self.dq_max * vel, self.ddq_max * acc,
                                           max_tool_speed=cap, **kw) for w, kw in legs)

        vel, acc, timeout = limits.velocity_scaling, limits.acceleration_scaling, limits.timeout_s
        plans = [(w, trajectory.plan_speed(w, self.dq_max * vel, self.ddq_max * acc,
                                           max_tool_speed=cap, **kw)) for w, kw in legs]
        took = sum(p.duration for _, p in plans if p is not None)
        if not took <= timeout:  # the advice keeps the ratio of acceleration to velocity
            ratio = acc / vel if vel > 0 else 1.0
            raise _too_slow(vel, took, timeout, lambda s: total(s, min(1.0, s * ratio)))
        return trajectory.concatenate([trajectory.at_rest(w, dt) if p is None
                                       else trajectory.sample(p, dt) for w, p in plans])

    def ik_goal(self, qpos: np.ndarray, q0: np.ndarray, pos: np.ndarray, quat: np.ndarray,
                attempts: int, tol_p: float, tol_r: float) -> np.ndarray:
        """Return a collision-free IK solution or raise NO_IK_SOLUTION / GOAL_IN_COLLISION."""
        with self.lock:
            self.kin.set_state(qpos, self.held)
            q, hits = self.kin.solve(pos, quat, q0, self.rng, max(attempts, 1) * 4,
                                     min(tol_p, 1e-4), min(tol_r, 1e-3))
        if q is not None:
            return q
        robot = self.robot
        where = t('sim_target_at', x=f'{pos[0]:.3f}', y=f'{pos[1]:.3f}', z=f'{pos[2]:.3f}',
                  frame=robot.base)
        if hits:
            raise BackendError('GOAL_IN_COLLISION', t('sim_ik_collides', where=where,
                                                      contacts=', '.join(_describe(hits))),
                               advice=t('sim_ik_collides_fix'),
                               details={'contacts': _describe(hits)})
        reach = float(np.linalg.norm(pos - np.array(robot.shoulder)))
        sx, sy, sz = (f'{v:.3g}' for v in robot.shoulder)
        reachable = (t('sim_reach_panda') if robot.max_reach is None
                     else t('sim_reach_arm', max=f'{robot.max_reach:.2f}'))
        raise BackendError('NO_IK_SOLUTION', t('sim_no_ik', where=where),
                           advice=t('sim_no_ik_fix', reach=f'{reach:.2f}', sx=sx, sy=sy, sz=sz,
                                    frame=robot.base, reachable=reachable),
                           details={'distance_from_shoulder_m': round(reach, 3)})

    def goal_from_over(self, qpos: np.ndarray, q0: np.ndarray, pos: np.ndarray,
                       quat: np.ndarray) -> np.ndarray | None:
        """
        Return a goal solved from over it at the start's height, or None.

        Another solution of the same pose, for when the first one's joint path
        collides: lowering from over the goal keeps the arm's branch.
        """
        with self.lock:
            self.kin.set_state(qpos, self.held)
            p0, _ = self.kin.fk(q0)
            seed: np.ndarray | None = q0
            if p0[2] > pos[2]:
                seed, _ = self.kin.solve(np.r_[pos[:2], p0[2]], quat, q0, self.rng, 4, 1e-4,
                                         1e-3)
            if seed is None:
                return None
            q, _ = self.kin.solve(pos, quat, seed, self.rng, 1, 1e-4, 1e-3)
        return q

    def _sweep(self, q0: np.ndarray, q1: np.ndarray,
               initial: set[tuple[str, str]]) -> tuple[np.ndarray, list[Collision]]:
        """Return the sampled joint line q0 → q1 and its first new collisions."""
        path = np.linspace(q0, q1, max(2, math.ceil(np.abs(q1 - q0).max() / 0.03) + 1))
        for q in path:  # the hand's contacts with known objects count (scene_check.py)
            hits = [h for h in self.kin.collisions(q, 0.0, False)
                    if (h.geom1, h.geom2) not in initial]
            if hits:
                return path, hits
        return path, []

    def _lifted(self, q: np.ndarray, dz: float = 0.15) -> np.ndarray | None:
        """Return a configuration with the TCP ``dz`` higher, same orientation."""
        pos, quat = self.kin.fk(q)
        up, ep, er = self.kin.ik(pos + (0.0, 0.0, dz), quat, q)
        return up if ep < 1e-4 and er < 1e-3 else None

    def _over(self, q0: np.ndarray, q1: np.ndarray) -> np.ndarray | None:
        """Return a configuration over q1's tool point at q0's height, solved from q0."""
        (p0, _), (p1, quat) = self.kin.fk(q0), self.kin.fk(q1)
        if p0[2] <= p1[2]:
            return None
        over, ep, er = self.kin.ik(np.r_[p1[:2], p0[2]], quat, q0)
        return over if ep < 1e-4 and er < 1e-3 else None

    def _detours(self, q0: np.ndarray, q1: np.ndarray) -> list[list[np.ndarray]]:
        """Return via-point lists: home, lift-move-lower, lift-home-lower, over-then-lower."""
        up0, up1, over = self._lifted(q0), self._lifted(q1), self._over(q0, q1)
        out = [[self.home], [np.r_[q1[0], self.home[1:]]]]
        if up0 is not None and up1 is not None:
            out += [[up0, up1], [up0, self.home, up1]]
        if over is not None:
            out.append([over])
        return out

    def _legs(self, qs: list[np.ndarray],
              initial: set[tuple[str, str]]) -> list[np.ndarray] | None:
        """Return the swept legs through ``qs``, or None when one collides."""
        legs = []
        for a, b in itertools.pairwise(qs):
            path, hits = self._sweep(a, b, initial)
            if hits:
                return None
            legs.append(path)
        return legs

    def joint_trajectory(self, qpos: np.ndarray, q0: np.ndarray, q1: np.ndarray,
                         limits: MotionLimits, dt: float) -> trajectory.Trajectory:
        """
        Time-parameterise a collision-free joint path q0 → q1.

        The straight joint line is tried first, then detours (through home,
        or lifting 15 cm, moving, and lowering, or moving over the goal at the
        start's height and lowering), resting at each via point. A
        line the hand would sweep through a known object takes a detour too.
        """
        with self.lock:
            self.kin.set_state(qpos, self.held)
            initial = {(h.geom1, h.geom2) for h in self.kin.collisions(q0, 0.0, False)}
            hits = [h for h in self.kin.collisions(q1, 0.0, False)
                    if (h.geom1, h.geom2) not in initial]
            if hits:
                raise BackendError('GOAL_IN_COLLISION',
                                   t('sim_goal_collides', contacts=', '.join(_describe(hits))),
                                   details={'contacts': _describe(hits)})
            path, first = self._sweep(q0, q1, initial)
            legs = [path]
            if first:
                for vias in self._detours(q0, q1):
                    found = self._legs([q0, *vias, q1], initial)
                    if found:
                        legs = found
                        break
                else:
                    raise BackendError('PLANNING_FAILED', t('sim_path_collides',
                                                            contacts=', '.join(_describe(first))),
                                       advice=t('sim_path_collides_fix'),
                                       details={'contacts': _describe(first)})
            points = [np.array([self.kin.fk(q)[0] for q in leg]) for leg in legs]
        return self._timed([(leg, {'tool_points': pts}) for leg, pts in zip(legs, points)],
                           limits, dt)

    def cartesian(self, qpos: np.ndarray, q0: np.ndarray,
                  targets: list[tuple[np.ndarray, np.ndarray]], max_step: float,
                  avoid_collisions: bool, may_touch: frozenset[str] = frozenset(),
                  touch_only: frozenset[str] | None = None) -> CartesianPlan:
        """
        IK each step of the straight segments; stop at the first failure or collision.

        ``may_touch``: geoms whose contacts are allowed. ``touch_only`` (a push)
        replaces it: only contacts with these geoms (the pushed object's) are
        allowed, and the hand's contacts with the other objects count. The pushed
        object moves ahead of the fingertips, so its start pose says nothing
        about the links; the guard watches them while the push runs.
        """
        with self.lock:
            k = self.kin
            k.set_state(qpos, self.held)
            pos, quat = k.fk(q0)
            qs, pts, sig = [q0.copy()], [pos.copy()], [0.0]
            total = 0.0
            segs = []
            for tp, tq in targets:
                ang = float(np.linalg.norm(quat_error(tq, quat)))
                length = float(np.linalg.norm(tp - pos)) + 0.1 * ang
                n = max(1, math.ceil(max(np.linalg.norm(tp - pos) / max_step, ang / 0.05)))
                segs.append((pos, quat, tp, tq, n, length))
                total += length
                pos, quat = tp, tq
            done, q, reason, corners = 0.0, q0.copy(), '', []
            for p0, r0, p1, r1, n, length in segs:
                for i in range(1, n + 1):
                    s = i / n
                    tq = np.empty(4)
                    _slerp(tq, r0, r1, s)
                    tp = p0 + s * (p1 - p0)
                    qn, ep, er = k.ik(tp, tq, q, iters=60, tol_p=1e-6, tol_r=1e-5)
                    if ep > 5e-5 or er > 5e-4:
                        reason = t('sim_stop_no_ik')
                    elif np.abs(qn - q).max() > JUMP_THRESHOLD_RAD:
                        reason = t('sim_stop_jump')
                    elif avoid_collisions and (hits := [
                            h for h in k.collisions(qn, PATH_CLEARANCE_M, touch_only is None)
                            if not _allowed(h, may_touch, touch_only)]):
                        reason = t('sim_stop_collision', hits=', '.join(_describe(hits)))
                    if reason:
                        break
                    q = qn
                    qs.append(q.copy())
                    pts.append(tp)
                    sig.append(done + s * length)
                if reason:
                    break
                done += length
                corners.append(len(qs) - 1)
            fraction = 1.0 if total <= 0 else min(1.0, sig[-1] / total)
        return CartesianPlan(fraction, np.array(qs), np.array(pts), np.array(sig), reason,
                             corners)

    def cartesian_trajectory(self, plan: CartesianPlan, limits: MotionLimits,
                             dt: float) -> trajectory.Trajectory:
        """Time-parameterise the reachable part of a Cartesian path, resting at corners."""
        ends = sorted({0, len(plan.q) - 1, *plan.corners})
        legs = [(plan.q[a:b + 1], {'sigma': plan.sigma[a:b + 1] - plan.sigma[a],
                                   'tool_points': plan.points[a:b + 1]})
                for a, b in itertools.pairwise(ends) if b > a]
        return self._timed(legs, limits, dt)


def _allowed(h: Collision, may_touch: frozenset[str], only: frozenset[str] | None) -> bool:
    """Return whether a planned contact is allowed (see :meth:`Planner.cartesian`)."""
    if only is None:
        return h.geom1 in may_touch or h.geom2 in may_touch
    return h.geom1 in only or h.geom2 in only


def _too_slow(scaling: float, took: float, timeout: float,
              total: Callable[[float], float]) -> BackendError:
    """Build the refusal of a motion too slow for its timeout; ``total(s)``: duration at s."""
    lo, hi = 1e-9, 1.0
    if not total(hi) <= timeout:
        slowest = None
        advice = t('sim_too_slow_split')
    else:
        for _ in range(50):  # bisect in log scale; durations fall as the scaling grows
            mid = math.sqrt(lo * hi)
            lo, hi = (lo, mid) if total(mid) <= timeout else (mid, hi)
        step = 10.0 ** (math.floor(math.log10(hi)) - 2)  # round up to 3 significant digits
        slowest = round(math.ceil(hi / step) * step, 12)
        advice = t('sim_too_slow_fix', slowest=slowest)
    return BackendError(
        'LIMIT_EXCEEDED', t('sim_too_slow', scaling=f'{scaling:g}', took=f'{took:.4g}',
                            timeout=f'{timeout:g}'), advice=advice,
        details={'limit': 'velocity_scaling', 'value': scaling,
                 'allowed': f'>= {slowest} for this motion' if slowest else 'none',
                 'planned_duration_s': took if math.isfinite(took) else None})


def _slerp(out: np.ndarray, a: np.ndarray, b: np.ndarray, s: float) -> None:
    b = b if float(np.dot(a, b)) >= 0 else -b
    vel = quat_error(b, a)
    rot = np.array([1.0, 0, 0, 0])
    mujoco.mju_quatIntegrate(rot, vel, s)
    mujoco.mju_mulQuat(out, rot, a)
