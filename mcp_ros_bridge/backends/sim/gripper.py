"""
The Franka Hand: force-limited closing, grip-force regulation and opening.

Each finger actuator switches between a position servo (``kp``, ``kv``) and a
force source (``ctrl`` newtons minus damping). A grasp closes under position
control with the force capped at the request, and once both fingers touch the
same body it regulates the squeeze force to the request. The grip force it
reports is measured: the mean normal contact force of the two fingers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mcp_ros_bridge.backends.port import GripResult, GripStatus
from mcp_ros_bridge.messages import t
import numpy as np

from .grip_watch import finger_contacts, let_go, take_hold
from .world import Task, World

Notify = Callable[[float, str], None]
SQUEEZE_S = 0.3


def set_mode(world: World, force: bool, limit: float | None = None) -> None:
    """Switch both finger actuators to force or position mode, capped at ``limit`` N."""
    m, hand = world.model, world.robot
    limit = hand.finger_force_max if limit is None else limit
    for a, j in zip(world.finger_act, m.actuator_trnid[world.finger_act, 0]):
        m.actuator_gainprm[a, 0] = 1.0 if force else hand.finger_kp
        m.actuator_biasprm[a, :3] = (0.0, 0.0 if force else -hand.finger_kp, -hand.finger_kv)
        m.jnt_actfrcrange[j] = (-limit, limit)


class _FingerTask(Task[GripResult]):
    channel = 'hand'

    def __init__(self, speed: float, timeout: float, notify: Notify | None) -> None:
        super().__init__()
        self.speed, self.timeout, self.notify = max(speed, 1e-3), timeout, notify
        self.t0 = 0.0

    def width(self, world: World) -> float:
        return float(world.data.qpos[world.finger_qpos].sum())

    def result(self, world: World, status: GripStatus, message: str, force: float, held: bool,
               **details: Any) -> GripResult:
        return GripResult(status, message, self.width(world), force, held,
                          duration_s=world.time - self.t0, details=details)


class Grasp(_FingerTask):
    """Close until both fingers touch, then regulate the grip force."""

    def __init__(self, force_n: float, speed: float, timeout: float,
                 notify: Notify | None = None) -> None:
        """Grasp with ``force_n`` closing at ``speed`` m/s (finger gap rate)."""
        super().__init__(speed, timeout, notify)
        self.force = force_n
        self.phase, self.t_squeeze = 'close', 0.0
        self.samples: list[float] = []
        self.body = -1  # the body both fingers touch, once squeezing

    def start(self, world: World) -> None:
        """Close under capped position control, or re-regulate an object already held."""
        self.t0 = world.time
        self.q0 = world.data.qpos[world.finger_qpos].copy()
        bodies = finger_contacts(world)[1]
        if world.held_object >= 0 and world.held_object in bodies[0] & bodies[1]:
            self._squeeze(world, world.held_object)  # never loosen what is held
            return
        let_go(world)
        set_mode(world, force=False, limit=self.force)

    def _squeeze(self, world: World, body: int) -> None:
        self.phase, self.t_squeeze, self.body = 'squeeze', world.time, body
        set_mode(world, force=True, limit=self.force)
        world.data.ctrl[world.finger_act] = -self.force

    def pre(self, world: World) -> None:
        """Move the finger targets inwards while closing."""
        if self.phase == 'close':
            elapsed = world.time - self.t0
            world.data.ctrl[world.finger_act] = np.maximum(
                self.q0 - 0.5 * self.speed * elapsed, 0.0)

    def post(self, world: World) -> GripResult | None:
        """Detect contact, regulate, and finish with the grasp's result."""
        d = world.data
        elapsed = world.time - self.t0
        forces, bodies = finger_contacts(world)
        if self.halt_reason or elapsed > self.timeout:
            status = GripStatus.STOPPED if self.halt_reason else GripStatus.TIMED_OUT
            why = self.halt_reason or t('sim_grasp_timeout', timeout=f'{self.timeout:g}')
            if self.phase == 'squeeze':  # keep squeezing: stopping must not drop the object
                held = self.body in world.object_bodies
                if held:
                    take_hold(world, self.body)
                return self.result(world, status, t('sim_grasp_keep', why=why),
                                   float(forces.mean()), held)
            d.ctrl[world.finger_act] = d.qpos[world.finger_qpos]
            return self.result(world, status, t('sim_grasp_hold_width', why=why), 0.0,
                               False)
        if self.phase == 'close':
            q = d.qpos[world.finger_qpos]
            common = bodies[0] & bodies[1]
            if common and forces.min() > 0.2 * self.force:
                self._squeeze(world, min(common))
            elif q.max() < 5e-4 and d.ctrl[world.finger_act].max() <= 0.0:
                set_mode(world, force=False)
                d.ctrl[world.finger_act] = 0.0
                return self.result(world, GripStatus.EMPTY, t('sim_grasp_empty'), 0.0, False)
            elif self.notify and world.steps % 50 == 0:
                self.notify(min(0.9, elapsed * self.speed / max(world.robot.finger_max * 2, 1e-6)),
                            t('sim_grasp_closing', mm=f'{q.sum() * 1000:.1f}'))
            return None
        if world.time - self.t_squeeze > SQUEEZE_S - 0.05:
            self.samples.append(forces.mean())
        if world.time - self.t_squeeze < SQUEEZE_S:
            return None
        measured = float(np.mean(self.samples))
        held = self.width(world) > 0.002 and self.body in world.object_bodies
        if held:
            take_hold(world, self.body)
        name = world.model.body(self.body).name
        if self.notify:
            self.notify(1.0, t('sim_grasp_holding_progress', name=name, force=f'{measured:.1f}'))
        msg = (t('sim_grasp_holding', name=name, mm=f'{self.width(world) * 1000:.1f}',
                 force=f'{measured:.1f}', requested=f'{self.force:g}') if held else
               t('sim_grasp_not_graspable', name=name))
        return self.result(world, GripStatus.HOLDING if held else GripStatus.FAILED, msg,
                           measured, held, object=name)


class Release(_FingerTask):
    """Open both fingers to a total gap under position control."""

    def __init__(self, width_m: float, speed: float, timeout: float,
                 notify: Notify | None = None) -> None:
        """Open to ``width_m`` (clamped to the hand's range) at ``speed`` m/s."""
        super().__init__(speed, timeout, notify)
        self.width_m = width_m
        self.goal = 0.0

    def start(self, world: World) -> None:
        """Leave force mode and forget the held object."""
        self.t0 = world.time
        self.goal = float(np.clip(self.width_m, 0.0, 2 * world.robot.finger_max)) / 2
        self.q0 = world.data.qpos[world.finger_qpos].copy()
        let_go(world)
        set_mode(world, force=False)

    def pre(self, world: World) -> None:
        """Ramp the finger targets to the goal."""
        step = 0.5 * self.speed * (world.time - self.t0)
        q = self.q0 + np.clip(self.goal - self.q0, -step, step)
        world.data.ctrl[world.finger_act] = q

    def post(self, world: World) -> GripResult | None:
        """Finish when the fingers are at the goal, blocked, or out of time."""
        d = world.data
        q, qd = d.qpos[world.finger_qpos], d.qvel[world.finger_dof]
        elapsed = world.time - self.t0
        if self.halt_reason:
            return self.result(world, GripStatus.STOPPED, self.halt_reason, 0.0, False)
        if np.abs(q - self.goal).max() < 5e-4 and np.abs(qd).max() < 1e-3:
            return self.result(world, GripStatus.OPEN,
                               t('sim_release_open', mm=f'{q.sum() * 1000:.1f}'), 0.0, False)
        if elapsed > self.timeout:
            return self.result(world, GripStatus.TIMED_OUT,
                               t('sim_release_timeout', mm=f'{self.goal * 2000:.1f}',
                                 timeout=f'{self.timeout:g}'), 0.0, False)
        return None
