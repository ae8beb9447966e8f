"""
Time parameterisation of joint-space paths (pure numpy).

A path is a polyline of joint waypoints with a monotone path parameter
(``sigma``: joint-space arc length, or Cartesian distance for straight-line
paths). The parameter follows a trapezoidal velocity profile whose peak speed
and acceleration are the largest that keep every joint inside its scaled
velocity and acceleration limits and the tool inside an optional Cartesian
speed limit.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np


@dataclasses.dataclass(frozen=True)
class Trajectory:
    """A time-parameterised joint path sampled at a fixed period."""

    q: np.ndarray        # (N, n) positions at t = k * dt
    qd: np.ndarray       # (N, n) velocities
    dt: float
    duration: float

    @property
    def qdd(self) -> np.ndarray:
        """Return the (N, n) accelerations (finite differences of ``qd``)."""
        if len(self.qd) < 2:
            return np.zeros_like(self.qd)
        return np.asarray(np.gradient(self.qd, self.dt, axis=0))

    def index(self, t: float) -> int:
        """Return the sample index for time ``t`` (clamped to the end)."""
        return min(len(self.q) - 1, max(0, round(t / self.dt)))


def trapezoid(length: float, v: float, a: float) -> tuple[float, float, float]:
    """Return (duration, peak speed, ramp time) of a rest-to-rest profile."""
    if length <= 0:
        return 0.0, 0.0, 0.0
    if length < v * v / a:
        v = math.sqrt(length * a)
    ramp = v / a
    return length / v + ramp, v, ramp


def profile(t: np.ndarray, length: float, v: float, a: float,
            ramp: float, duration: float) -> tuple[np.ndarray, np.ndarray]:
    """Return path parameter and its rate at times ``t`` for a trapezoid."""
    t = np.clip(t, 0.0, duration)
    s = np.where(t < ramp, 0.5 * a * t * t,
                 np.where(t <= duration - ramp, 0.5 * a * ramp * ramp + v * (t - ramp),
                          length - 0.5 * a * (duration - t) ** 2))
    sd = np.where(t < ramp, a * t, np.where(t <= duration - ramp, v, a * (duration - t)))
    return np.clip(s, 0.0, length), np.maximum(sd, 0.0)


def _speeds(w: np.ndarray, sigma: np.ndarray, vmax: np.ndarray, amax: np.ndarray,
            tool_points: np.ndarray | None, max_tool_speed: float | None,
            max_tool_accel: float | None) -> tuple[np.ndarray, float, float]:
    """Return dq/dsigma per segment and the peak path speed and acceleration allowed."""
    ds = np.maximum(np.diff(sigma), 1e-12)
    slope = np.diff(w, axis=0) / ds[:, None]          # dq/dsigma per segment
    smax = np.abs(slope).max(axis=0)
    v = float(np.min(vmax / np.maximum(smax, 1e-12)))
    a = float(np.min(amax / np.maximum(smax, 1e-12)))
    if tool_points is not None and (max_tool_speed or max_tool_accel):
        tp = np.asarray(tool_points, dtype=float)
        tslope = float((np.linalg.norm(np.diff(tp, axis=0), axis=1) / ds).max())
        if tslope > 1e-12:
            if max_tool_speed:
                v = min(v, max_tool_speed / tslope)
            if max_tool_accel:
                a = min(a, max_tool_accel / tslope)
    return slope, v, a


def _path(waypoints: np.ndarray, sigma: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    w = np.asarray(waypoints, dtype=float)
    if sigma is None:
        sigma = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(w, axis=0), axis=1))])
    return w, np.asarray(sigma, dtype=float)


def duration(waypoints: np.ndarray, vmax: np.ndarray, amax: np.ndarray, *,
             sigma: np.ndarray | None = None, tool_points: np.ndarray | None = None,
             max_tool_speed: float | None = None,
             max_tool_accel: float | None = None) -> float:
    """Return how long (s) :func:`time_parameterise` would make the motion; inf if unbounded."""
    w, sigma = _path(waypoints, sigma)
    length = float(sigma[-1]) if len(sigma) else 0.0
    if len(w) < 2 or length <= 1e-12:
        return 0.0
    _, v, a = _speeds(w, sigma, vmax, amax, tool_points, max_tool_speed, max_tool_accel)
    if not (v > 0 and a > 0 and math.isfinite(v) and math.isfinite(a)):
        return math.inf
    d = trapezoid(length, v, a)[0]
    return d if math.isfinite(d) else math.inf


def time_parameterise(waypoints: np.ndarray, vmax: np.ndarray, amax: np.ndarray, dt: float,
                      *, sigma: np.ndarray | None = None, tool_points: np.ndarray | None = None,
                      max_tool_speed: float | None = None,
                      max_tool_accel: float | None = None,
                      max_duration: float = 600.0) -> Trajectory:
    """
    Time-parameterise a joint polyline.

    ``vmax``/``amax`` are the (already scaled) joint limits; ``sigma`` the path
    parameter at each waypoint (default: joint-space arc length);
    ``tool_points`` the tool position at each waypoint, used with
    ``max_tool_speed``/``max_tool_accel`` to cap the Cartesian speed. Raises
    ``ValueError`` when the motion would last longer than ``max_duration``
    (the sample count is bounded by ``max_duration / dt``).
    """
    w, sigma = _path(waypoints, sigma)
    length = float(sigma[-1]) if len(sigma) else 0.0
    if len(w) < 2 or length <= 1e-12:
        return Trajectory(w[-1:].copy(), np.zeros((1, w.shape[1])), dt, 0.0)
    total = duration(w, vmax, amax, sigma=sigma, tool_points=tool_points,
                     max_tool_speed=max_tool_speed, max_tool_accel=max_tool_accel)
    if not total <= max_duration:
        raise ValueError(f'the motion would take {total:.4g} s, over {max_duration:g} s')
    slope, v, a = _speeds(w, sigma, vmax, amax, tool_points, max_tool_speed, max_tool_accel)
    dur, vpk, ramp = trapezoid(length, v, a)
    n = math.ceil(dur / dt) + 1
    t = np.arange(n) * dt
    s, sd = profile(t, length, vpk, a, ramp, dur)
    seg = np.clip(np.searchsorted(sigma, s, side='right') - 1, 0, len(slope) - 1)
    q = w[seg] + slope[seg] * (s - sigma[seg])[:, None]
    qd = slope[seg] * sd[:, None]
    q[-1], qd[-1] = w[-1], 0.0
    return Trajectory(q, qd, dt, dur)


def concatenate(parts: list[Trajectory]) -> Trajectory:
    """Join rest-to-rest trajectories end to start (each starts where the last ended)."""
    parts = [p for p in parts if len(p.q)]
    q = np.concatenate([parts[0].q] + [p.q[1:] for p in parts[1:]])
    qd = np.concatenate([parts[0].qd] + [p.qd[1:] for p in parts[1:]])
    dt = parts[0].dt
    return Trajectory(q, qd, dt, (len(q) - 1) * dt)
