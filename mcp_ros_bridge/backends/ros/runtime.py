"""
The rclpy side of the bridge: a private Context, one node, a background executor.

The node lives in its own ``rclpy.Context`` (so it never touches the global
one an embedding application may use) and is spun by a
``MultiThreadedExecutor`` on a daemon thread. rclpy futures are bridged to
asyncio with ``add_done_callback`` + ``loop.call_soon_threadsafe``; asyncio
code never awaits an rclpy future directly and never blocks on ROS.
"""

# Imports follow the google order that ament_flake8 checks.
# ruff: noqa: I001
from __future__ import annotations

import asyncio
import threading
from typing import Any

import rclpy
from rclpy.callback_groups import MutuallyExclusiveCallbackGroup, ReentrantCallbackGroup
from rclpy.context import Context
from rclpy.executors import ExternalShutdownException, MultiThreadedExecutor
from rclpy.node import Node
from rclpy.qos import (DurabilityPolicy, qos_profile_sensor_data, QoSProfile,
                       ReliabilityPolicy)


def qos_from_name(name: str | None, depth: int = 10) -> QoSProfile:
    """Return a QoS profile for ``sensor_data`` (default), ``reliable`` or ``transient_local``."""
    if name in (None, '', 'sensor_data'):
        return qos_profile_sensor_data
    if name == 'reliable':
        return QoSProfile(depth=depth, reliability=ReliabilityPolicy.RELIABLE)
    if name == 'transient_local':
        return QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                          durability=DurabilityPolicy.TRANSIENT_LOCAL)
    raise ValueError(f'unknown QoS {name!r}; use sensor_data, reliable or transient_local')


class RosRuntime:
    """One node in a private context, spun on a background thread."""

    def __init__(self, node_name: str, namespace: str = '',
                 ros_args: list[str] | None = None, num_threads: int = 2) -> None:
        """Remember the node settings; nothing starts before :meth:`start`."""
        self._node_name, self._namespace = node_name, namespace
        self._ros_args = list(ros_args or [])
        self._num_threads = num_threads
        self.context: Context | None = None
        self.node: Node | None = None
        self.executor: MultiThreadedExecutor | None = None
        self._thread: threading.Thread | None = None
        self.clients_group = ReentrantCallbackGroup()
        self.sensor_group = MutuallyExclusiveCallbackGroup()

    def start(self) -> Node:
        """Initialise the context, create the node and start spinning; return the node."""
        self.context = Context()
        args = ['--ros-args', *self._ros_args] if self._ros_args else None
        rclpy.init(args=args, context=self.context)
        self.node = Node(self._node_name, namespace=self._namespace, context=self.context)
        self.executor = MultiThreadedExecutor(num_threads=self._num_threads,
                                              context=self.context)
        self.executor.add_node(self.node)
        self._thread = threading.Thread(target=self._spin, name='ros-executor', daemon=True)
        self._thread.start()
        return self.node

    def _spin(self) -> None:
        try:
            self.executor.spin()
        except (ExternalShutdownException, KeyboardInterrupt):
            pass

    def now_s(self) -> float:
        """Return the node clock's time (ROS time) in seconds."""
        return self.node.get_clock().now().nanoseconds * 1e-9

    def shutdown(self) -> None:
        """Destroy the node, stop the executor, join its thread, shut the context down."""
        if self.context is None:
            return
        if self.node is not None:
            self.executor.remove_node(self.node)
            self.node.destroy_node()
            self.node = None
        self.executor.shutdown(timeout_sec=2.0)
        if self._thread is not None:
            self._thread.join(timeout=5.0)
        self.context.try_shutdown()
        self.context = None


def bridge_future(ros_future: Any, loop: asyncio.AbstractEventLoop) -> asyncio.Future:
    """
    Return an asyncio future that completes with ``ros_future``.

    The rclpy future's done callback runs on the executor thread and hands the
    outcome to the loop with ``call_soon_threadsafe``.
    """
    aio: asyncio.Future = loop.create_future()

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
