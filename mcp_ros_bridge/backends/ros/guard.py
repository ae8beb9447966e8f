"""
The force guard: watches the wrench stream while a motion runs, and fails closed.

The check runs in the wrench subscription callback (executor or drain thread),
so a force above the limit is seen at the sensor rate, not at a polling rate;
it sets an asyncio event through ``call_soon_threadsafe``. It limits the contact
force: the reading less the static load of the gripper and what it holds
(:mod:`.static_load`, refreshed every ``refresh_s`` as the arm turns); without
the sensor's orientation it limits the raw reading (stricter, said in the
result). The raw force is always capped at the sensor's rating. A sample the buffer
rejects (NaN, beyond the rated range, a bad stamp) trips the guard at once, as
a contact would: a guard that cannot see the force must not let the arm move.
A watchdog task also trips it when the wrench stream goes stale.
"""

from __future__ import annotations

import asyncio
import math
import time
from typing import Any, TypeVar

from mcp_ros_bridge.backends.port import BackendError, MotionResult, MotionStatus
from mcp_ros_bridge.backends.ros.runtime import call_soon
from mcp_ros_bridge.backends.ros.sensors import Row, WrenchBuffer
from mcp_ros_bridge.backends.ros.static_load import StaticLoad
from mcp_ros_bridge.backends.sensor_checks import Rejection
from mcp_ros_bridge.messages import t

_Guard = TypeVar('_Guard', bound='ForceGuard')


class ForceGuard:
    """Trips when the contact force exceeds ``limit_n``, a sample is invalid or data goes stale."""

    def __init__(self, buffer: WrenchBuffer | None, limit_n: float, max_age_s: float,
                 check_period_s: float = 0.05, *, rated_n: float = math.inf,
                 load: StaticLoad | None = None, refresh_s: float = 0.1) -> None:
        """Create a guard over ``buffer`` (None: no force sensing, never trips)."""
        self._buffer = buffer
        self.limit_n = float(limit_n)
        self.rated_n = float(rated_n)
        self.max_age_s = max_age_s
        self._period, self._refresh_s = check_period_s, refresh_s
        self._load = load
        self._expected: tuple[float, float, float] | None = None  # static load (N), if known
        self.compensation: dict[str, Any] = {}
        self.peak_n = 0.0
        self.trip_n = 0.0  # the force of the sample that tripped the guard
        self.contact = False
        self.over_rating = False
        self.stale = False
        self.fault: Rejection | None = None  # the invalid sample that tripped the guard
        self.event = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: list[asyncio.Task[None]] = []

    def _watch(self, row: Row) -> None:
        raw = math.sqrt(row[0] * row[0] + row[1] * row[1] + row[2] * row[2])
        e = self._expected
        force = raw if e is None else math.sqrt(
            (row[0] - e[0]) ** 2 + (row[1] - e[1]) ** 2 + (row[2] - e[2]) ** 2)
        self.peak_n = max(self.peak_n, force)
        over = raw > self.rated_n
        if (force > self.limit_n or over) and not self.contact and self._loop is not None:
            self.contact, self.over_rating, self.trip_n = True, over, force
            call_soon(self._loop, self.event.set)

    async def _learn_load(self, load: StaticLoad) -> bool:
        """Set the expected static load; False (and why, once) when it cannot be known."""
        try:
            f = await load.force()
        except BackendError as exc:
            if self._expected is None:
                self.compensation = {'force_compensation': 'none',
                                     'force_compensation_problem': exc.message}
            return False
        self._expected = (float(f[0]), float(f[1]), float(f[2]))
        self.compensation = {'force_compensation': 'gripper_gravity',
                             'held_mass_kg': round(load.held_kg or 0.0, 3)}
        return True

    async def _follow_load(self, load: StaticLoad) -> None:
        """Refresh the expected load as the arm turns; a failed refresh keeps the last."""
        while not self.event.is_set():
            await asyncio.sleep(self._refresh_s)
            await self._learn_load(load)

    def _watch_faults(self, rejection: Rejection) -> None:
        if self._loop is None or self.event.is_set() or self.contact or self.stale or self.fault:
            return
        if rejection.reason == 'old_stamp':
            self.stale = True
        else:
            self.fault = rejection
        call_soon(self._loop, self.event.set)

    async def _watch_freshness(self, buffer: WrenchBuffer) -> None:
        while not self.event.is_set():
            await asyncio.sleep(self._period)
            newest = buffer.newest()
            if newest is None or time.monotonic() - newest[1] > self.max_age_s:
                self.stale = True
                self.event.set()

    def failure(self, took: float) -> MotionResult | None:
        """Return the FAILED result of a guard tripped by its sensor (not contact), or None."""
        topic = '' if self._buffer is None else self._buffer.topic
        if self.fault is not None:
            what = t(f'sensor_reject_{self.fault.reason}', field=self.fault.field,
                     value=self.fault.value)
            return MotionResult(MotionStatus.FAILED,
                                t('guard_sensor_fault', topic=topic, what=what), duration_s=took,
                                details={'code': 'SENSOR_FAULT', 'topic': topic,
                                         'reason': self.fault.reason, 'field': self.fault.field,
                                         'value': self.fault.value})
        if self.stale:
            return MotionResult(MotionStatus.FAILED, t('moveit_wrench_stale'), duration_s=took,
                                details={'code': 'SENSOR_STALE', 'topic': topic})
        return None

    async def __aenter__(self: _Guard) -> _Guard:  # noqa: PYI019 - Self needs 3.11
        """Learn the static load (when there is one), then start watching."""
        self._loop = asyncio.get_running_loop()
        if self._buffer is not None:
            if self._load is not None and await self._learn_load(self._load):
                self._tasks.append(asyncio.ensure_future(self._follow_load(self._load)))
            self._buffer.watcher = self._watch
            self._buffer.fault_watcher = self._watch_faults
            self._tasks.append(asyncio.ensure_future(self._watch_freshness(self._buffer)))
        return self

    async def __aexit__(self, *exc: object) -> None:
        """Stop watching."""
        if self._buffer is not None:
            self._buffer.watcher = None
            self._buffer.fault_watcher = None
        for task in self._tasks:
            task.cancel()
