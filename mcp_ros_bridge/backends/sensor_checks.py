"""
Validation of sensor samples before any safety decision uses them (both backends).

A sample is checked where it arrives: non-finite values, magnitudes beyond the
sensor's rated range, stamps from the future (beyond :data:`FUTURE_TOLERANCE_S`),
from the other clock or already too old, and joint states whose arrays do not
fit their names are rejected one by one and counted in a :class:`Rejections`
log. A stream whose newest valid sample is not recent while samples keep being
rejected is a sensor fault: :func:`fault_error` says which topic, what was
wrong and how many samples were rejected. Nothing here imports ROS or MuJoCo.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
import math
import threading
import time

from mcp_ros_bridge.backends.port import BackendError
from mcp_ros_bridge.messages import t

FUTURE_TOLERANCE_S = 0.25  # a stamp this far ahead of the node clock is still accepted
WALL_CLOCK_MIN_S = 1e9  # wall time is after 2001-09-09; plausible simulation time before

# Why a sample was rejected; each has a ``sensor_reject_<reason>`` text.
REASONS = ('non_finite', 'out_of_range', 'future_stamp', 'other_clock', 'old_stamp',
           'bad_arrays', 'malformed')


@dataclass(frozen=True)
class Rejection:
    """One rejected sample: why, the offending field and value, its stamp, when it came."""

    reason: str
    field: str
    value: str
    stamp: float
    received: float


class Rejections:
    """Thread-safe counts of rejected samples by reason, and the newest rejection."""

    def __init__(self) -> None:
        """Start with nothing rejected."""
        self._lock = threading.Lock()
        self._counts: dict[str, int] = {}
        self.newest: Rejection | None = None

    def add(self, reason: str, field: str, value: object, stamp: float = 0.0) -> Rejection:
        """Count one rejected sample (any thread); return its record."""
        rejection = Rejection(reason, field, str(value)[:80], stamp, time.monotonic())
        with self._lock:
            self._counts[reason] = self._counts.get(reason, 0) + 1
            self.newest = rejection
        return rejection

    def counts(self) -> dict[str, int]:
        """Return a copy of the counts by reason (only reasons seen)."""
        with self._lock:
            return dict(self._counts)

    @property
    def total(self) -> int:
        """Return how many samples were rejected since start."""
        with self._lock:
            return sum(self._counts.values())

    def recent(self, within_s: float) -> Rejection | None:
        """Return the newest rejection if it arrived within ``within_s`` seconds, else None."""
        newest = self.newest
        if newest is None or time.monotonic() - newest.received > within_s:
            return None
        return newest


def check_wrench(row: Sequence[float], max_force_n: float,
                 max_torque_nm: float) -> tuple[str, str, float] | None:
    """Return (reason, field, value) of the first bad axis of a wrench row, or None."""
    for i, axis in enumerate(('Fx', 'Fy', 'Fz', 'Mx', 'My', 'Mz')):
        v = row[i]
        if not math.isfinite(v):
            return 'non_finite', axis, v
        if abs(v) > (max_force_n if i < 3 else max_torque_nm):
            return 'out_of_range', axis, v
    return None


def check_joint_arrays(names: Sequence[str], positions: Sequence[float],
                       velocities: Sequence[float], efforts: Sequence[float]
                       ) -> tuple[str, str, object] | None:
    """
    Return (reason, field, value) when a JointState's arrays do not fit its names, or None.

    Positions must have one value per name; velocities and efforts are empty or
    the same length; names are non-empty and unique; every value is finite.
    """
    if not names or any(not n for n in names):
        return 'bad_arrays', 'name', list(names)[:8]
    if len(set(names)) != len(names):
        return 'bad_arrays', 'name', sorted({n for n in names if list(names).count(n) > 1})
    for field, values, optional in (('position', positions, False),
                                    ('velocity', velocities, True),
                                    ('effort', efforts, True)):
        if len(values) != len(names) and not (optional and not values):
            return 'bad_arrays', field, f'{len(values)} values for {len(names)} names'
        for name, v in zip(names, values):
            if not math.isfinite(v):
                return 'non_finite', f'{field}[{name}]', v
    return None


def check_stamp(stamp: float, now_s: float, max_age_s: float | None) -> tuple[str, float] | None:
    """
    Return (reason, offset in s) when a stamp cannot be trusted at arrival, or None.

    A zero stamp (unstamped) or an unknown node time (``now_s`` 0: no /clock yet)
    is not judged here; the read ages such samples by their receipt time.
    """
    if stamp <= 0.0 or now_s <= 0.0:
        return None
    if (stamp >= WALL_CLOCK_MIN_S) != (now_s >= WALL_CLOCK_MIN_S):
        return 'other_clock', now_s - stamp
    if stamp - now_s > FUTURE_TOLERANCE_S:
        return 'future_stamp', stamp - now_s
    if max_age_s is not None and now_s - stamp > max_age_s:
        return 'old_stamp', now_s - stamp
    return None


def fault_error(topic: str, rejection: Rejection, rejections: Rejections) -> BackendError:
    """Return the SENSOR_FAULT error: the topic, what was wrong, how many were rejected."""
    counts = rejections.counts()
    total = sum(counts.values())
    what = t(f'sensor_reject_{rejection.reason}', field=rejection.field, value=rejection.value)
    return BackendError(
        'SENSOR_FAULT', t('sensor_fault', topic=topic, what=what, count=total),
        advice=t('sensor_fault_fix', topic=topic),
        details={'topic': topic, 'reason': rejection.reason, 'field': rejection.field,
                 'value': rejection.value, 'rejected': counts})
