"""
The MuJoCo world: model, stepping thread, real-time pacing and sensor buffers.

One thread owns ``mj_step``. Work that must happen every physics step (a
trajectory, a grasp, a timer) is a :class:`Task` on a channel (``arm``,
``hand``, ``clock``); the thread calls ``pre`` before and ``post`` after each
step, under :attr:`World.lock`. With active tasks the world runs at ``speed``
times real time (``0`` or ``inf``: as fast as possible); with none it idles at
real time (or ``speed`` if finite), so sensors stay fresh and the arm holds.
Each F/T row is validated as it is written (finite, within the rating): an
invalid one is counted in :attr:`World.ft_rejections` and reads leave it out.
"""

from __future__ import annotations

import concurrent.futures
import contextvars
import math
import threading
import time
from typing import Any, Generic, TypeVar

from mcp_ros_bridge.backends.sensor_checks import check_wrench, Rejections
import mujoco
import numpy as np

from .sim_robot import PANDA, SimRobot

FT_CAPACITY = 8192
_CHUNK = 10


def _span(idx: np.ndarray) -> slice:
    """Return ``idx`` (an arithmetic progression) as a slice, for views."""
    step = int(idx[1] - idx[0]) if len(idx) > 1 else 1
    if step <= 0 or not np.array_equal(idx, np.arange(idx[0], idx[-1] + 1, step)):
        raise ValueError('actuators and joints must be laid out regularly')
    return slice(int(idx[0]), int(idx[-1]) + 1, step)


R = TypeVar('R')


class Task(Generic[R]):
    """A controller run by the stepping thread; subclasses override the hooks."""

    channel = 'arm'

    def __init__(self) -> None:
        """Create an unfinished task."""
        self.future: concurrent.futures.Future[R] = concurrent.futures.Future()
        self.halt_reason: str | None = None

    def start(self, world: World) -> None:
        """Prepare on the stepping thread, before the first step."""

    def pre(self, world: World) -> None:
        """Set controls before a physics step."""

    def post(self, world: World) -> R | None:
        """Inspect the stepped state; return a result to finish, else None."""
        return None

    def halt(self, reason: str) -> None:
        """Ask the task to stop at its next step (thread-safe)."""
        if self.halt_reason is None:
            self.halt_reason = reason


class World:
    """The simulated scene and its stepping thread."""

    def __init__(self, *, speed: float = 1.0, seed: int = 0, ft_noise_n: float = 0.0,
                 ft_noise_nm: float = 0.0, home: tuple[float, ...] = (),
                 ft_rating: tuple[float, float] = (math.inf, math.inf),
                 robot: SimRobot = PANDA) -> None:
        """Compile ``robot``'s scene, place the arm at ``home`` and prepare buffers."""
        self.robot = robot
        self.model = robot.build_model()
        self.data = mujoco.MjData(self.model)
        m = self.model
        self.speed = speed
        self.lock = threading.Lock()
        self._wake = threading.Condition(self.lock)
        arm, fingers = robot.arm_joints, robot.finger_joints
        self.arm_qpos = np.array([m.jnt_qposadr[m.joint(j).id] for j in arm])
        self.arm_dof = np.array([m.jnt_dofadr[m.joint(j).id] for j in arm])
        self.finger_qpos = np.array([m.jnt_qposadr[m.joint(j).id] for j in fingers])
        self.finger_dof = np.array([m.jnt_dofadr[m.joint(j).id] for j in fingers])
        self.pos_act = np.array([m.actuator(f'{j}_pos').id for j in arm])
        self.vel_act = np.array([m.actuator(f'{j}_vel').id for j in arm])
        self.ff_act = np.array([m.actuator(f'{j}_ff').id for j in arm])
        self.finger_act = np.array([m.actuator(j).id for j in fingers])
        self.finger_bodies = [m.body(n).id for n in robot.finger_bodies]
        self.object_bodies = {m.body(n).id for n in robot.objects}
        self.hand_body = m.body(robot.hand_body).id
        d = self.data
        # contiguous views for the per-step hot path
        self.ctrl_pos = d.ctrl[_span(self.pos_act)]
        self.ctrl_vel = d.ctrl[_span(self.vel_act)]
        self.qpos_arm = d.qpos[_span(self.arm_qpos)]
        self.qvel_arm = d.qvel[_span(self.arm_dof)]
        self.qfrc_arm = d.ctrl[_span(self.ff_act)]  # feed-forward torque, within the effort
        self._rng = np.random.default_rng(seed)
        self._noise_sd = np.array([ft_noise_n] * 3 + [ft_noise_nm] * 3)
        self._noise = self._draw_noise()
        self._ft = np.zeros((FT_CAPACITY, 6))
        self._ft_t = np.zeros(FT_CAPACITY)
        self.ft_count = 0
        self.ft_rating = ft_rating  # (force N, torque Nm) per axis
        self.ft_limit = np.array([ft_rating[0]] * 3 + [ft_rating[1]] * 3)
        self._ft_quick = min(ft_rating) ** 2  # a row whose squares sum below this is in range
        self.ft_rejections = Rejections()
        self.held_object: int = -1
        self.grip_ref: Any = None  # grip_watch.GripRef of the newest grasp, None when open
        self.after_step: Any = None  # called with the world after each step (grip stiction)
        self.tasks: dict[str, Task[Any]] = {}
        self._running = False
        self._thread: threading.Thread | None = None
        self.last_step_wall = time.monotonic()
        self.steps = 0
        if home:
            self.data.qpos[self.arm_qpos] = home
            self.data.ctrl[self.pos_act] = home
        self.data.qpos[self.finger_qpos] = robot.finger_max
        self.data.ctrl[self.finger_act] = robot.finger_max
        mujoco.mj_forward(m, self.data)
        self._sensor = self.data.sensordata[:6]
        self._publish()

    def _draw_noise(self) -> np.ndarray:
        return np.asarray(self._rng.standard_normal((FT_CAPACITY, 6)) * self._noise_sd)

    @property
    def time(self) -> float:
        """Return the simulation time in seconds."""
        return float(self.data.time)

    def start(self) -> None:
        """Settle the scene for 0.3 s and start the stepping thread."""
        with self.lock:
            for _ in range(300):
                self._step()
            self._publish()
        self._running = True
        # In the starter's context: texts made by physics tasks use the served language.
        self._thread = threading.Thread(target=contextvars.copy_context().run, args=(self._run,),
                                        name='mujoco-world', daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop the thread; unfinished tasks fail with RuntimeError."""
        with self._wake:
            self._running = False
            self._wake.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=5.0)
            self._thread = None
        for task in list(self.tasks.values()):
            if not task.future.done():
                task.future.set_exception(RuntimeError('simulation closed'))
        self.tasks.clear()

    def submit(self, task: Task[R]) -> concurrent.futures.Future[R]:
        """Run ``task`` from the next step on; its channel must be free."""
        with self._wake:
            if not self._running:
                raise RuntimeError('simulation is not running')
            if task.channel in self.tasks:
                raise RuntimeError(f'the {task.channel} is busy')
            task.start(self)
            self.tasks[task.channel] = task
            self._wake.notify_all()
        return task.future

    def busy(self, channel: str) -> Task[Any] | None:
        """Return the task running on ``channel``, if any."""
        return self.tasks.get(channel)

    # -- stepping ------------------------------------------------------------------------
    def _step(self) -> None:
        tasks = self.tasks
        if tasks:
            for task in tasks.values():
                task.pre(self)
        d = self.data
        mujoco.mj_step(self.model, d)
        self.steps += 1
        i = self.ft_count % FT_CAPACITY
        if i == 0 and self.ft_count:
            self._noise = self._draw_noise()
        # the load the hand exerts on the flange (minus the support force), sensor frame
        row = self._ft[i]
        np.subtract(self._noise[i], self._sensor, out=row)
        self._ft_t[i] = d.time
        if not float(row.dot(row)) <= self._ft_quick:  # NaN fails too: check it exactly
            bad = check_wrench(row.tolist(), *self.ft_rating)
            if bad is not None:
                self.ft_rejections.add(bad[0], bad[1], bad[2], d.time)
        self.ft_count += 1
        if self.after_step is not None:
            self.after_step(self)
        if tasks:
            for key, task in list(self.tasks.items()):
                try:
                    result = task.post(self)
                except Exception as exc:  # noqa: BLE001 - handed to the caller
                    del self.tasks[key]
                    self._publish()
                    task.future.set_exception(exc)
                    continue
                if result is not None:
                    del self.tasks[key]
                    self._publish()
                    task.future.set_result(result)

    def _rate(self) -> float:
        fast = self.speed <= 0 or math.isinf(self.speed)
        if self.tasks:
            return math.inf if fast else self.speed
        return 1.0 if fast else self.speed

    def _run(self) -> None:
        anchor_wall, anchor_sim, anchor_rate = time.monotonic(), self.time, self._rate()
        while True:
            with self._wake:
                if not self._running:
                    return
                rate = self._rate()
                if rate != anchor_rate:
                    anchor_wall, anchor_sim, anchor_rate = time.monotonic(), self.time, rate
                if math.isfinite(rate):
                    ahead = anchor_wall + (self.time - anchor_sim) / rate - time.monotonic()
                    if ahead > 0:
                        self._wake.wait(ahead)
                        continue
                    if ahead < -0.2:  # fell behind: do not try to catch up
                        anchor_wall, anchor_sim = time.monotonic(), self.time
                for _ in range(_CHUNK):
                    self._step()
                self._publish()
                self.last_step_wall = time.monotonic()

    # -- reads: lock-free, so the event loop never waits for the stepping thread --------
    def _publish(self) -> None:
        d = self.data
        self.latest = (d.qpos.copy(), d.qvel.copy(), d.qfrc_actuator.copy(), float(d.time))

    def wrench(self, count: int) -> tuple[np.ndarray, np.ndarray]:
        """Return the newest ``count`` valid wrench rows and stamps, oldest first."""
        end = self.ft_count  # rows before ``end`` are complete; keep clear of the writer
        n = min(count, end, FT_CAPACITY - 4 * _CHUNK)
        idx = np.arange(end - n, end) % FT_CAPACITY
        rows, stamps = self._ft[idx], self._ft_t[idx]
        valid = (np.abs(rows) <= self.ft_limit).all(axis=1)  # NaN compares False
        return rows[valid], stamps[valid]

    def snapshot(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
        """Return qpos, qvel, qfrc_actuator and sim time as of the newest publication."""
        return self.latest

    def age(self) -> float:
        """Return the wall-clock seconds since the newest step."""
        return max(0.0, time.monotonic() - self.last_step_wall)
