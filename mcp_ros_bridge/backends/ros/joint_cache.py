"""
The joint-state cache: the newest valid value of each joint, whatever name sets arrive.

Drivers may publish joints in separate messages (arm and fingers), so values
are kept per joint, not per message. Each message is parsed and validated when
it arrives (:func:`~mcp_ros_bridge.backends.sensor_checks.check_joint_arrays`,
stamps against the node clock); a rejected one changes nothing, so one bad
message never displaces good data of any joint. An older stamp never replaces
a newer one; a stamp ahead of the node clock is kept as the clock's now, so a
sample stamped in the future cannot hold off the real ones that follow it.
Memory is bounded: only the configured joints are kept (without a configuration,
the first :data:`MAX_OTHER_JOINTS` names), so a read (and the stop that polls it)
takes the same time however many name sets a topic has sent, and joints of other
devices on the topic (a base's wheels) never enter a read.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
import threading
import time
from typing import Any

from mcp_ros_bridge.backends.port import BackendError, JointStates
from mcp_ros_bridge.backends.ros.cdr import parse_joint_state
from mcp_ros_bridge.backends.ros.sensors import (Checks, MALFORMED, no_sample_error,
                                                 raise_if_faulty, sample_age, stale_error,
                                                 stamp_s, VALUES_ONLY)
from mcp_ros_bridge.backends.sensor_checks import check_joint_arrays, fault_error, Rejections
from mcp_ros_bridge.messages import t

MAX_OTHER_JOINTS = 64  # names kept (first come) by a cache given no configured joints
Entry = tuple[float, float, float, float, float]  # position, velocity, effort, stamp, received


class JointStateCache:
    """The newest valid position, velocity and effort per joint name."""

    def __init__(self, topic: str, known: Iterable[str] = (),
                 checks: Checks = VALUES_ONLY) -> None:
        """Create an empty cache for ``topic`` keeping the ``known`` joints (or the first few)."""
        self.topic = topic
        self.checks = checks
        self._known = frozenset(known)
        self._joints: dict[str, Entry] = {}
        self._others = 0
        self._lock = threading.Lock()
        self.rejections = Rejections()
        self.received = threading.Event()
        self.count = 0  # valid messages stored since start

    def on_raw(self, data: bytes) -> None:
        """Parse, check and store one serialized JointState (any one thread)."""
        try:
            stamp, names, pos, vel, eff = parse_joint_state(data)
        except MALFORMED as exc:
            self._reject('malformed', 'bytes', exc, 0.0)
            return
        self._store(stamp, names, pos, vel, eff)

    def on_message(self, msg: Any) -> None:
        """Check and store one JointState message object (executor thread)."""
        self._store(stamp_s(msg.header), tuple(msg.name), msg.position, msg.velocity,
                    msg.effort)

    def _reject(self, reason: str, field: str, value: object, stamp: float) -> None:
        if not self.received.is_set():
            self.received.set()
        self.rejections.add(reason, field, value, stamp)

    def _store(self, stamp: float, names: Sequence[str], pos: Sequence[float],
               vel: Sequence[float], eff: Sequence[float]) -> None:
        bad = check_joint_arrays(names, pos, vel, eff)
        if bad is None:
            late = self.checks.stamp_problem(stamp)
            bad = None if late is None else (late[0], 'header.stamp', round(late[1], 3))
        if bad is not None:
            self._reject(bad[0], bad[1], bad[2], stamp)
            return
        received = time.monotonic()
        # A stamp ahead of the node clock (within the tolerance) is kept as now: otherwise
        # it would make the real samples after it "out of order" until the clock caught up.
        now = self.checks.now() if self.checks.now is not None else 0.0
        stamp = min(stamp, now) if stamp and now else stamp
        with self._lock:
            joints = self._joints
            for i, name in enumerate(names):
                old = joints.get(name)
                if old is None and name not in self._known:
                    if self._known or self._others >= MAX_OTHER_JOINTS:
                        continue
                    self._others += 1
                elif old is not None and stamp and old[3] > stamp:
                    continue  # out of order: the newer sample stays
                joints[name] = (float(pos[i]), float(vel[i]) if vel else 0.0,
                                float(eff[i]) if eff else 0.0, stamp, received)
            self.count += 1
        if not self.received.is_set():
            self.received.set()

    def read(self, required: tuple[str, ...], now_s: float, max_age_s: float) -> JointStates:
        """
        Return the required joints first, then the other kept ones.

        SENSOR_STALE when a required joint is absent or old, SENSOR_FAULT (or
        CLOCK_MISMATCH) when its messages were rejected instead.
        """
        with self._lock:
            values = dict(self._joints)
        missing = [n for n in required if n not in values]
        if missing:
            raise_if_faulty(self.topic, self.rejections, now_s, max_age_s)
            newest = self.rejections.newest
            if not values:
                if newest is not None:
                    raise fault_error(self.topic, newest, self.rejections)
                raise no_sample_error(self.topic)
            raise BackendError('SENSOR_STALE', t('sensor_joints_missing', topic=self.topic,
                                                 missing=missing),
                               advice=t('sensor_joints_missing_fix'),
                               details={'topic': self.topic, 'missing': missing})
        age = max((sample_age(now_s, values[n][3], values[n][4], self.topic)
                   for n in required), default=0.0)
        if age > max_age_s:
            raise_if_faulty(self.topic, self.rejections, now_s, max_age_s)
            raise stale_error(self.topic, age, max_age_s)
        names = tuple(required) + tuple(sorted(n for n in values if n not in required))
        rows = [values[n] for n in names]
        return JointStates(names=names,
                           positions=tuple(r[0] for r in rows),
                           velocities=tuple(r[1] for r in rows),
                           efforts=tuple(r[2] for r in rows),
                           stamp=max((values[n][3] for n in required), default=0.0),
                           age_s=age, source=self.topic, rejected=self.rejections.counts())
