"""
Execution of an arm trajectory on the stepping thread, with the contact guard.

Phases: ``run`` (track the trajectory), ``settle`` (hold the goal until the
joints converge), ``halt`` (stop, cancel, contact abort or timeout: hold and
wait until the arm is still). A contact abort backs off 0.1 s along the path
so the arm does not keep pressing on what it hit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from mcp_ros_bridge.backends.port import (BackendError, MotionStatus, new_pass, PathCheck,
                                          STILL_RAD_S)
from mcp_ros_bridge.backends.sensor_checks import Rejection
from mcp_ros_bridge.messages import t
import mujoco
import numpy as np

from .tips import TipFrame
from .trajectory import Trajectory
from .watchdog import ContactGuard
from .world import Task, World

Notify = Callable[[float, str], None]
WATCH_EVERY = 5  # steps between checks of the executed tip pose (the plan is checked fully)


@dataclass(frozen=True)
class ArmRun:
    """How one arm task ended, before the backend adds the reached pose."""

    status: MotionStatus
    message: str
    duration_s: float
    fraction: float
    peak_force_n: float | None
    contact: Mapping[str, Any] | None
    details: Mapping[str, Any]
    trace: np.ndarray


class ArmMotion(Task[ArmRun]):
    """Track a :class:`Trajectory`; finish with an :class:`ArmRun`."""

    channel = 'arm'
    backoff_s = 0.1  # a contact abort holds where the path was this long before

    def __init__(self, traj: Trajectory, guard: ContactGuard, *, force_limit_n: float,
                 timeout_s: float, tolerance_rad: float, notify: Notify | None = None,
                 settle_s: float = 1.5, label: str = 'moving',
                 path_check: PathCheck | None = None, tip: TipFrame | None = None) -> None:
        """Prepare to execute ``traj``; ``path_check`` watches the ``tip`` pose."""
        super().__init__()
        self.path_check, self.tip = path_check, tip
        self.path_exit: dict[str, Any] | None = None
        self.traj, self.guard = traj, guard
        self.limit, self.timeout, self.tol = force_limit_n, timeout_s, tolerance_rad
        self.notify, self.settle_s, self.label = notify, settle_s, label
        self.phase, self.message = 'run', ''
        self.status = MotionStatus.SUCCEEDED
        self.peak = 0.0
        self.contact: dict[str, Any] | None = None
        self.t_cross: float | None = None
        self.t_halt: float | None = None
        self.t_still: float | None = None
        self.trace: list[np.ndarray] = []
        self._sent = -1.0
        self.fraction = 0.0
        self._qdd = traj.qdd
        self.still_steps = 0
        self._acc: np.ndarray | None = None
        self._bad0: Rejection | None = None  # the newest F/T rejection at the start
        self.sensor_fault: dict[str, Any] | None = None

    def start(self, world: World) -> None:
        """Remember the start time (and the newest F/T rejection so far); watch a new pass."""
        new_pass(self.path_check)  # the check may have seen the planned path
        self.t0 = world.time
        self._bad0 = world.ft_rejections.newest
        self.tcp = world.model.site(world.robot.tcp).id
        self.s0, self.last = world.steps, len(self.traj.q) - 1
        self._acc = np.zeros(world.model.nv)
        self._tau = np.zeros(world.model.nv)
        self._acc_arm = self._acc[world.arm_dof[0]:world.arm_dof[-1] + 1]
        self._tau_arm = self._tau[world.arm_dof[0]:world.arm_dof[-1] + 1]

    def pre(self, world: World) -> None:
        """Command the next trajectory sample while running."""
        if self.phase == 'run':
            k = min(world.steps - self.s0 + 1, self.last)
            world.ctrl_pos[:] = self.traj.q[k]
            world.ctrl_vel[:] = self.traj.qd[k]
            # inertial feed-forward M(q) qdd, so the servos only correct errors
            self._acc_arm[:] = self._qdd[k]
            mujoco.mj_mulM(world.model, world.data, self._tau, self._acc)
            world.qfrc_arm[:] = self._tau_arm

    def _begin_halt(self, world: World, status: MotionStatus, message: str) -> None:
        d = world.data
        self.phase, self.status, self.message = 'halt', status, message
        self.t_halt = world.time
        target = d.qpos[world.arm_qpos].copy()
        if status is MotionStatus.CONTACT_ABORT:
            k = self.traj.index(world.time - self.t0 - self.backoff_s)
            target = self.traj.q[min(k, len(self.traj.q) - 1)]
        d.ctrl[world.pos_act] = target
        d.ctrl[world.vel_act] = 0.0
        world.qfrc_arm[:] = 0.0

    def _holding(self) -> bool:
        """Return whether the halt has reached its hold (a subclass may move on first)."""
        return True

    def _watch_path(self, world: World, elapsed: float) -> None:
        """Stop when the tip leaves the envelope (the planned path was checked already)."""
        if self.path_check is None or self.tip is None or self.phase == 'halt':
            return
        try:
            self.path_check([self.tip(world.data)], [elapsed])
        except BackendError as exc:
            self.path_exit = dict(exc.details)
            self._begin_halt(world, MotionStatus.FAILED,
                             t('sim_path_exit', message=exc.message))

    def _guard(self, world: World) -> None:
        d = world.data
        quick = self.guard.quick(d)
        if quick <= self.limit and (self.t_cross is None or quick <= self.peak):
            return
        total, pairs = self.guard.measure(d, world.held_object)
        if total > self.peak:
            self.peak = total
            self.contact = {'pairs': {k: round(v, 2) for k, v in pairs.items()},
                            'time_s': round(world.time - self.t0, 4)}
        if total > self.limit and self.t_cross is None and self.phase != 'halt':
            self.t_cross = world.time
            worst = max(pairs, key=lambda pair: pairs[pair])
            self._begin_halt(world, MotionStatus.CONTACT_ABORT,
                             t('sim_contact_abort', force=f'{total:.1f}', limit=f'{self.limit:g}',
                               pair=worst))

    def _watch_sensor(self, world: World) -> None:
        """Stop when the F/T sensor sends an invalid row: a blind guard must not move the arm."""
        bad = world.ft_rejections.newest
        if bad is None or bad is self._bad0 or self.phase == 'halt':
            return
        self._bad0 = bad
        what = t(f'sensor_reject_{bad.reason}', field=bad.field, value=bad.value)
        self.sensor_fault = {'code': 'SENSOR_FAULT', 'topic': 'sim/wrench', 'reason': bad.reason}
        self._begin_halt(world, MotionStatus.FAILED,
                         t('guard_sensor_fault', topic='sim/wrench', what=what))

    def post(self, world: World) -> ArmRun | None:
        """Advance the phase machine; return the run's result when finished."""
        d = world.data
        elapsed = world.time - self.t0
        self._guard(world)
        self._watch_sensor(world)
        if world.steps % WATCH_EVERY == 0:
            self._watch_path(world, elapsed)
        if self.halt_reason is not None and self.phase != 'halt':
            self._begin_halt(world, MotionStatus.STOPPED, self.halt_reason)
        if self.phase != 'halt' and elapsed > self.timeout:
            self._begin_halt(world, MotionStatus.TIMED_OUT,
                             t('sim_motion_timeout', timeout=f'{self.timeout:g}'))
        if world.steps % 5 == 0:
            self.trace.append(d.site_xpos[self.tcp].copy())
        if self.phase == 'run':
            self.fraction = min(1.0, elapsed / self.traj.duration) if self.traj.duration else 1.0
            if world.steps - self.s0 >= self.last:
                self.phase = 'settle'
                d.ctrl[world.pos_act] = self.traj.q[-1]
                d.ctrl[world.vel_act] = 0.0
                world.qfrc_arm[:] = 0.0
        qd = float(np.abs(world.qvel_arm).max()) if self.phase != 'run' else 0.0
        if self.phase == 'settle':
            err = float(np.abs(d.qpos[world.arm_qpos] - self.traj.q[-1]).max())
            self.still_steps = self.still_steps + 1 if qd < STILL_RAD_S / 5 else 0
            # converged, or at rest under a load the servos cannot fully cancel (a payload)
            rested = self.still_steps * world.model.opt.timestep > 0.1
            if ((err < self.tol and qd < STILL_RAD_S) or rested
                    or elapsed > self.traj.duration + self.settle_s):
                return self._result(world, elapsed)
        elif self.phase == 'halt' and self._holding():
            if self.t_still is None and qd < STILL_RAD_S:
                self.t_still = world.time
            waited = world.time - (world.time if self.t_halt is None else self.t_halt)
            if (self.t_still is not None or waited > 0.5) and (
                    waited >= 0.1 or self.status is not MotionStatus.CONTACT_ABORT):
                return self._result(world, elapsed)
        if self.notify and self.fraction - self._sent >= 0.05:
            self._sent = self.fraction
            self.notify(self.fraction, f'{self.label}: {self.fraction:.0%}')
        return None

    def _result(self, world: World, t: float) -> ArmRun:
        details: dict[str, Any] = {'planned_duration_s': round(self.traj.duration, 4)}
        if self.t_halt is not None:
            details['halt_at_s'] = round(self.t_halt - self.t0, 4)
            if self.t_still is not None:
                details['still_after_halt_s'] = round(self.t_still - self.t_halt, 4)
        if self.path_exit is not None:
            details['path_exit'] = self.path_exit
        if self.sensor_fault is not None:
            details.update(self.sensor_fault)
        if self.t_cross is not None:
            details['threshold_crossed_at_s'] = round(self.t_cross - self.t0, 4)
            if self.t_halt is not None:
                details['reaction_s'] = round(self.t_halt - self.t_cross, 4)
        if self.status is MotionStatus.SUCCEEDED:
            self.fraction = 1.0
            if self.notify:
                self.notify(1.0, f'{self.label}: done')
        return ArmRun(self.status, self.message, t, self.fraction, self.peak or None,
                      self.contact, details, np.array(self.trace))
