"""
Thread-safe caches of sensor messages, written by ROS callbacks, read by asyncio.

Callbacks run on the executor thread and do the least work possible: with
``raw=True`` subscriptions (:meth:`WrenchBuffer.on_raw`,
:meth:`JointStateCache.on_raw`) they get the serialized bytes, and a wrench
callback unpacks a stamp and six floats with ``struct`` while a joint-state
callback files the bytes under the joint names, to be parsed only when read.
The ``on_message`` callbacks take rclpy message objects instead. Reads compute
ages and refuse stale data. The age of a
sample is the larger of (node clock - header stamp) and the time since it was
received, so neither a silent publisher nor an old stamp is served as fresh.
Under ``use_sim_time`` both the node clock and the stamps are simulation time;
stamps from the other clock are a CLOCK_MISMATCH (:mod:`.clock`), not staleness.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from itertools import islice
import math
import threading
import time
from typing import Any

from mcp_ros_bridge.backends.port import BackendError, JointStates, WrenchSamples
from mcp_ros_bridge.backends.ros.cdr import (joint_names, parse_bare_wrench, parse_joint_state,
                                             parse_wrench)
from mcp_ros_bridge.backends.ros.clock import check_stamp
from mcp_ros_bridge.messages import t

Row = tuple[float, float, float, float, float, float]


def stamp_s(header: Any) -> float:
    """Return a std_msgs/Header stamp in seconds."""
    return float(header.stamp.sec + header.stamp.nanosec * 1e-9)


def sample_age(now_s: float, stamp: float, received_mono: float, topic: str = '') -> float:
    """
    Return the age of a sample: the larger of the stamp age and the receive age.

    Raise CLOCK_MISMATCH when the stamp and ``now_s`` come from different clocks.
    """
    check_stamp(topic, stamp, now_s)
    recv_age = time.monotonic() - received_mono
    return max(now_s - stamp, recv_age) if stamp > 0.0 else recv_age


def stale_error(topic: str, age_s: float, max_age_s: float) -> BackendError:
    """Return the SENSOR_STALE error naming the topic and the age."""
    return BackendError(
        'SENSOR_STALE', t('ros_sensor_stale', topic=topic, age_s=age_s, max_age_s=max_age_s),
        advice=t('ros_sensor_stale_fix', topic=topic),
        details={'topic': topic, 'age_s': round(age_s, 4), 'max_age_s': max_age_s})


def no_sample_error(topic: str) -> BackendError:
    """Return the SENSOR_STALE error for a topic that never published."""
    return BackendError('SENSOR_STALE', t('sensor_none', topic=topic),
                        advice=t('sensor_none_fix', topic=topic),
                        details={'topic': topic, 'age_s': None})


class WrenchBuffer:
    """
    A ring buffer of raw WrenchStamped samples, plus an optional force watcher.

    With ``receipt_clock`` the topic carries bare ``geometry_msgs/Wrench``
    (no header, as some F/T drivers and Gazebo bridges publish): each sample is
    stamped with ``receipt_clock()`` (node time in s) when taken, and its
    frame is ``frame_id``.
    """

    def __init__(self, topic: str, maxlen: int = 4096, *, frame_id: str = '',
                 receipt_clock: Callable[[], float] | None = None) -> None:
        """Create an empty buffer for ``topic``."""
        self.topic = topic
        self.frame_id = frame_id
        self._receipt_clock = receipt_clock
        self._rows: deque[tuple[float, float, Row]] = deque(maxlen=maxlen)
        self._lock = threading.Lock()
        self.watcher: Callable[[float], None] | None = None
        self.received = threading.Event()
        self.count = 0  # samples stored since start

    def on_raw(self, data: bytes) -> None:
        """Store one serialized WrenchStamped, or bare Wrench (executor or drain thread)."""
        if self._receipt_clock is not None:
            self._store(self._receipt_clock(), parse_bare_wrench(data))
            return
        stamp, self.frame_id, row = parse_wrench(data)
        self._store(stamp, row)

    def on_message(self, msg: Any) -> None:
        """Store one WrenchStamped, or bare Wrench, message object (executor thread)."""
        if self._receipt_clock is not None:
            f, t = msg.force, msg.torque
            self._store(self._receipt_clock(), (f.x, f.y, f.z, t.x, t.y, t.z))
            return
        f, t = msg.wrench.force, msg.wrench.torque
        self.frame_id = msg.header.frame_id
        self._store(stamp_s(msg.header), (f.x, f.y, f.z, t.x, t.y, t.z))

    def _store(self, stamp: float, row: Row) -> None:
        with self._lock:
            self._rows.append((stamp, time.monotonic(), row))
            self.count += 1
        if not self.received.is_set():
            self.received.set()
        watcher = self.watcher
        if watcher is not None:
            watcher(math.sqrt(row[0] * row[0] + row[1] * row[1] + row[2] * row[2]))

    def tail(self, count: int) -> list[tuple[float, float, Row]]:
        """Return the ``count`` newest samples as (stamp, received, row), oldest first."""
        with self._lock:
            rows = list(islice(reversed(self._rows), max(0, count)))
        rows.reverse()
        return rows

    def read(self, count: int, now_s: float, max_age_s: float) -> WrenchSamples:
        """Return up to ``count`` newest samples; raise SENSOR_STALE when too old."""
        rows = self.tail(max(1, count))
        if not rows:
            raise no_sample_error(self.topic)
        age = sample_age(now_s, rows[-1][0], rows[-1][1], self.topic)
        if age > max_age_s:
            raise stale_error(self.topic, age, max_age_s)
        stamps = tuple(r[0] for r in rows)
        span = stamps[-1] - stamps[0]
        rate = (len(stamps) - 1) / span if len(stamps) > 1 and span > 0 else 0.0
        return WrenchSamples(samples=tuple(r[2] for r in rows), stamps=stamps,
                             frame_id=self.frame_id, age_s=age, rate_hz=rate,
                             source=self.topic)

    def newest(self) -> tuple[float, float, Row] | None:
        """Return the newest sample as (stamp, received time, row), or None."""
        with self._lock:
            return self._rows[-1] if self._rows else None


class JointStateCache:
    """The newest JointState per set of names (drivers may publish joints separately)."""

    def __init__(self, topic: str) -> None:
        """Create an empty cache for ``topic``."""
        self.topic = topic
        self._latest: dict[tuple[str, ...], tuple[Any, float]] = {}
        self._lock = threading.Lock()
        self.received = threading.Event()
        self.count = 0  # messages stored since start

    def on_raw(self, data: bytes) -> None:
        """File one serialized JointState under its names; parse it when read."""
        self._store(joint_names(data), data)

    def on_message(self, msg: Any) -> None:
        """Store one JointState message object (executor thread)."""
        self._store(tuple(msg.name), msg)

    def _store(self, key: tuple[str, ...], msg: Any) -> None:
        received = time.monotonic()
        with self._lock:
            self._latest[key] = (msg, received)
            self.count += 1
        if not self.received.is_set():
            self.received.set()

    def read(self, required: tuple[str, ...], now_s: float, max_age_s: float) -> JointStates:
        """Merge the newest messages; raise SENSOR_STALE if a required joint is old or absent."""
        with self._lock:
            entries = list(self._latest.values())
        if not entries:
            raise no_sample_error(self.topic)
        values: dict[str, tuple[float, float, float, float, float]] = {}
        for msg, received in entries:
            stamp, names, pos, vel, eff = _fields(msg)
            age = sample_age(now_s, stamp, received, self.topic)
            for i, name in enumerate(names):
                v = vel[i] if i < len(vel) else 0.0
                e = eff[i] if i < len(eff) else 0.0
                if name not in values or values[name][4] > age:
                    values[name] = (float(pos[i]), float(v), float(e), stamp, age)
        missing = [n for n in required if n not in values]
        if missing:
            raise BackendError('SENSOR_STALE', t('sensor_joints_missing', topic=self.topic,
                                                 missing=missing),
                               advice=t('sensor_joints_missing_fix'),
                               details={'topic': self.topic, 'missing': missing})
        age = max((values[n][4] for n in required), default=0.0)
        if age > max_age_s:
            raise stale_error(self.topic, age, max_age_s)
        names = tuple(required) + tuple(sorted(n for n in values if n not in required))
        return JointStates(names=names,
                           positions=tuple(values[n][0] for n in names),
                           velocities=tuple(values[n][1] for n in names),
                           efforts=tuple(values[n][2] for n in names),
                           stamp=max(values[n][3] for n in names), age_s=age,
                           source=self.topic)


def _fields(msg: Any) -> tuple[float, Any, Any, Any, Any]:
    """Return (stamp, names, positions, velocities, efforts) of bytes or a message."""
    if isinstance(msg, bytes):
        return parse_joint_state(msg)
    return stamp_s(msg.header), msg.name, msg.position, msg.velocity, msg.effort
