"""
Running world tasks from asyncio: progress relay, cancellation, stop, timers.

Progress is sent from the stepping thread with ``call_soon_threadsafe`` into
a queue and awaited on the loop. Cancelling the awaiting coroutine halts the
task, waits until the arm holds still, and then re-raises the cancellation.
"""

from __future__ import annotations

import asyncio
from typing import Any

import anyio

from mcp_ros_bridge.backends.port import BackendError, ProgressFn
from mcp_ros_bridge.messages import t

from .motion import ArmRun
from .world import R, Task, World


HALT_WAIT_S = 5.0


class Clock(Task[bool]):
    """Let simulation time pass (the arm and gripper keep holding)."""

    channel = 'clock'

    def __init__(self, seconds: float) -> None:
        """Finish after ``seconds`` of simulation time."""
        super().__init__()
        self.seconds = seconds

    def start(self, world: World) -> None:
        """Remember when the wait began."""
        self.until = world.time + self.seconds

    def post(self, world: World) -> bool | None:
        """Finish once the time has come."""
        return True if world.time >= self.until or self.halt_reason else None


class Runner:
    """Mixin of :class:`SimBackend`: submit tasks and wait for them on the loop."""

    world: World

    def _idle_arm(self) -> None:
        if self.world.busy('arm') is not None:
            raise BackendError('REJECTED', t('sim_arm_busy'), advice=t('sim_arm_busy_fix'))

    async def _execute(self, task: Task[R], progress: ProgressFn | None) -> R:
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[float, str]] = asyncio.Queue()
        if progress is not None and hasattr(task, 'notify'):
            task.notify = lambda f, m: loop.call_soon_threadsafe(queue.put_nowait, (f, m))
        try:
            fut = asyncio.wrap_future(self.world.submit(task))
        except RuntimeError as exc:
            raise BackendError('REJECTED', str(exc)) from exc
        getter: asyncio.Future[tuple[float, str]] | None = None
        try:
            while True:
                getter = asyncio.ensure_future(queue.get())
                waiting: set[asyncio.Future[Any]] = {fut, getter}
                done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
                if getter in done:
                    if progress is not None:
                        await progress(*getter.result())
                    continue
                getter.cancel()
                while progress is not None and not queue.empty():
                    await progress(*queue.get_nowait())
                try:
                    return fut.result()
                except RuntimeError as exc:  # the world closed under the call
                    raise BackendError('UNAVAILABLE', str(exc)) from exc
        except asyncio.CancelledError:
            task.halt(t('sim_halt_cancelled'))
            # anyio re-delivers its cancellation at every await: shield the (bounded) wait
            # so the caller unwinds only once the arm holds still.
            with anyio.move_on_after(HALT_WAIT_S, shield=True):
                await asyncio.wait({fut})
            raise
        finally:
            if getter is not None:
                getter.cancel()

    async def advance(self, seconds: float) -> None:
        """Let ``seconds`` of simulation time pass (fast in fast mode)."""
        await self._execute(Clock(seconds), None)

    async def _halt_all(self, reason: str) -> tuple[bool, ArmRun | None]:
        """Halt every running task; return (anything was moving, arm result)."""
        tasks = [t for t in list(self.world.tasks.values()) if t.channel != 'clock']
        for task in tasks:
            task.halt(reason)
        arm = None
        for task in tasks:
            try:
                raw = await asyncio.wrap_future(task.future)
            except Exception:  # noqa: BLE001 - handed to the caller
                raw = None
            if isinstance(raw, ArmRun):
                arm = raw
        return bool(tasks), arm
