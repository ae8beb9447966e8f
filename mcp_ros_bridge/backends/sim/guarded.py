"""
The guarded move on the simulation: a straight approach that stops on contact.

The planned path may bring the hand, the fingers or a held object into contact
(that is what the move approaches); the arm links must stay clear, and the
envelope checks every sample. While it runs, the contact force on the hand,
the fingers and the held object is measured every physics step (2 ms); on the
step it exceeds the threshold (net of the start) the arm slows down along the
path, every joint in step, and backs off to just behind that point
(:mod:`.retreat`); the result says where: the tip, the contact point and the
force. The world frame of the simulation is the robot base frame.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any, NamedTuple, TYPE_CHECKING

from mcp_ros_bridge.backends.port import (BackendError, GuardedGoal, MotionResult,
                                          MotionStatus, ProgressFn)
from mcp_ros_bridge.messages import t
import mujoco
import numpy as np

from .frames import to_world
from .motion import ArmMotion, ArmRun
from .retreat import Retreat
from .sim_robot import SimRobot
from .watchdog import ContactGuard
from .world import World

if TYPE_CHECKING:
    from .backend import SimBackend

BACKOFF_S = 0.03  # after contact the arm holds where the path was this long before
RETREAT_S = 0.06  # from the contact to that hold point, at rest


def hand_geoms(model: mujoco.MjModel, robot: SimRobot) -> frozenset[str]:
    """Return the names of the geoms a guarded approach may bring into contact."""
    bodies = {model.body(n).id for n in robot.hand_bodies}
    return frozenset(model.geom(g).name for g in range(model.ngeom)
                     if model.geom_bodyid[g] in bodies and model.geom(g).name)


class Load(NamedTuple):
    """The contact load of one step: total (N), per pair, its point, and the pushed part."""

    total: float
    pairs: dict[str, float]
    point: np.ndarray | None
    pushed: float
    pushed_pairs: frozenset[str] = frozenset()


def contact_load(guard: ContactGuard, d: mujoco.MjData, held: int, pushed: int = -1,
                 hand: np.ndarray | None = None) -> Load:
    """
    Return the contact force on the robot and the held object (N), per pair, and its point.

    The grip (fingers or hand on the held object) is left out; the point is
    the force-weighted mean of the contact positions (world frame); ``pushed``
    (a body id) sums the contacts of the ``hand`` geoms (a mask) with the object
    being pushed; the arm links' contacts with it count as any other.
    """
    m, f6 = guard.m, np.zeros(6)
    total, on_pushed, weighted = 0.0, 0.0, np.zeros(3)
    pairs: dict[str, float] = {}
    on: set[str] = set()
    where, names = d.contact.pos, guard.geom_names
    for i, mine, other in guard.robot_contacts(d, held, held_counts=True):
        mujoco.mj_contactForce(m, d, i, f6)
        f = abs(float(f6[0]))
        total += f
        weighted += f * where[i]
        key = f'{names[mine]}<->{names[other]}'
        if pushed >= 0 and m.geom_bodyid[other] == pushed and hand is not None and hand[mine]:
            on_pushed += f
            on.add(key)
        pairs[key] = pairs.get(key, 0.0) + f
    return Load(total, pairs, weighted / total if total > 0 else None, on_pushed,
                frozenset(on))


def touch_of(m: mujoco.MjModel, d: mujoco.MjData, guard: ContactGuard, world: World,
             skip: frozenset[str] = frozenset()) -> dict[str, str]:
    """
    Return what touched what in the strongest contact: the robot's part and body, the other body.

    ``by`` is ``fingers``, ``held_object`` (the object the gripper holds),
    ``hand`` (the hand's other bodies) or ``arm`` (a link); ``body`` names the
    object touched (an object, ``table`` or the geom). ``skip`` leaves out the
    pairs of a push (``mine<->other`` geom names). The grip is left out.
    """
    held, robot, f6 = world.held_object, world.robot, np.zeros(6)
    hand = {m.body(n).id for n in robot.hand_bodies}
    best, worst = -1.0, (-1, -1)
    for i in range(d.ncon):
        g1, g2 = int(d.contact.geom1[i]), int(d.contact.geom2[i])
        mine1 = bool(guard.robot[g1]) or (held >= 0 and m.geom_bodyid[g1] == held)
        mine2 = bool(guard.robot[g2]) or (held >= 0 and m.geom_bodyid[g2] == held)
        if mine1 == mine2:  # the grip, a self contact, or nothing of the robot's
            continue
        mine, other = (g1, g2) if mine1 else (g2, g1)
        if f'{m.geom(mine).name}<->{m.geom(other).name}' in skip:
            continue
        mujoco.mj_contactForce(m, d, i, f6)
        if abs(float(f6[0])) > best:
            best, worst = abs(float(f6[0])), (mine, other)
    mine, other = worst
    if mine < 0:
        return {}
    body = int(m.geom_bodyid[mine])
    by = ('fingers' if guard.finger_geom[mine] else 'held_object' if body == held
          else 'hand' if body in hand else 'arm')
    other_body = int(m.geom_bodyid[other])
    name = m.body(other_body).name if other_body > 0 else m.geom(other).name
    return {'by': by, 'by_body': m.body(body).name,
            'body': 'table' if name.startswith('table') else name or 'scene'}


class GuardedMotion(ArmMotion):
    """Track a straight approach; halt on the first step the contact force passes the threshold."""

    backoff_s = BACKOFF_S

    def __init__(self, *args: Any, threshold_n: float, direction: np.ndarray,
                 pushed: int = -1, cap_n: float = 0.0, hand: np.ndarray | None = None,
                 **kwargs: Any) -> None:
        """
        Prepare the approach; ``direction`` is a unit vector in the world frame.

        ``pushed`` (a body id, a push): the ``hand`` geoms' (a mask) contacts with
        it count against ``cap_n``, all others against the threshold.
        """
        super().__init__(*args, **kwargs)
        self.threshold, self.direction = threshold_n, direction
        self.pushed, self.cap = pushed, cap_n
        self.hand = hand
        self.push_peak = 0.0
        self.base: float | None = None
        self.hit: dict[str, Any] | None = None
        self.retreat: Retreat | None = None
        self.halt_step = 0

    def start(self, world: World) -> None:
        """Remember where the tip starts."""
        super().start(world)
        self.origin = world.data.site_xpos[self.tcp].copy()

    def pre(self, world: World) -> None:
        """Command the path, or after contact the retreat along it."""
        if self.retreat is None:
            super().pre(world)
            return
        after = (world.steps + 1 - self.halt_step) * world.model.opt.timestep
        if after >= self.retreat.duration:
            world.ctrl_pos[:] = self.retreat.hold()
            world.ctrl_vel[:] = 0.0
            world.qfrc_arm[:] = 0.0
            self.retreat = None
            return
        q, qd, qdd = self.retreat.commands(after)
        world.ctrl_pos[:], world.ctrl_vel[:] = q, qd
        self._acc_arm[:] = qdd
        mujoco.mj_mulM(world.model, world.data, self._tau, self._acc)
        world.qfrc_arm[:] = self._tau_arm

    def _holding(self) -> bool:
        """Return whether the retreat is over (the arm holds its last point)."""
        return self.retreat is None

    def _begin_halt(self, world: World, status: MotionStatus, message: str) -> None:
        super()._begin_halt(world, status, message)
        if status is MotionStatus.CONTACT_ABORT:
            dt = world.model.opt.timestep
            tau0 = min(world.steps - self.s0, self.last) * dt
            self.retreat = Retreat(self.traj, self._qdd, tau0, self.backoff_s, RETREAT_S)
            self.halt_step = world.steps

    def _guard(self, world: World) -> None:
        d = world.data
        total, pairs, point, pushed, on = contact_load(self.guard, d, world.held_object,
                                                       self.pushed, self.hand)
        if self.base is None:
            self.base = total - pushed
        net = total - pushed - self.base
        self.peak = max(self.peak, net)
        self.push_peak = max(self.push_peak, pushed)
        if self.hit is not None or self.phase == 'halt':
            return
        if self.pushed >= 0 and pushed > self.cap:
            cause, force, message = 'push_cap', pushed, t(
                'sim_push_cap', force=f'{pushed:.1f}', cap=f'{self.cap:g}')
        elif net > self.threshold:
            touch = touch_of(world.model, d, self.guard, world, on)
            pair = f"{touch['by_body']}<->{touch['body']}" if touch else ''
            cause, force, message = 'contact', net, t(
                'sim_guarded_contact', force=f'{net:.1f}', threshold=f'{self.threshold:g}',
                pair=pair)
        else:
            return
        if cause == 'push_cap':
            touch = touch_of(world.model, d, self.guard, world)
        tip = d.site_xpos[self.tcp].copy()
        self.t_cross = world.time
        self.hit = {'force_n': round(force, 2), 'tip_m': _xyz(tip),
                    'point_m': _xyz(tip if point is None else point),
                    'point_source': 'tip' if point is None else 'physics',
                    'travelled_m': round(float(np.dot(tip - self.origin, self.direction)), 5),
                    'pairs': {k: round(v, 2) for k, v in pairs.items()},
                    **touch}
        if self.pushed >= 0:
            self.hit['cause'] = cause
        self._begin_halt(world, MotionStatus.CONTACT_ABORT, message)

    def _result(self, world: World, t: float) -> ArmRun:
        run = super()._result(world, t)
        tip = world.data.site_xpos[self.tcp]
        travelled = round(float(np.dot(tip - self.origin, self.direction)), 5)
        details = {**run.details, 'travelled_m': travelled}
        if self.hit is not None and self.base is not None:  # what still presses, at rest
            load = contact_load(self.guard, world.data, world.held_object, self.pushed,
                                self.hand)
            self.hit['rest_force_n'] = round(max(0.0, load.total - load.pushed - self.base), 2)
        if self.pushed >= 0:
            details['push_peak_force_n'] = round(self.push_peak, 2)
        return replace(run, contact=self.hit, details=details)


def _pushed(m: mujoco.MjModel, name: str | None) -> tuple[int, frozenset[str] | None]:
    """Return the pushed object's body id and geom names (-1, None: not a push)."""
    if not name:
        return -1, None
    body = m.body(name).id
    return body, frozenset(m.geom(g).name for g in range(m.ngeom) if m.geom_bodyid[g] == body)


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
    if goal.push_object:
        await b.object_pose(goal.push_object, frame)  # UNKNOWN_OBJECT before anything moves
    pushed, only = _pushed(m, goal.push_object)
    plan = await asyncio.to_thread(b.planner.cartesian, qpos, qpos[w.arm_qpos], [target],
                                   goal.max_step_m, True, b.touchable, only)
    if len(plan.q) < 2:
        raise BackendError('PLANNING_FAILED', t('sim_guarded_no_path', reason=plan.stop_reason),
                           advice=t('sim_guarded_no_path_fix'),
                           details={'stop_reason': plan.stop_reason})
    speed = min(goal.speed_mps, goal.limits.max_cartesian_speed_mps or goal.speed_mps)
    limits = replace(goal.limits, max_cartesian_speed_mps=speed)
    traj = await b._planned(limits, b.planner.cartesian_trajectory, plan, limits,
                            m.opt.timestep, allowed=frozenset(b.robot.objects))
    world_dir = (pos - origin) / max(float(np.linalg.norm(pos - origin)), 1e-12)
    motion = GuardedMotion(traj, b.guard, force_limit_n=limits.contact_force_limit_n,
                           timeout_s=limits.timeout_s, tolerance_rad=2e-4,
                           label=t('sim_label_guarded'), path_check=limits.path_check,
                           tip=b.tips.frame, threshold_n=goal.force_threshold_n,
                           direction=world_dir, pushed=pushed, cap_n=goal.push_force_cap_n,
                           hand=np.isin(np.arange(m.ngeom), [m.geom(g).id for g in b.touchable]))
    run = await b._execute(motion, progress)
    details = dict(run.details)
    if plan.fraction < 1.0:
        details.update(path_limited_by=plan.stop_reason,
                       path_length_m=round(plan.fraction * goal.max_distance_m, 4))
    if run.status is MotionStatus.SUCCEEDED:
        run = replace(run, message=t('sim_guarded_no_contact',
                                     travelled=f"{details['travelled_m']:.3f}"))
    return b._result(replace(run, details=details), frame)
