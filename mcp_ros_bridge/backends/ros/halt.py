"""
Stop that stops: what actually halts a MoveIt execution, confirmed from joint states.

Cancelling an ExecuteTrajectory goal is accepted and ignored (moveit/moveit2#2808,
Humble and Jazzy); move_group stops any execution on ``std_msgs/String "stop"``
on ``/trajectory_execution_event`` (trajectory_execution_manager.cpp), and a
cancelled MoveGroup goal stops too. :class:`Halter` sends the event (again while
the arm still moves, in case the first one raced discovery) and reports when
every arm joint is still.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
import contextlib
import time
from typing import Any

from mcp_ros_bridge.backends.port import BackendError, JointStates, STILL_RAD_S
from mcp_ros_bridge.messages import t

RESEND_S = 0.25        # send "stop" again while the arm keeps moving
POLL_S = 0.01


def max_speed(before: JointStates, after: JointStates) -> float:
    """
    Return the fastest joint speed (rad/s) between two samples.

    The larger of the reported velocities and the position change over the
    stamps: drivers that publish no velocity read as 0 there.
    """
    dt = after.stamp - before.stamp
    if dt <= 0.0:
        return float('inf')
    moved = max((abs(b - a) / dt for a, b in zip(before.positions, after.positions)),
                default=0.0)
    return max(moved, max((abs(v) for v in after.velocities), default=0.0))


class Halter:
    """Publishes the execution "stop" event and waits until the arm is still."""

    def __init__(self, node: Any, topic: str) -> None:
        """Create the publisher on ``node`` (reliable, as move_group subscribes)."""
        from std_msgs.msg import String
        self.topic = topic
        self._pub = node.create_publisher(String, topic, 10)
        self._msg = String(data='stop')

    def send(self) -> None:
        """Publish "stop" once (thread-safe)."""
        self._pub.publish(self._msg)

    async def until_still(self, read: Callable[[], Awaitable[JointStates]],
                          timeout_s: float) -> tuple[bool, float, str]:
        """
        Return (still, seconds waited, why not) after re-sending "stop" while it moves.

        Joint states that are missing or stale are waited for as long as a moving arm
        is: late samples (a loaded machine, a driver that just started) confirm the
        stop when they come; only after ``timeout_s`` without them is it unconfirmed.
        """
        start = last_send = time.monotonic()
        before: JointStates | None = None
        why = t('halt_no_joint_states')
        while time.monotonic() - start < timeout_s:
            try:
                now = await read()
            except BackendError as err:
                why = err.message
            else:
                if before is not None and now.stamp > before.stamp:
                    speed = max_speed(before, now)
                    if speed < STILL_RAD_S:
                        return True, time.monotonic() - start, ''
                    why = t('halt_still_moving', speed=speed)
                if before is None or now.stamp > before.stamp:
                    before = now
            if time.monotonic() - last_send >= RESEND_S:
                self.send()
                last_send = time.monotonic()
            await asyncio.sleep(POLL_S)
        return False, time.monotonic() - start, why


async def halt_until(halt: Callable[[], Awaitable[dict[str, Any]]],
                     ended: asyncio.Event) -> dict[str, Any]:
    """
    Halt an execution MoveIt accepted after a stop, and again until its goal has ended.

    MoveIt publishes MONITOR before it starts executing and drops a "stop" that
    arrives in between (execute_trajectory_action_capability.cpp, then
    trajectory_execution_manager.cpp ``stopExecution``: running executions only);
    an arm whose controller has not started yet looks still, so one halt can be
    lost. Returns the last halt's report (after the goal ended: still or not).
    """
    halted = await halt()
    while not ended.is_set():
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(ended.wait(), RESEND_S)
        halted = await halt()
    return halted
