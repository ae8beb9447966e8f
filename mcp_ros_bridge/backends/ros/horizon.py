"""
Bounded hand-over: a checked trajectory cut into segments of at most H seconds each.

MoveIt and the controller run whatever trajectory they were handed to its end,
whether or not the bridge that sent it is still alive: a killed bridge cancels
nothing. Handing over at most ``ros.execution_horizon_s`` of motion at a time
bounds how long the arm can move on its own.

MoveIt 2 refuses a new ExecuteTrajectory while one runs
(trajectory_execution_manager.cpp ``push``: "Cannot push a new trajectory while
another is being executed", answered CONTROL_FAILED) and reports an execution
finished only once the robot stopped (``waitForRobotToStop``). So segments
cannot be chained in motion: each starts and ends at rest and the next one is
sent when the previous one has finished. Inside a segment, time is warped
(speed up, cruise, slow down) so that no joint ever moves faster than in the
checked plan; the positions are the plan's own path. Pure; no ROS import.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from math import ceil
from typing import Any

from mcp_ros_bridge.backends.ros.cartesian import _duration, trajectory_duration
from mcp_ros_bridge.backends.ros.plan_check import seconds
from mcp_ros_bridge.messages import t

RAMP = 0.25              # fraction of a segment spent speeding up, and again slowing down
PEAK = 1.0 / (1.0 - RAMP)  # the warp's top rate: a segment takes PEAK x its planned time
STEP_S = 0.02            # spacing of the points of a segment


def warp(u: float) -> tuple[float, float, float]:
    """Return (planned fraction, its rate, its second derivative) at segment fraction ``u``."""
    if u < RAMP:
        return PEAK * u * u / (2 * RAMP), PEAK * u / RAMP, PEAK / RAMP
    if u > 1.0 - RAMP:
        w = 1.0 - u
        return 1.0 - PEAK * w * w / (2 * RAMP), PEAK * w / RAMP, -PEAK / RAMP
    return PEAK * (u - RAMP / 2), PEAK, 0.0


class _Plan:
    """A joint trajectory sampled at any time: Hermite with velocities, else linear."""

    def __init__(self, points: list[dict[str, Any]]) -> None:
        self.times = [seconds(p.get('time_from_start', {})) for p in points]
        self.q = [[float(v) for v in p['positions']] for p in points]
        n = len(self.q[0])
        self.v = [[float(x) for x in p.get('velocities', [])] for p in points]
        self.a = [[float(x) for x in p.get('accelerations', [])] for p in points]
        self.has_v = all(len(v) == n for v in self.v)
        self.has_a = self.has_v and all(len(a) == n for a in self.a)

    def at(self, when: float) -> tuple[list[float], list[float], list[float]]:
        """Return positions, velocities and accelerations at planned time ``when``."""
        times = self.times
        if when >= times[-1] or when <= times[0]:
            j = -1 if when >= times[-1] else 0
            zero = [0.0] * len(self.q[j])
            return list(self.q[j]), list(self.v[j] if self.has_v else zero), \
                list(self.a[j] if self.has_a else zero)
        i = bisect_right(times, when)  # times[i - 1] <= when < times[i]
        h = times[i] - times[i - 1]
        s = min(max((when - times[i - 1]) / h, 0.0), 1.0)
        q0, q1 = self.q[i - 1], self.q[i]
        if not self.has_v:
            return ([a + (b - a) * s for a, b in zip(q0, q1)],
                    [(b - a) / h for a, b in zip(q0, q1)], [0.0] * len(q0))
        v0, v1 = self.v[i - 1], self.v[i]
        h00, h10, h01, h11 = (2 * s**3 - 3 * s**2 + 1, s**3 - 2 * s**2 + s,
                              -2 * s**3 + 3 * s**2, s**3 - s**2)
        d00, d10, d01, d11 = (6 * s**2 - 6 * s, 3 * s**2 - 4 * s + 1,
                              -6 * s**2 + 6 * s, 3 * s**2 - 2 * s)
        q = [h00 * a + h10 * h * m + h01 * b + h11 * h * n
             for a, b, m, n in zip(q0, q1, v0, v1)]
        v = [(d00 * a + d01 * b) / h + d10 * m + d11 * n for a, b, m, n in zip(q0, q1, v0, v1)]
        acc = ([x + (y - x) * s for x, y in zip(self.a[i - 1], self.a[i])] if self.has_a
               else [0.0] * len(q0))
        return q, v, acc


def segment_count(trajectory: dict[str, Any], horizon_s: float) -> int:
    """Return how many segments ``trajectory`` is handed over in (1: whole)."""
    planned = trajectory_duration(trajectory)
    points = trajectory.get('joint_trajectory', {}).get('points', [])
    if horizon_s <= 0.0 or planned <= horizon_s or len(points) < 2:
        return 1
    return ceil(planned * PEAK / horizon_s - 1e-9)


def split(trajectory: dict[str, Any], horizon_s: float) -> list[dict[str, Any]]:
    """
    Return RobotTrajectory dicts that together follow ``trajectory``, each at most ``horizon_s``.

    Each one starts and ends at rest where its neighbours end and start. A
    trajectory no longer than the horizon (or ``horizon_s`` 0) is returned whole.
    """
    n = segment_count(trajectory, horizon_s)
    if n == 1:
        return [trajectory]
    jt = trajectory['joint_trajectory']
    plan = _Plan(list(jt['points']))
    planned = plan.times[-1]
    span = planned / n            # planned seconds per segment
    took = span * PEAK            # executed seconds per segment (<= horizon_s)
    steps = max(2, ceil(took / STEP_S))
    segments = []
    for k in range(n):
        points = []
        for j in range(steps + 1):
            u = j / steps
            frac, rate, curve = warp(u)
            when = (k + frac) * span  # the seams of neighbours are the same number
            q, v, a = plan.at(when)
            dt = rate / PEAK          # planned seconds per executed second
            ddt = curve / (PEAK * took)
            point: dict[str, Any] = {'positions': q, 'time_from_start': _duration(took * u)}
            if plan.has_v:
                point['velocities'] = [x * dt for x in v]
            if plan.has_a:
                point['accelerations'] = [x * dt * dt + y * ddt for x, y in zip(a, v)]
            points.append(point)
        segments.append({**trajectory, 'joint_trajectory': {**jt, 'points': points}})
    return segments


def progress_of(k: int, n: int, states: Callable[[Any], tuple[float, str] | None],
                seen: Callable[[Any], None]) -> Callable[[Any], tuple[float, str] | None]:
    """
    Return the feedback reader of segment ``k`` of ``n``: progress rises across segments.

    ``seen`` is called with every feedback message first.
    """
    def describe(feedback: Any) -> tuple[float, str] | None:
        seen(feedback)
        if n == 1 or feedback.state not in ('MONITOR', 'IDLE'):
            return states(feedback)
        done = k + (feedback.state == 'IDLE')
        return 0.4 + 0.55 * done / n, t('moveit_executing_part', k=k + 1, n=n)
    return describe
