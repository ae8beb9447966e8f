"""
The robot as ROS 2 messages: joint states, wrenches, the tip on /tf, the scene image.

Reads go through the backend port with a bound, on the event loop; the messages
go to the recorder's queue, so neither a sensor callback nor a stop waits for a
disk. During a motion the robot is read at ``MOTION_HZ`` and every new wrench
sample the backend kept is recorded (the sensor rate); between motions at
``IDLE_HZ``. An image is captured when a motion ends. A read that starts or stops
failing is an event (``sensor_fault`` / ``sensor_ok``).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Protocol

from mcp_ros_bridge.backends.port import JointStates, Pose, RobotBackend, WrenchSamples
from mcp_ros_bridge.recording.channels import EVENTS, header, IMAGE, JOINTS, TF, WRENCH

MOTION_HZ = 50.0
IDLE_HZ = 2.0
READ_BOUND_S = 1.0
IMAGE_BOUND_S = 10.0
IMAGE_SIZE = (320, 240)
WRENCH_BATCH = 200


class Sink(Protocol):
    """Where messages go (the recorder)."""

    def put(self, topic: str, message: dict[str, Any], seconds: float | None = None) -> None:
        """Enqueue one message."""


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
                 moving: Any) -> None:
        """Sample ``backend``; ``moving()`` says whether a motion runs."""
        self.sink, self.backend, self.base, self.tip, self.moving = sink, backend, base, tip, moving
        self._faults: dict[str, str] = {}
        self._wrench_after = 0.0
        self._soon = asyncio.Event()
        self._loop = asyncio.get_running_loop()

    def poke(self) -> None:
        """Sample now (after a tool call: its end pose); callable from any thread."""
        try:
            self._loop.call_soon_threadsafe(self._soon.set)
        except RuntimeError:  # the loop has closed: the server is ending
            pass

    async def run(self) -> None:
        """Sample until cancelled."""
        was_moving = False
        while True:
            began = time.monotonic()
            moving = bool(self.moving())
            await self.sample()
            if was_moving and not moving:
                await self.image()
            was_moving = moving
            period = 1.0 / (MOTION_HZ if moving else IDLE_HZ)
            try:
                await asyncio.wait_for(self._soon.wait(),
                                       max(0.0, period - (time.monotonic() - began)))
            except asyncio.TimeoutError:
                pass
            self._soon.clear()

    async def sample(self) -> None:
        """Read joints, tip and new wrench samples once."""
        joints, pose, wrench = await asyncio.gather(
            self._read('joints', self.backend.joint_states()),
            self._read('tip', self.backend.end_effector_pose(self.base, self.tip)),
            self._read('wrench', self.backend.wrench_samples(WRENCH_BATCH)))
        if isinstance(joints, JointStates):
            self.sink.put(JOINTS, joint_message(joints))
        if isinstance(pose, Pose):
            self.sink.put(TF, tf_message(pose, self.tip))
        if isinstance(wrench, WrenchSamples):
            for sample, at in zip(wrench.samples, wrench.stamps):
                if at > self._wrench_after:
                    self.sink.put(WRENCH, wrench_message(sample, at, wrench.frame_id))
            if wrench.stamps:
                self._wrench_after = max(self._wrench_after, max(wrench.stamps))

    async def image(self) -> None:
        """Capture the scene once (as the console does after a motion)."""
        shot = await self._read('camera', self.backend.capture_image('', *IMAGE_SIZE),
                                IMAGE_BOUND_S)
        if shot is None:
            return
        fmt = shot.mime_type.rpartition('/')[2]
        self.sink.put(IMAGE, {'header': header(time.time(), shot.camera or 'scene'),
                              'format': fmt, 'data': shot.data})

    async def _read(self, part: str, aw: Any, bound: float = READ_BOUND_S) -> Any:
        try:
            value = await asyncio.wait_for(aw, bound)
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
