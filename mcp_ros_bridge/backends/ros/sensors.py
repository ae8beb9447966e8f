"""
Thread-safe caches of sensor messages, written by ROS callbacks, read by asyncio.

Callbacks run on the executor (or drain) thread and do little work: with
``raw=True`` subscriptions (``on_raw``) they get the serialized bytes and
unpack them with ``struct`` (:mod:`.cdr`); the ``on_message`` callbacks take
rclpy message objects instead. Every sample is validated as it arrives
(:mod:`mcp_ros_bridge.backends.sensor_checks`): an invalid one is counted and
never stored, so reads, the force guard and stop only ever see valid data.
Reads compute ages and refuse stale data. The age of a sample is the larger of
(node clock - header stamp) and the time since it was received, so neither a
silent publisher nor an old stamp is served as fresh. Under ``use_sim_time``
both the node clock and the stamps are simulation time; stamps from the other
clock are a CLOCK_MISMATCH (:mod:`.clock`), not staleness. A stream that sends
only invalid samples is a SENSOR_FAULT. The joint-state cache is in
:mod:`.joint_cache`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from itertools import islice
import math
import struct
import threading
import time
from typing import Any

from mcp_ros_bridge.backends.port import BackendError, WrenchSamples
from mcp_ros_bridge.backends.ros.cdr import parse_bare_wrench, parse_wrench
from mcp_ros_bridge.backends.ros.clock import check_stamp
from mcp_ros_bridge.backends.sensor_checks import check_stamp as judge_stamp
from mcp_ros_bridge.backends.sensor_checks import (check_wrench, fault_error, Rejection,
                                                   Rejections)
from mcp_ros_bridge.messages import t

Row = tuple[float, float, float, float, float, float]
MALFORMED = (ValueError, struct.error, UnicodeDecodeError)  # what a truncated message raises


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


@dataclass(frozen=True)
class Checks:
    """
    What every arriving sample is checked against.

    ``now`` gives the node time in s (0 while unknown: stamps are then not
    judged); ``max_age_s`` rejects samples already that old on arrival; the
    rating rejects wrench axes beyond it. The defaults check values only.
    """

    now: Callable[[], float] | None = None
    max_age_s: float | None = None
    max_force_n: float = math.inf
    max_torque_nm: float = math.inf

    def stamp_problem(self, stamp: float) -> tuple[str, float] | None:
        """Return (reason, offset s) when ``stamp`` is not trustworthy now, or None."""
        return None if self.now is None else judge_stamp(stamp, self.now(), self.max_age_s)


VALUES_ONLY = Checks()  # no clock, no rating: finite values only


def raise_if_faulty(topic: str, rejections: Rejections, now_s: float, within_s: float,
                    *, stale_too: bool = True) -> None:
    """
    Raise the error of the newest rejection if it came within ``within_s``; else return.

    Stamps from the other clock raise CLOCK_MISMATCH, stamps too old on arrival
    SENSOR_STALE (with ``stale_too`` False they pass), anything else SENSOR_FAULT.
    """
    newest = rejections.recent(within_s)
    if newest is None:
        return
    if newest.reason == 'old_stamp':
        if stale_too:
            raise stale_error(topic, now_s - newest.stamp, within_s)
        return
    if newest.reason == 'other_clock':
        check_stamp(topic, newest.stamp, now_s)
    raise fault_error(topic, newest, rejections)


class WrenchBuffer:
    """
    A ring buffer of valid WrenchStamped samples, plus optional force and fault watchers.

    With ``receipt_clock`` the topic carries bare ``geometry_msgs/Wrench``
    (no header, as some F/T drivers and Gazebo bridges publish): each sample is
    stamped with ``receipt_clock()`` (node time in s) when taken, and its
    frame is ``frame_id``. ``watcher`` gets the row (Fx..Mz) of each valid
    sample, ``fault_watcher`` each rejection (both on the receiving thread).
    """

    def __init__(self, topic: str, maxlen: int = 4096, *, frame_id: str = '',
                 receipt_clock: Callable[[], float] | None = None,
                 checks: Checks = VALUES_ONLY) -> None:
        """Create an empty buffer for ``topic``."""
        self.topic = topic
        self.frame_id = frame_id
        self.checks = checks
        self._receipt_clock = receipt_clock
        self._rows: deque[tuple[float, float, Row]] = deque(maxlen=maxlen)
        self._lock = threading.Lock()
        self.watcher: Callable[[Row], None] | None = None
        self.fault_watcher: Callable[[Rejection], None] | None = None
        self.rejections = Rejections()
        self.received = threading.Event()
        self.count = 0  # valid samples stored since start

    def on_raw(self, data: bytes) -> None:
        """Check and store one serialized WrenchStamped, or bare Wrench (any one thread)."""
        try:
            if self._receipt_clock is not None:
                self._store(self._receipt_clock(), parse_bare_wrench(data), None)
                return
            stamp, frame, row = parse_wrench(data)
        except MALFORMED as exc:
            self._reject('malformed', 'bytes', exc, 0.0)
            return
        self._store(stamp, row, frame)

    def on_message(self, msg: Any) -> None:
        """Check and store one WrenchStamped, or bare Wrench, message object (executor thread)."""
        if self._receipt_clock is not None:
            f, t = msg.force, msg.torque
            self._store(self._receipt_clock(), (f.x, f.y, f.z, t.x, t.y, t.z), None)
            return
        f, t = msg.wrench.force, msg.wrench.torque
        self._store(stamp_s(msg.header), (f.x, f.y, f.z, t.x, t.y, t.z), msg.header.frame_id)

    def _reject(self, reason: str, field: str, value: object, stamp: float) -> None:
        if not self.received.is_set():
            self.received.set()  # something arrived: a read says what was wrong with it
        rejection = self.rejections.add(reason, field, value, stamp)
        watcher = self.fault_watcher
        if watcher is not None:
            watcher(rejection)

    def _store(self, stamp: float, row: Row, frame: str | None) -> None:
        checks = self.checks
        bad = check_wrench(row, checks.max_force_n, checks.max_torque_nm)
        if bad is not None:
            self._reject(bad[0], bad[1], bad[2], stamp)
            return
        if self._receipt_clock is None:
            late = checks.stamp_problem(stamp)
            if late is not None:
                self._reject(late[0], 'header.stamp', round(late[1], 3), stamp)
                return
        with self._lock:
            self._rows.append((stamp, time.monotonic(), row))
            self.count += 1
            if frame is not None:
                self.frame_id = frame
        if not self.received.is_set():
            self.received.set()
        watcher = self.watcher
        if watcher is not None:
            watcher(row)

    def tail(self, count: int) -> list[tuple[float, float, Row]]:
        """Return the ``count`` newest samples as (stamp, received, row), oldest first."""
        with self._lock:
            rows = list(islice(reversed(self._rows), max(0, count)))
        rows.reverse()
        return rows

    def read(self, count: int, now_s: float, max_age_s: float) -> WrenchSamples:
        """
        Return up to ``count`` newest valid samples.

        Raise SENSOR_STALE when the newest is too old (or none came), SENSOR_FAULT
        (or CLOCK_MISMATCH) when samples were rejected instead.
        """
        rows = self.tail(max(1, count))
        age = sample_age(now_s, rows[-1][0], rows[-1][1], self.topic) if rows else math.inf
        if age > max_age_s:
            raise_if_faulty(self.topic, self.rejections, now_s, max_age_s)
            if not rows:
                newest = self.rejections.newest
                if newest is not None:
                    raise fault_error(self.topic, newest, self.rejections)
                raise no_sample_error(self.topic)
            raise stale_error(self.topic, age, max_age_s)
        stamps = tuple(r[0] for r in rows)
        span = stamps[-1] - stamps[0]
        rate = (len(stamps) - 1) / span if len(stamps) > 1 and span > 0 else 0.0
        return WrenchSamples(samples=tuple(r[2] for r in rows), stamps=stamps,
                             frame_id=self.frame_id, age_s=age, rate_hz=rate,
                             source=self.topic, rejected=self.rejections.counts())

    def check_healthy(self, now_s: float, max_age_s: float) -> None:
        """
        Raise unless the newest valid sample is fresh and no sample was just rejected.

        The force guard's pre-check: a motion starts only on a clean stream.
        """
        self.read(1, now_s, max_age_s)
        raise_if_faulty(self.topic, self.rejections, now_s, max_age_s, stale_too=False)

    def newest(self) -> tuple[float, float, Row] | None:
        """Return the newest sample as (stamp, received time, row), or None."""
        with self._lock:
            return self._rows[-1] if self._rows else None
