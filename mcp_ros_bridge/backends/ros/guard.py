"""
The force guard: watches the wrench stream while a motion runs, and fails closed.

The check runs in the wrench subscription callback (executor or drain thread),
so a force above the limit is seen at the sensor rate, not at a polling rate;
it sets an asyncio event through ``call_soon_threadsafe``. A sample the buffer
rejects (NaN, beyond the rated range, a bad stamp) trips the guard at once, as
a contact would: a guard that cannot see the force must not let the arm move.
A watchdog task also trips it when the wrench stream goes stale.
"""

from __future__ import annotations

import asyncio
import time
from typing import TypeVar

from mcp_ros_bridge.backends.port import MotionResult, MotionStatus
from mcp_ros_bridge.backends.ros.runtime import call_soon
from mcp_ros_bridge.backends.ros.sensors import WrenchBuffer
from mcp_ros_bridge.backends.sensor_checks import Rejection
from mcp_ros_bridge.messages import t

_Guard = TypeVar('_Guard', bound='ForceGuard')


class ForceGuard:
    """Trips when ``|F|`` exceeds ``limit_n``, a sample is invalid or the stream goes stale."""

    def __init__(self, buffer: WrenchBuffer | None, limit_n: float, max_age_s: float,
                 check_period_s: float = 0.05) -> None:
        """Create a guard over ``buffer`` (None: no force sensing, never trips)."""
        self._buffer = buffer
        self.limit_n = float(limit_n)
        self.max_age_s = max_age_s
        self._period = check_period_s
        self.peak_n = 0.0
        self.contact = False
        self.stale = False
        self.fault: Rejection | None = None  # the invalid sample that tripped the guard
        self.event = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._watchdog: asyncio.Task[None] | None = None

    def _watch(self, magnitude: float) -> None:
        self.peak_n = max(self.peak_n, magnitude)
        if magnitude > self.limit_n and not self.contact and self._loop is not None:
            self.contact = True
            call_soon(self._loop, self.event.set)

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
        """Start watching."""
        self._loop = asyncio.get_running_loop()
        if self._buffer is not None:
            self._buffer.watcher = self._watch
            self._buffer.fault_watcher = self._watch_faults
            self._watchdog = asyncio.ensure_future(self._watch_freshness(self._buffer))
        return self

    async def __aexit__(self, *exc: object) -> None:
        """Stop watching."""
        if self._buffer is not None:
            self._buffer.watcher = None
            self._buffer.fault_watcher = None
        if self._watchdog is not None:
            self._watchdog.cancel()
