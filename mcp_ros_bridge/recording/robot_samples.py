"""
The robot as ROS 2 messages: joint states, wrenches, the tip on /tf, the scene image.

Reads go through the backend port with a bound, on the event loop; the messages
go to the recorder's queue, so neither a sensor callback nor a stop waits for a
disk. During a motion the robot is read at ``MOTION_HZ``, between motions at
``IDLE_HZ``; each read records every wrench sample the backend kept since the
last one, each once: a sample is new when the previous read did not have its
stamp. A read that does not reach back to the previous one (a burst after a
stall outran the window) is read again, wider, while the backend keeps them.
An image is captured when a motion ends. A read that starts or stops
failing is an event (``sensor_fault`` / ``sensor_ok``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
import math
import time
from typing import Any, Protocol

from mcp_ros_bridge.backends.port import JointStates, Pose, RobotBackend, WrenchSamples
from mcp_ros_bridge.recording.channels import EVENTS, header, IMAGE, JOINTS, TF, WRENCH

MOTION_HZ = 50.0
IDLE_HZ = 2.0
READ_BOUND_S = 1.0
IMAGE_BOUND_S = 10.0
IMAGE_SIZE = (320, 240)
WRENCH_MAX = 4000  # rows asked at most: the wall time since the last read, 4x the rate
START_SLACK_S = 0.1  # the first read keeps the samples since the start and this much before


class Sink(Protocol):
    """Where messages go (the recorder)."""

    def put(self, topic: str, message: dict[str, Any], seconds: float | None = None) -> None:
        """Enqueue one message."""

    def put_batch(self, topic: str, count: int,
                  build: Callable[[], Iterable[tuple[dict[str, Any], float]]]) -> None:
        """Enqueue ``count`` messages built later (off the event loop), with their times."""


def joint_message(j: JointStates) -> dict[str, Any]:
    """Return ``sensor_msgs/JointState``."""
    return {'header': header(time.time(), ''), 'name': list(j.names),
            'position': list(j.positions), 'velocity': list(j.velocities),
            'effort': list(j.efforts) or [0.0] * len(j.names)}


def wrench_message(sample: tuple[float, ...], seconds: float, frame: str) -> dict[str, Any]:
    """Return ``geometry_msgs/WrenchStamped``."""
    fx, fy, fz, tx, ty, tz = sample
    return {'header': header(seconds, frame), 'wrench': {
        'force': {'x': fx, 'y': fy, 'z': fz}, 'torque': {'x': tx, 'y': ty, 'z': tz}}}


def wrench_messages(samples: Sequence[tuple[float, ...]], stamps: Sequence[float],
                    frame: str) -> Iterator[tuple[dict[str, Any], float]]:
    """Yield (``geometry_msgs/WrenchStamped``, its stamp) per sample."""
    for sample, at in zip(samples, stamps):
        yield wrench_message(sample, at, frame), at


def tf_message(pose: Pose, child: str) -> dict[str, Any]:
    """Return ``tf2_msgs/TFMessage`` of the tip in its base frame."""
    w, x, y, z = pose.orientation
    px, py, pz = pose.position
    return {'transforms': [{'header': header(time.time(), pose.frame_id),
                            'child_frame_id': child,
                            'transform': {'translation': {'x': px, 'y': py, 'z': pz},
                                          'rotation': {'x': x, 'y': y, 'z': z, 'w': w}}}]}


class RobotSampler:
    """Reads the robot and hands its messages to ``sink``, until cancelled."""

    def __init__(self, sink: Sink, backend: RobotBackend, base: str, tip: str,
                 moving: Any, images: bool = True) -> None:
        """Sample ``backend``; ``moving()`` returns the running motion (None: none runs)."""
        self.sink, self.backend, self.moving, self.images = sink, backend, moving, images
        self.base, self.tip = base, tip
        self._faults: dict[str, str] = {}
        self._last_read: set[float] = set()  # the stamps of the previous wrench read
        self._floor = -math.inf  # the oldest of them: anything older was read before
        self._started = time.monotonic()
        self._wrench_rate, self._read_at = 0.0, time.monotonic()  # both: as of the last good read
        self._soon = asyncio.Event()
        self._capturing: asyncio.Task[None] | None = None
        self._loop = asyncio.get_running_loop()

    def poke(self) -> None:
        """Sample now (after a tool call: its end pose); callable from any thread."""
        try:
            self._loop.call_soon_threadsafe(self._soon.set)
        except RuntimeError:  # the loop has closed: the server is ending
            pass

    async def run(self) -> None:
        """Sample until cancelled."""
        before: object = None
        while True:
            began = time.monotonic()
            motion = self.moving()
            moving = motion is not None
            await self.sample()
            if before is not None and motion is not before:  # that motion has ended
                self._capture()
            before = motion
            period = 1.0 / (MOTION_HZ if moving else IDLE_HZ)
            try:
                await asyncio.wait_for(self._soon.wait(),
                                       max(0.0, period - (time.monotonic() - began)))
            except asyncio.TimeoutError:
                pass
            self._soon.clear()

    async def sample(self) -> None:
        """Read joints, tip and the wrench samples since the last read, once."""
        # the window reaches back to the last read that returned samples: a failed
        # (stale, timed-out) read in between must not leave a hole in the stream
        now, last = time.monotonic(), self._read_at
        rows = min(WRENCH_MAX, int((now - last) * self._wrench_rate * 4) + 50) \
            if self._wrench_rate else WRENCH_MAX
        joints, pose, wrench = await asyncio.gather(
            self._read('joints', self.backend.joint_states),
            self._read('tip', lambda: self.backend.end_effector_pose(self.base, self.tip)),
            self._read('wrench', lambda: self._wrench_since(rows)))
        if isinstance(joints, JointStates):
            self.sink.put(JOINTS, joint_message(joints))
        if isinstance(pose, Pose):
            self.sink.put(TF, tf_message(pose, self.tip))
        if isinstance(wrench, WrenchSamples):
            self._read_at = now
            self._wrench_rate = wrench.rate_hz or self._wrench_rate
            stamps, floor, before = wrench.stamps, self._floor, self._last_read
            if floor == -math.inf and stamps:  # the first read: from when recording started
                floor = max(stamps) - (now - self._started) - START_SLACK_S
            # by stamp, not position: samples a busy executor stored out of order count too
            new = [i for i, at in enumerate(stamps) if at > floor and at not in before]
            if stamps:
                self._last_read, self._floor = set(stamps), min(stamps)
            if new:
                self.sink.put_batch(WRENCH, len(new), partial(
                    wrench_messages, [wrench.samples[i] for i in new],
                    [stamps[i] for i in new], wrench.frame_id))

    async def _wrench_since(self, rows: int) -> WrenchSamples:
        """Read the newest ``rows`` samples, wider until the window overlaps the last read."""
        while True:
            wrench = await self.backend.wrench_samples(rows)
            stamps, before = wrench.stamps, self._last_read
            full = len(stamps) >= rows and rows < WRENCH_MAX
            if not (full and before and stamps and min(stamps) > max(before)):
                return wrench
            rows = min(WRENCH_MAX, rows * 4)

    def _capture(self) -> None:
        """Capture the scene in the background (one capture at a time; sampling goes on)."""
        if self.images and (self._capturing is None or self._capturing.done()):
            self._capturing = self._loop.create_task(self.image())

    def cancel(self) -> None:
        """Stop a capture in progress."""
        if self._capturing is not None:
            self._capturing.cancel()

    async def image(self) -> None:
        """Capture the scene once (as the console does after a motion)."""
        shot = await self._read('camera', lambda: self.backend.capture_image('', *IMAGE_SIZE),
                                IMAGE_BOUND_S)
        if shot is None:
            return
        fmt = shot.mime_type.rpartition('/')[2]
        self.sink.put(IMAGE, {'header': header(time.time(), shot.camera or 'scene'),
                              'format': fmt, 'data': shot.data})

    async def _read(self, part: str, read: Any, bound: float = READ_BOUND_S) -> Any:
        try:
            value = await asyncio.wait_for(read(), bound)  # created here: never left unawaited
        except Exception as exc:  # noqa: BLE001 - a sensor fault, recorded as an event
            error = getattr(exc, 'code', '') or type(exc).__name__
            if self._faults.get(part) != error:
                self._faults[part] = error
                self.sink.put(EVENTS, {'event': 'sensor_fault', 'part': part,
                                       'reason': str(error), 'time': _iso()})
            return None
        if self._faults.pop(part, None) is not None:
            self.sink.put(EVENTS, {'event': 'sensor_ok', 'part': part, 'time': _iso()})
        return value


def _iso() -> str:
    return time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())
