"""
The force guard: watches the wrench stream while a motion runs.

The check runs in the wrench subscription callback (executor thread), so a
force above the limit is seen at the sensor rate, not at a polling rate; it
sets an asyncio event through ``call_soon_threadsafe``. A watchdog task also
trips the guard when the wrench stream goes stale during the motion.
"""

from __future__ import annotations

import asyncio
import time
from typing import TypeVar

from mcp_ros_bridge.backends.ros.runtime import call_soon
from mcp_ros_bridge.backends.ros.sensors import WrenchBuffer

_Guard = TypeVar('_Guard', bound='ForceGuard')


class ForceGuard:
    """Trips when ``|F|`` exceeds ``limit_n`` or the wrench stream goes stale."""

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
        self.event = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._watchdog: asyncio.Task[None] | None = None

    def _watch(self, magnitude: float) -> None:
        self.peak_n = max(self.peak_n, magnitude)
        if magnitude > self.limit_n and not self.contact and self._loop is not None:
            self.contact = True
            call_soon(self._loop, self.event.set)

    async def _watch_freshness(self, buffer: WrenchBuffer) -> None:
        while not self.event.is_set():
            await asyncio.sleep(self._period)
            newest = buffer.newest()
            if newest is None or time.monotonic() - newest[1] > self.max_age_s:
                self.stale = True
                self.event.set()

    async def __aenter__(self: _Guard) -> _Guard:  # noqa: PYI019 - Self needs 3.11
        """Start watching."""
        self._loop = asyncio.get_running_loop()
        if self._buffer is not None:
            self._buffer.watcher = self._watch
            self._watchdog = asyncio.ensure_future(self._watch_freshness(self._buffer))
        return self

    async def __aexit__(self, *exc: object) -> None:
        """Stop watching."""
        if self._buffer is not None:
            self._buffer.watcher = None
        if self._watchdog is not None:
            self._watchdog.cancel()
