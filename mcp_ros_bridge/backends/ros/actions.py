"""
Action goals and service calls driven from asyncio, with deadlines and cancellation.

One :class:`GoalRunner` serves MoveIt, the gripper and declared action
bindings alike: send, feedback to progress, result, timeout (cancels the
goal), an interrupt event (the force guard; cancels the goal), stop (cancels
every active goal) and task cancellation (cancels the goal, then re-raises).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
import threading
import time
from typing import Any

from action_msgs.msg import GoalStatus
import anyio
from mcp_ros_bridge.backends.port import BackendError, ProgressFn
from mcp_ros_bridge.backends.ros.runtime import bridge_future, call_soon, RosRuntime
from mcp_ros_bridge.messages import t
from rclpy.action.client import ActionClient

STATUS_NAMES = {GoalStatus.STATUS_SUCCEEDED: 'SUCCEEDED', GoalStatus.STATUS_CANCELED: 'CANCELED',
                GoalStatus.STATUS_ABORTED: 'ABORTED', GoalStatus.STATUS_UNKNOWN: 'UNKNOWN'}
CANCEL_WAIT_S = 0.5  # bounded wait for a cancel answer, so timeouts stay on time
UNWIND_WAIT_S = 5.0  # a cancelled call waits this long for its goal's cancel answer


class OrderedActionClient(ActionClient):
    """
    An ActionClient whose requests are registered before their responses are handled.

    rclpy's ``send_goal_async`` (likewise cancel and result requests) sends first and
    records the sequence number after; called from the asyncio thread while the
    executor thread spins, the response can be handled in between and is dropped as
    "unexpected", so the goal never answers. A lock around sending and registering,
    waited for before handling taken data, keeps the order.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """Create the client and its registration lock."""
        super().__init__(*args, **kwargs)  # type: ignore[no-untyped-call]
        self._registering = threading.Lock()

    def send_goal_async(self, *args: Any, **kwargs: Any) -> Any:
        """Send a goal and register it before its answer can be handled."""
        with self._registering:
            return super().send_goal_async(*args, **kwargs)  # type: ignore[no-untyped-call]

    def _cancel_goal_async(self, *args: Any, **kwargs: Any) -> Any:
        with self._registering:
            return super()._cancel_goal_async(  # type: ignore[no-untyped-call]
                *args, **kwargs)

    def _get_result_async(self, *args: Any, **kwargs: Any) -> Any:
        with self._registering:
            return super()._get_result_async(  # type: ignore[no-untyped-call]
                *args, **kwargs)

    async def execute(self, taken_data: Any) -> None:
        """Handle taken responses once every request sent before them is registered."""
        with self._registering:
            pass
        await super().execute(taken_data)  # type: ignore[no-untyped-call]


@dataclass
class ActionOutcome:
    """How one goal ended: ``SUCCEEDED``, ``ABORTED``, ``CANCELED`` or ``TIMED_OUT``."""

    status: str
    result: Any | None
    feedback_count: int
    duration_s: float
    interrupted: bool = False


async def _race(fut: asyncio.Future[Any], deadline: float, interrupt: asyncio.Event | None) -> str:
    """Wait for ``fut``, the deadline or the interrupt; return which came first."""
    loop = asyncio.get_running_loop()
    waiter = asyncio.ensure_future(interrupt.wait()) if interrupt is not None else None
    try:
        pending = {fut} | ({waiter} if waiter else set())
        await asyncio.wait(pending, timeout=max(0.0, deadline - loop.time()),
                           return_when=asyncio.FIRST_COMPLETED)
    finally:
        if waiter is not None:
            waiter.cancel()
    if fut.done():
        return 'done'
    return 'interrupt' if interrupt is not None and interrupt.is_set() else 'timeout'


async def wait_until_ready(is_ready: Callable[[], bool], what: str, timeout_s: float) -> None:
    """Poll ``is_ready`` without blocking the loop; raise UNAVAILABLE after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while not is_ready():
        if time.monotonic() >= deadline:
            raise BackendError('UNAVAILABLE',
                               t('ros_not_available', what=what, timeout_s=timeout_s),
                               advice=t('ros_not_available_fix', what=what),
                               details={'name': what})
        await asyncio.sleep(0.02)


class GoalRunner:
    """Runs action goals for one node and remembers the active ones for stop()."""

    def __init__(self, runtime: RosRuntime, server_timeout_s: float = 5.0) -> None:
        """Bind to a started runtime."""
        self._runtime = runtime
        self._clients: dict[tuple[str, Any], OrderedActionClient] = {}
        self._active: dict[int, Any] = {}  # goal handles are not hashable
        self._stops = 0
        self._sending = 0  # goals sent whose acceptance has not arrived yet
        self.server_timeout_s = server_timeout_s

    def client(self, action_cls: Any, name: str) -> OrderedActionClient:
        """Return the (cached) action client for ``name`` of type ``action_cls``."""
        key = (name, action_cls)
        if key not in self._clients:
            self._clients[key] = OrderedActionClient(
                self._runtime.node, action_cls, name,
                callback_group=self._runtime.clients_group)
        return self._clients[key]

    @property
    def stop_count(self) -> int:
        """Return how many times :meth:`cancel_all` ran (a stop between two goals shows)."""
        return self._stops

    @property
    def active_count(self) -> int:
        """Return how many accepted goals are still running."""
        return len(self._active)

    async def run(self, client: ActionClient, goal: Any, *, name: str, timeout_s: float,
                  interrupt: asyncio.Event | None = None,
                  describe: Callable[[Any], tuple[float, str] | None] | None = None,
                  progress: ProgressFn | None = None) -> ActionOutcome:
        """Send ``goal`` and wait for its result, honouring deadline, interrupt and cancel."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        deadline = start + timeout_s
        await wait_until_ready(client.server_is_ready, f'action {name}',
                               min(self.server_timeout_s, timeout_s))
        feedback: asyncio.Queue[Any] = asyncio.Queue()
        counter = [0]

        def on_feedback(msg: Any) -> None:
            counter[0] += 1
            feedback.put_nowait(msg.feedback)

        pump = asyncio.ensure_future(self._pump(feedback, describe, progress))
        stops_before = self._stops
        send = client.send_goal_async(
            goal, feedback_callback=lambda m: call_soon(loop, on_feedback, m))
        accepted = bridge_future(send, loop)
        try:
            self._sending += 1
            try:
                first = await _race(accepted, deadline, interrupt)
            except asyncio.CancelledError:
                await self._cancel_once_accepted(send, accepted)
                raise
            finally:
                self._sending -= 1
            if first != 'done':
                send.add_done_callback(_cancel_when_accepted)
                status = 'TIMED_OUT' if first == 'timeout' else 'CANCELED'
                return ActionOutcome(status, None, counter[0], loop.time() - start,
                                     interrupted=first == 'interrupt')
            handle = send.result()
            if not handle.accepted:
                raise BackendError('REJECTED', t('ros_goal_rejected', name=name),
                                   advice=t('ros_goal_rejected_fix'))
            return await self._follow(handle, name, deadline, interrupt, stops_before,
                                      counter, start)
        finally:
            pump.cancel()

    async def _follow(self, handle: Any, name: str, deadline: float,
                      interrupt: asyncio.Event | None, stops_before: int, counter: list[int],
                      start: float) -> ActionOutcome:
        loop = asyncio.get_running_loop()
        self._active[id(handle)] = handle
        try:
            result = bridge_future(handle.get_result_async(), loop)
            if self._stops != stops_before:
                await self._cancel(handle)
            try:
                how = await _race(result, deadline, interrupt)
            except asyncio.CancelledError:
                await self._cancel(handle, UNWIND_WAIT_S)
                raise
            if how != 'done':
                await self._cancel(handle)
                if how == 'interrupt':
                    await _race(result, loop.time() + CANCEL_WAIT_S, None)
            wrapped = result.result() if result.done() and not result.cancelled() else None
            if how == 'timeout':
                status = 'TIMED_OUT'
            else:
                status = STATUS_NAMES.get(wrapped.status, 'UNKNOWN') if wrapped else 'CANCELED'
            return ActionOutcome(status, wrapped.result if wrapped else None, counter[0],
                                 loop.time() - start, interrupted=how == 'interrupt')
        finally:
            self._active.pop(id(handle), None)

    async def _cancel_once_accepted(self, send: Any, accepted: asyncio.Future[Any]) -> None:
        """Wait (bounded) for a goal cancelled while being sent to be accepted; cancel it."""
        with anyio.move_on_after(UNWIND_WAIT_S, shield=True):
            await asyncio.wait({accepted})
        if accepted.done() and not accepted.cancelled() and accepted.exception() is None \
                and accepted.result().accepted:
            await self._cancel(accepted.result(), UNWIND_WAIT_S)
        else:
            send.add_done_callback(_cancel_when_accepted)

    async def _cancel(self, handle: Any, bound_s: float = CANCEL_WAIT_S) -> None:
        loop = asyncio.get_running_loop()
        response = bridge_future(handle.cancel_goal_async(), loop)
        # Shielded from anyio's cancellation (the SDK's), which asyncio.shield does not stop:
        # a cancelled call unwinds only once the server answered the cancel (or the bound).
        with anyio.move_on_after(bound_s, shield=True):
            await asyncio.wait({response})

    @staticmethod
    async def _pump(queue: asyncio.Queue[Any], describe: Any, progress: ProgressFn | None) -> None:
        while True:
            fb = await queue.get()
            report = describe(fb) if describe is not None else None
            if progress is not None and report is not None:
                await progress(*report)

    async def cancel_all(self) -> int:
        """Cancel every active goal (and any goal still being sent); return how many."""
        self._stops += 1
        handles = list(self._active.values())
        if handles:
            await asyncio.gather(*(self._cancel(h) for h in handles))
        return len(handles) + self._sending


def _cancel_when_accepted(send_future: Any) -> None:
    """Cancel a goal whose sender gave up before the server answered."""
    if send_future.cancelled() or send_future.exception() is not None:
        return
    handle = send_future.result()
    if handle is not None and handle.accepted:
        handle.cancel_goal_async()


async def call_service(client: Any, request: Any, *, name: str, timeout_s: float) -> Any:
    """Call a service with a deadline; raise UNAVAILABLE or TIMED_OUT as BackendError."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout_s
    await wait_until_ready(client.service_is_ready, f'service {name}', timeout_s)
    future = client.call_async(request)
    try:
        how = await _race(bridge_future(future, loop), deadline, None)
    except asyncio.CancelledError:
        client.remove_pending_request(future)
        raise
    if how != 'done':
        client.remove_pending_request(future)
        raise BackendError('TIMED_OUT', t('ros_service_timeout', name=name, timeout_s=timeout_s),
                           advice=t('ros_service_timeout_fix'),
                           details={'name': name, 'timeout_s': timeout_s})
    return future.result()
