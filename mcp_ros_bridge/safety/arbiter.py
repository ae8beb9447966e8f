"""
One motion at a time: a second motion is refused at once; stop always preempts.

A held motion runs inside its own anyio cancel scope. :meth:`MotionArbiter.preempt`
(stop_arm, or the motion's requester vanishing) cancels that scope in whatever
phase the motion is in (queued for a worker thread, planning, executing), and
bumps the stop epoch so that a call admitted before the stop never starts. The
holder stops the robot before it lets go, so the arm is free only once stopped; the
call pipeline lets a new motion wait for a motion that is already stopping.
:func:`stopping_once_cancelled` marks a motion as stopping the moment its caller
is cancelled, while the cancellation is still unwinding through the backend.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
import time
from typing import Any

import anyio
from mcp_ros_bridge.backends.port import Pose
from mcp_ros_bridge.messages import t


@dataclass
class RunningMotion:
    """The motion that holds the arm."""

    tool: str
    started: float
    task: asyncio.Task[Any] | None
    session: object = None
    request: object = None
    scope: anyio.CancelScope = field(default_factory=anyio.CancelScope)
    preempted_by: str = ''
    ran_s: float | None = None  # from the start until the arm was still after a stop
    stopped_at: Pose | None = None  # end-effector pose once stopped, when it could be read


class BusyError(Exception):
    """Raised when a motion is requested while another one runs."""

    def __init__(self, running: RunningMotion) -> None:
        """Name the running tool and how long it has run."""
        self.running = running
        age = time.monotonic() - running.started
        super().__init__(t('busy', tool=running.tool, age=f'{age:.1f}'))


class StoppedBeforeStart(Exception):
    """A stop was requested after the call arrived and before its motion began."""


class OperatorHold(Exception):
    """A person stopped the arm in the operator console and holds it; no motion starts."""

    def __init__(self, since: float) -> None:
        """Remember when (monotonic) the hold began."""
        super().__init__('OPERATOR_HOLD')
        self.since = since


class MotionArbiter:
    """Grants the arm to one motion call at a time."""

    def __init__(self) -> None:
        """Start idle."""
        self.running: RunningMotion | None = None
        self.stop_epoch = 0
        self.held_since: float | None = None  # the operator's hold: only a person lifts it
        self._idle = asyncio.Event()
        self._idle.set()

    @contextmanager
    def hold(self, tool: str, session: object = None, request: object = None,
             epoch: int | None = None) -> Iterator[RunningMotion]:
        """
        Hold the arm for the current task, or raise at once.

        Raises :class:`OperatorHold` while a person holds the arm,
        :class:`BusyError` while another motion holds it, and
        :class:`StoppedBeforeStart` when a stop came after ``epoch`` was read.
        The body runs in the motion's cancel scope; a preempted body ends
        quietly with ``preempted_by`` set.
        """
        if self.held_since is not None:
            raise OperatorHold(self.held_since)
        if self.running is not None:
            raise BusyError(self.running)
        if epoch is not None and epoch != self.stop_epoch:
            raise StoppedBeforeStart()
        try:
            task = asyncio.current_task()
        except RuntimeError:
            task = None
        motion = self.running = RunningMotion(tool, time.monotonic(), task, session, request)
        self._idle.clear()
        try:
            with motion.scope:
                yield motion
        finally:
            self.running = None
            self._idle.set()

    def preempt(self, reason: str,
                started_by: Callable[[object], bool] | None = None) -> bool:
        """
        Cancel the held motion; with ``started_by``, only if it accepts the motion's request.

        Without ``started_by`` this is a stop: it also refuses every call
        admitted before it. Return True when a motion is being cancelled.
        """
        if started_by is None:
            self.stop_epoch += 1
        motion = self.running
        if motion is None or (started_by is not None and not started_by(motion.request)):
            return False
        if not motion.preempted_by:
            motion.preempted_by = reason
        motion.scope.cancel()
        return True

    async def wait_idle(self, timeout: float) -> bool:
        """Wait until no motion runs; return False on timeout."""
        if self._idle.is_set():
            return True  # wait_for(..., 0) would time out even on a set event
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
            return True
        except asyncio.TimeoutError:
            return False


@asynccontextmanager
async def stopping_once_cancelled(motion: RunningMotion, reason: str) -> AsyncIterator[None]:
    """
    Set ``motion.preempted_by`` to ``reason`` as soon as the body's caller is cancelled.

    The body unwinds a cancellation only after the backend's cleanup (cancelling a
    goal, stopping the arm); a watcher task in the same cancel scope sees the
    cancellation at once, so a motion requested meanwhile waits instead of BUSY.
    """
    async def watch(done: anyio.CancelScope) -> None:
        try:
            await anyio.sleep_forever()
        finally:
            if not done.cancel_called and not motion.preempted_by:
                motion.preempted_by = reason

    async with anyio.create_task_group() as tg:
        tg.start_soon(watch, tg.cancel_scope)
        try:
            yield
        finally:
            tg.cancel_scope.cancel()
