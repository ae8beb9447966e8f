"""
The guarded move on the simulation: a straight approach that stops on contact.

The planned path may bring the hand, the fingers or a held object into contact
(that is what the move approaches); the arm links must stay clear, and the
envelope checks every sample. While it runs, the contact force on the hand,
the fingers and the held object is measured every physics step (2 ms); on the
step it exceeds the threshold (net of the start) the arm halts and holds just
behind that point, and the result says where: the tip, the contact point and
the force. The world frame of the simulation is the robot base frame.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any, TYPE_CHECKING

from mcp_ros_bridge.backends.port import (BackendError, GuardedGoal, MotionResult,
                                          MotionStatus, ProgressFn)
from mcp_ros_bridge.messages import t
import mujoco
import numpy as np

from .frames import to_world
from .motion import ArmMotion, ArmRun
from .sim_robot import SimRobot
from .watchdog import ContactGuard
from .world import World

if TYPE_CHECKING:
    from .backend import SimBackend

BACKOFF_S = 0.03  # after contact the arm holds where the path was this long before


def hand_geoms(model: mujoco.MjModel, robot: SimRobot) -> frozenset[str]:
    """Return the names of the geoms a guarded approach may bring into contact."""
    bodies = {model.body(n).id for n in robot.hand_bodies}
    return frozenset(model.geom(g).name for g in range(model.ngeom)
                     if model.geom_bodyid[g] in bodies and model.geom(g).name)


def contact_load(guard: ContactGuard, d: mujoco.MjData, held: int
                 ) -> tuple[float, dict[str, float], np.ndarray | None]:
    """
    Return the contact force on the robot and the held object (N), per pair, and its point.

    The grip (fingers or hand on the held object) is left out; the point is
    the force-weighted mean of the contact positions (world frame).
    """
    m, f6 = guard.m, np.zeros(6)
    total, weighted = 0.0, np.zeros(3)
    pairs: dict[str, float] = {}
    for i in range(d.ncon):
        g1, g2 = int(d.contact.geom1[i]), int(d.contact.geom2[i])
        r1, r2 = bool(guard.robot[g1]), bool(guard.robot[g2])
        h1 = held >= 0 and m.geom_bodyid[g1] == held
        h2 = held >= 0 and m.geom_bodyid[g2] == held
        if not (r1 or r2 or h1 or h2) or (r1 and h2) or (r2 and h1):
            continue
        mujoco.mj_contactForce(m, d, i, f6)
        f = abs(float(f6[0]))
        total += f
        weighted += f * d.contact.pos[i]
        mine, other = (g1, g2) if (r1 or h1) else (g2, g1)
        key = f'{m.geom(mine).name}<->{m.geom(other).name}'
        pairs[key] = pairs.get(key, 0.0) + f
    return total, pairs, (weighted / total if total > 0 else None)


class GuardedMotion(ArmMotion):
    """Track a straight approach; halt on the first step the contact force passes the threshold."""

    backoff_s = BACKOFF_S

    def __init__(self, *args: Any, threshold_n: float, direction: np.ndarray,
                 **kwargs: Any) -> None:
        """Prepare the approach; ``direction`` is a unit vector in the world frame."""
        super().__init__(*args, **kwargs)
        self.threshold, self.direction = threshold_n, direction
        self.base: float | None = None
        self.hit: dict[str, Any] | None = None

    def start(self, world: World) -> None:
        """Remember where the tip starts."""
        super().start(world)
        self.origin = world.data.site_xpos[self.tcp].copy()

    def _guard(self, world: World) -> None:
        d = world.data
        total, pairs, point = contact_load(self.guard, d, world.held_object)
        if self.base is None:
            self.base = total
        net = total - self.base
        self.peak = max(self.peak, net)
        if net <= self.threshold or self.hit is not None or self.phase == 'halt':
            return
        tip = d.site_xpos[self.tcp].copy()
        self.t_cross = world.time
        self.hit = {'force_n': round(net, 2), 'tip_m': _xyz(tip),
                    'point_m': _xyz(tip if point is None else point),
                    'point_source': 'tip' if point is None else 'physics',
                    'travelled_m': round(float(np.dot(tip - self.origin, self.direction)), 5),
                    'pairs': {k: round(v, 2) for k, v in pairs.items()}}
        worst = max(pairs, key=lambda pair: pairs[pair]) if pairs else ''
        self._begin_halt(world, MotionStatus.CONTACT_ABORT,
                         t('sim_guarded_contact', force=f'{net:.1f}',
                           threshold=f'{self.threshold:g}', pair=worst))

    def _result(self, world: World, t: float) -> ArmRun:
        run = super()._result(world, t)
        tip = world.data.site_xpos[self.tcp]
        travelled = round(float(np.dot(tip - self.origin, self.direction)), 5)
        return replace(run, contact=self.hit, details={**run.details, 'travelled_m': travelled})


def _xyz(v: np.ndarray) -> dict[str, float]:
    return {'x': round(float(v[0]), 5), 'y': round(float(v[1]), 5), 'z': round(float(v[2]), 5)}


async def move_until_contact(b: SimBackend, goal: GuardedGoal,
                             progress: ProgressFn | None) -> MotionResult:
    """Plan the straight approach (hand contacts allowed), run it guarded, build the result."""
    b._idle_arm()
    b._check_sensors()
    w, frame = b.world, goal.frame or b.config.base_frame
    link = goal.link or b.config.end_effector
    qpos = w.snapshot()[0]
    b.planner.held = w.held_object
    m, d, _ = b._view()
    start = b._pose_of(link, frame)
    unit = np.asarray(goal.direction, dtype=float)
    end = np.asarray(start.position) + unit * goal.max_distance_m
    pos, quat = to_world(m, d, (end.tolist(), start.orientation), frame)
    origin = to_world(m, d, (start.position, start.orientation), frame)[0]
    target = b.planner.tcp_target(qpos, pos, quat, link)
    plan = await asyncio.to_thread(b.planner.cartesian, qpos, qpos[w.arm_qpos], [target],
                                   goal.max_step_m, True, b.touchable)
    if len(plan.q) < 2:
        raise BackendError('PLANNING_FAILED', t('sim_guarded_no_path', reason=plan.stop_reason),
                           advice=t('sim_guarded_no_path_fix'),
                           details={'stop_reason': plan.stop_reason})
    speed = min(goal.speed_mps, goal.limits.max_cartesian_speed_mps or goal.speed_mps)
    limits = replace(goal.limits, max_cartesian_speed_mps=speed)
    traj = await b._planned(limits, b.planner.cartesian_trajectory, plan, limits,
                            m.opt.timestep)
    world_dir = (pos - origin) / max(float(np.linalg.norm(pos - origin)), 1e-12)
    motion = GuardedMotion(traj, b.guard, force_limit_n=limits.contact_force_limit_n,
                           timeout_s=limits.timeout_s, tolerance_rad=2e-4,
                           label=t('sim_label_guarded'), path_check=limits.path_check,
                           tip=b.tips.frame, threshold_n=goal.force_threshold_n,
                           direction=world_dir)
    run = await b._execute(motion, progress)
    details = dict(run.details)
    if plan.fraction < 1.0:
        details.update(path_limited_by=plan.stop_reason,
                       path_length_m=round(plan.fraction * goal.max_distance_m, 4))
    if run.status is MotionStatus.SUCCEEDED:
        run = replace(run, message=t('sim_guarded_no_contact',
                                     travelled=f"{details['travelled_m']:.3f}"))
    return b._result(replace(run, details=details), frame)
