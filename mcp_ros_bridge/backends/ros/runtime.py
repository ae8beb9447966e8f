"""
The rclpy side of the bridge: a private Context, one node, a background executor.

The node lives in its own ``rclpy.Context`` (so it never touches the global
one an embedding application may use) and is spun by a
``MultiThreadedExecutor`` on a daemon thread. rclpy futures are bridged to
asyncio with ``add_done_callback`` + ``loop.call_soon_threadsafe``; asyncio
code never awaits an rclpy future directly and never blocks on ROS.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
from typing import Any

from mcp_ros_bridge.backends.port import BackendError
from mcp_ros_bridge.messages import t
import rclpy
from rclpy.callback_groups import ReentrantCallbackGroup
from rclpy.context import Context
from rclpy.executors import ExternalShutdownException
from rclpy.executors import MultiThreadedExecutor, SingleThreadedExecutor
from rclpy.node import Node
from rclpy.qos import (DurabilityPolicy, qos_profile_sensor_data, QoSProfile,
                       ReliabilityPolicy)
from rclpy.signals import SignalHandlerOptions

SPIN_WAIT_S = 0.5  # longest wait of one spin step; shutdown wakes it at once


def qos_from_name(name: str | None, depth: int = 10,
                  sensor_depth: int | None = None) -> QoSProfile:
    """
    Return a QoS profile for ``sensor_data`` (default), ``reliable`` or ``transient_local``.

    ``sensor_depth`` overrides the history depth of ``sensor_data`` (5 in rclpy).
    """
    if name in (None, '', 'sensor_data'):
        if sensor_depth is None:
            return qos_profile_sensor_data
        return QoSProfile(depth=sensor_depth, reliability=qos_profile_sensor_data.reliability,
                          durability=qos_profile_sensor_data.durability)
    if name == 'reliable':
        return QoSProfile(depth=depth, reliability=ReliabilityPolicy.RELIABLE)
    if name == 'transient_local':
        return QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                          durability=DurabilityPolicy.TRANSIENT_LOCAL)
    raise ValueError(f'unknown QoS {name!r}; use sensor_data, reliable or transient_local')


class RosRuntime:
    """
    One node in a private context, spun on a background thread.

    ``executor='single'`` (default) uses a ``SingleThreadedExecutor``, about
    300-350 us of CPU per sensor message (53 % of a core at 1 kHz wrench +
    500 Hz joint states in bench/bench_ros_ingest.py); ``'multi'`` (a
    ``MultiThreadedExecutor``) cannot keep up at all (54 Hz of 1000 received).
    ``'events'`` uses rclpy's C++ ``rclpy.experimental.EventsExecutor``, spun in
    bounded steps (see :func:`_spin_events`): about 100 us per message (15 %)
    with raw subscriptions, every sample received. Action and service clients
    use a ``ReentrantCallbackGroup`` in every case.
    """

    def __init__(self, node_name: str, namespace: str = '',
                 ros_args: list[str] | None = None, executor: str = 'single',
                 num_threads: int = 2) -> None:
        """Remember the node settings; nothing starts before :meth:`start`."""
        if executor not in ('single', 'multi', 'events'):
            raise ValueError(f'executor must be single, multi or events, not {executor!r}')
        self._node_name, self._namespace = node_name, namespace
        self._ros_args = list(ros_args or [])
        self._kind, self._num_threads = executor, num_threads
        self.context: Context | None = None
        self.node: Node | None = None
        self.executor: Any = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._steps: list[Any] = []  # the future that ends the current events-executor step
        self.clients_group = ReentrantCallbackGroup()

    @property
    def sensor_node(self) -> Node:
        """Return the node that carries sensor subscriptions (the same node)."""
        return self.running_node

    @property
    def running_node(self) -> Node:
        """Return the node; raise UNAVAILABLE once it is shut down (or before start)."""
        if self.node is None:
            raise BackendError('UNAVAILABLE', t('ros_node_not_running'))
        return self.node

    def start(self) -> Node:
        """Initialise the context, create the node and start spinning; return the node."""
        self.context = Context()
        args = ['--ros-args', *self._ros_args] if self._ros_args else None
        # No rclpy signal handlers: the embedding asyncio application owns SIGINT/SIGTERM
        # and closes the backend, which shuts this context down in the right order.
        rclpy.init(args=args, context=self.context,
                   signal_handler_options=SignalHandlerOptions.NO)
        self.node = Node(self._node_name, namespace=self._namespace, context=self.context)
        spin: Any = _spin_until_stopped
        if self._kind == 'multi':
            self.executor = MultiThreadedExecutor(num_threads=self._num_threads,
                                                  context=self.context)
        elif self._kind == 'events':
            from rclpy.experimental import EventsExecutor  # type: ignore[attr-defined]
            self.executor, spin = EventsExecutor(context=self.context), _spin_events
        else:
            self.executor = SingleThreadedExecutor(context=self.context)
        self.executor.add_node(self.node)
        self._stop.clear()
        # In the starter's context: texts made in callbacks use the served language.
        self._thread = threading.Thread(
            target=contextvars.copy_context().run,
            args=(spin, self.executor, self._stop, self._steps), name='ros-executor', daemon=True)
        self._thread.start()
        return self.node

    def now_s(self) -> float:
        """
        Return the node clock's time (ROS time) in seconds.

        Under ``use_sim_time`` the clock reads zero until ``/clock`` first
        arrives; that raises CLOCK_MISMATCH instead of serving unaged samples.
        """
        clock = self.running_node.get_clock()
        now = clock.now().nanoseconds
        if now == 0 and getattr(clock, 'ros_time_is_active', False):
            from mcp_ros_bridge.backends.ros.clock import no_clock_error
            raise no_clock_error()
        return float(now) * 1e-9

    def shutdown(self) -> None:
        """Stop spinning, then shut the executor down, destroy the node, shut the context down."""
        if self.context is None or self.node is None or self._thread is None:
            return
        self.stop_spinning()
        self.executor.remove_node(self.node)
        self.executor.shutdown(timeout_sec=2.0)
        self.node.destroy_node()
        self.node = None
        self.context.try_shutdown()
        self.context = None

    def stop_spinning(self) -> None:
        """Stop the executor's thread and wait for every callback it started to finish."""
        if self._thread is None:
            return
        self._stop.set()
        if self._kind == 'events':
            for step in list(self._steps):
                if not step.done():
                    step.set_result(None)  # end the current bounded spin now
        else:
            self.executor.wake()  # ends the current bounded wait now
        self._thread.join(timeout=5.0)
        # Executor.shutdown() destroys the guard condition that a callback still running
        # triggers when it ends, without waiting for it (rclpy 7): every callback, inline
        # or in the thread pool, finishes before the executor is shut down.
        pool = getattr(self.executor, '_executor', None)
        if pool is not None:
            pool.shutdown(wait=True)


def _spin_until_stopped(executor: Any, stop: threading.Event, steps: list[Any]) -> None:
    """Spin in bounded waits until ``stop`` is set; shutdown wakes the current wait."""
    try:
        while not stop.is_set() and executor.context.ok():
            executor.spin_once(timeout_sec=SPIN_WAIT_S)
    except (ExternalShutdownException, KeyboardInterrupt):
        pass


def _spin_events(executor: Any, stop: threading.Event, steps: list[Any]) -> None:
    """
    Spin an ``EventsExecutor`` in bounded steps until ``stop`` is set.

    Its unbounded ``spin()`` (rclpy 7.1.6) misbehaves on a background thread:
    no callback ever runs, and a later ``remove_node`` blocks for ever on a
    mutex inside ``_rclpy_pybind11`` that the DDS listener thread also waits
    for. Bounded spins work (every message arrives, shutdown is clean).
    ``spin_until_future_complete`` with a timeout runs every ready callback in
    C++ without coming back to Python (``spin_once`` returns after each one);
    a fresh future per step, because each call adds a done callback to it.
    :meth:`RosRuntime.shutdown` completes the current future to end the step.
    """
    from rclpy.task import Future
    while not stop.is_set() and executor.context.ok():
        step = Future()
        steps[:] = [step]
        try:
            executor.spin_until_future_complete(step, timeout_sec=0.5)
        except (ExternalShutdownException, KeyboardInterrupt):
            return


def bridge_future(ros_future: Any, loop: asyncio.AbstractEventLoop) -> asyncio.Future[Any]:
    """
    Return an asyncio future that completes with ``ros_future``.

    The rclpy future's done callback runs on the executor thread and hands the
    outcome to the loop with ``call_soon_threadsafe``.
    """
    aio: asyncio.Future[Any] = loop.create_future()

    def transfer(done: Any) -> None:
        if aio.done():
            return
        if done.cancelled():
            aio.cancel()
        elif done.exception() is not None:
            aio.set_exception(done.exception())
        else:
            aio.set_result(done.result())

    def on_done(done: Any) -> None:
        try:
            loop.call_soon_threadsafe(transfer, done)
        except RuntimeError:
            pass  # the loop is closed: nobody waits for this result any more

    ros_future.add_done_callback(on_done)
    return aio


def call_soon(loop: asyncio.AbstractEventLoop, fn: Any, *args: Any) -> None:
    """Schedule ``fn(*args)`` on ``loop`` from any thread; ignore a closed loop."""
    try:
        loop.call_soon_threadsafe(fn, *args)
    except RuntimeError:
        pass
