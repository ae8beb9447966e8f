"""One motion at a time: a second motion is refused at once; stop always preempts."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
import time


@dataclass
class RunningMotion:
    """The motion that holds the arm."""

    tool: str
    started: float
    task: asyncio.Task | None
    session: int | None


class BusyError(Exception):
    """Raised when a motion is requested while another one runs."""

    def __init__(self, running: RunningMotion) -> None:
        """Name the running tool and how long it has run."""
        self.running = running
        age = time.monotonic() - running.started
        super().__init__(
            f'the arm is busy with {running.tool} (running for {age:.1f} s); only one motion '
            'runs at a time. Wait for it to finish and call again, or call stop_arm to '
            'cancel it first. Read-only tools keep working meanwhile.')


class MotionArbiter:
    """Grants the arm to one motion call at a time."""

    def __init__(self) -> None:
        """Start idle."""
        self.running: RunningMotion | None = None
        self._idle = asyncio.Event()
        self._idle.set()

    @contextmanager
    def hold(self, tool: str, session: int | None = None) -> Iterator[RunningMotion]:
        """Hold the arm for the current task, or raise :class:`BusyError` immediately."""
        if self.running is not None:
            raise BusyError(self.running)
        try:
            task = asyncio.current_task()
        except RuntimeError:
            task = None
        self.running = RunningMotion(tool, time.monotonic(), task, session)
        self._idle.clear()
        try:
            yield self.running
        finally:
            self.running = None
            self._idle.set()

    async def wait_idle(self, timeout: float) -> bool:
        """Wait until no motion runs; return False on timeout."""
        if self._idle.is_set():
            return True  # wait_for(..., 0) would time out even on a set event
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
            return True
        except asyncio.TimeoutError:
            return False
