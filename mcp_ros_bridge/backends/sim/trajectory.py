"""
Time parameterisation of joint-space paths (pure numpy).

A path is a sequence of joint waypoints with a monotone path parameter
(``sigma``: joint-space arc length, or Cartesian distance for straight-line
paths), joined by a smooth spline (:mod:`.path_spline`). The path speed is
planned on a fine grid of the parameter by a forward and a backward pass
(rest to rest) so that on every stretch each joint keeps

* ``|dq/ds| * ds/dt`` within its velocity limit, and
* ``|dq/ds| * |d²s/dt²| + |d²q/ds²| * (ds/dt)²`` within its acceleration
  limit: the path acceleration plus the centripetal term of a curved joint
  path, so the bound holds where the path bends, not only where it is straight;

and the tool inside an optional Cartesian speed limit. The path acceleration
is constant on each grid stretch, so the bound holds at every instant, and
with it for finite differences of the sampled motion.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from .path_spline import PathSpline

GRID_STRETCHES = 256   # at least this many stretches of the path parameter


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


@dataclasses.dataclass(frozen=True)
class SpeedPlan:
    """Squared path speed ``x = (ds/dt)²`` at the grid nodes ``s`` and the node times."""

    spline: PathSpline
    s: np.ndarray
    x: np.ndarray
    times: np.ndarray

    @property
    def duration(self) -> float:
        """Return how long the motion takes (s); inf when the speed vanishes inside the path."""
        return float(self.times[-1])


def _grid(spline: PathSpline) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Return grid nodes and, per stretch, its spline piece and local parameter span."""
    pieces = len(spline.h)
    per = max(1, math.ceil(GRID_STRETCHES / pieces))
    frac = np.linspace(0.0, 1.0, per + 1)
    k = np.repeat(np.arange(pieces), per)
    u0, u1 = np.tile(frac[:-1], pieces), np.tile(frac[1:], pieces)
    s = np.concatenate([spline.sigma[k] + u0 * spline.h[k], spline.sigma[-1:]])
    return s, k, u0, u1


def _passes(ds: np.ndarray, cap: np.ndarray, d1: np.ndarray, d2: np.ndarray,
            amax: np.ndarray) -> np.ndarray:
    """
    Return the largest rest-to-rest node speeds ``x`` within ``cap`` and the acceleration limit.

    On stretch ``i`` with ``x`` growing, ``u = (x[i+1] - x[i]) / (2 ds)``
    must keep ``d1 u + d2 x[i+1] <= amax`` per joint, that is
    ``x[i+1] <= x[i] + 2 ds (amax - d2 x[i]) / (d1 + 2 ds d2)``; the backward
    pass applies the same to decelerations.
    """
    gain = 2.0 * ds[:, None] / (d1 + 2.0 * ds[:, None] * d2)
    slope = 1.0 - gain * d2                     # x[next] <= slope * x + gain * amax
    reach = gain * amax
    x = [0.0, *np.minimum(cap[:-1], cap[1:]).tolist(), 0.0]  # a node: both its stretches
    rows = list(zip(slope.tolist(), reach.tolist()))    # plain floats: 5x faster than numpy
    for i, (sl, re) in enumerate(rows):
        v = x[i]
        x[i + 1] = min(x[i + 1], min([a * v + b for a, b in zip(sl, re)]))
    for i in range(len(rows) - 1, -1, -1):
        v, (sl, re) = x[i + 1], rows[i]
        x[i] = min(x[i], min([a * v + b for a, b in zip(sl, re)]))
    return np.asarray(np.maximum(np.array(x), 0.0))


def plan_speed(waypoints: np.ndarray, vmax: np.ndarray, amax: np.ndarray, *,
               sigma: np.ndarray | None = None, tool_points: np.ndarray | None = None,
               max_tool_speed: float | None = None) -> SpeedPlan | None:
    """Plan the path speed of a joint path; None when the path has no length."""
    w = np.asarray(waypoints, dtype=float)
    if sigma is None:
        sigma = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(w, axis=0), axis=1))])
    sigma = np.asarray(sigma, dtype=float)
    if len(w) < 2 or float(sigma[-1]) <= 1e-12:
        return None
    spline = PathSpline(w, sigma)
    s, k, u0, u1 = _grid(spline)
    d1, d2 = spline.bounds(k, u0, u1)
    d1 = np.maximum(d1, 1e-12)
    with np.errstate(divide='ignore', over='ignore', invalid='ignore'):
        cap = np.min((vmax / d1) ** 2, axis=1)              # joint velocity limits
        cap = np.minimum(cap, np.min(np.where(d2 > 0, amax / d2, math.inf), axis=1))
        if tool_points is not None and max_tool_speed:
            tp = np.asarray(tool_points, dtype=float)
            tslope = np.linalg.norm(np.diff(tp, axis=0), axis=1) / spline.h
            cap = np.minimum(cap, (max_tool_speed / np.maximum(tslope[k], 1e-12)) ** 2)
        ds = np.diff(s)
        x = _passes(ds, np.nan_to_num(cap, nan=0.0), d1, d2, amax)
        v = np.sqrt(x)
        step = 2.0 * ds / (v[:-1] + v[1:])
    step = np.where(np.isfinite(step), step, math.inf)
    return SpeedPlan(spline, s, x, np.concatenate([[0.0], np.cumsum(step)]))


def duration(waypoints: np.ndarray, vmax: np.ndarray, amax: np.ndarray, *,
             sigma: np.ndarray | None = None, tool_points: np.ndarray | None = None,
             max_tool_speed: float | None = None) -> float:
    """Return how long (s) :func:`time_parameterise` would make the motion; inf if unbounded."""
    plan = plan_speed(waypoints, vmax, amax, sigma=sigma, tool_points=tool_points,
                      max_tool_speed=max_tool_speed)
    if plan is None:
        return 0.0
    return plan.duration if math.isfinite(plan.duration) else math.inf


def at_rest(waypoints: np.ndarray, dt: float) -> Trajectory:
    """Return the one-sample trajectory of a path without length (resting at its end)."""
    w = np.asarray(waypoints, dtype=float)
    return Trajectory(w[-1:].copy(), np.zeros((1, w.shape[1])), dt, 0.0)


def sample(plan: SpeedPlan, dt: float) -> Trajectory:
    """Sample a speed plan every ``dt``: constant path acceleration on each stretch."""
    n = math.ceil(plan.duration / dt) + 1
    t = np.minimum(np.arange(n) * dt, plan.duration)
    i = np.clip(np.searchsorted(plan.times, t, side='right') - 1, 0, len(plan.s) - 2)
    tau = t - plan.times[i]
    v = np.sqrt(plan.x)
    acc = (plan.x[i + 1] - plan.x[i]) / (2.0 * (plan.s[i + 1] - plan.s[i]))
    sd = np.clip(v[i] + acc * tau, 0.0, np.maximum(v[i], v[i + 1]))
    s = np.clip(plan.s[i] + v[i] * tau + 0.5 * acc * tau * tau, plan.s[i], plan.s[i + 1])
    q, dq = plan.spline.at(s)
    qd = dq * sd[:, None]
    q[-1] = plan.spline.at(plan.s[-1:])[0][0]
    qd[-1] = 0.0
    return Trajectory(q, qd, dt, plan.duration)


def time_parameterise(waypoints: np.ndarray, vmax: np.ndarray, amax: np.ndarray, dt: float,
                      *, sigma: np.ndarray | None = None, tool_points: np.ndarray | None = None,
                      max_tool_speed: float | None = None,
                      max_duration: float = 600.0) -> Trajectory:
    """
    Time-parameterise a joint path, rest to rest.

    ``vmax``/``amax`` are the (already scaled) joint limits; ``sigma`` the path
    parameter at each waypoint (default: joint-space arc length);
    ``tool_points`` the tool position at each waypoint, used with
    ``max_tool_speed`` to cap the Cartesian speed. Raises ``ValueError`` when
    the motion would last longer than ``max_duration`` (the sample count is
    bounded by ``max_duration / dt``).
    """
    w = np.asarray(waypoints, dtype=float)
    plan = plan_speed(w, vmax, amax, sigma=sigma, tool_points=tool_points,
                      max_tool_speed=max_tool_speed)
    if plan is None:
        return at_rest(w, dt)
    if not plan.duration <= max_duration:
        raise ValueError(f'the motion would take {plan.duration:.4g} s, over {max_duration:g} s')
    return sample(plan, dt)


def concatenate(parts: list[Trajectory]) -> Trajectory:
    """Join rest-to-rest trajectories end to start (each starts where the last ended)."""
    parts = [p for p in parts if len(p.q)]
    q = np.concatenate([parts[0].q] + [p.q[1:] for p in parts[1:]])
    qd = np.concatenate([parts[0].qd] + [p.qd[1:] for p in parts[1:]])
    dt = parts[0].dt
    return Trajectory(q, qd, dt, (len(q) - 1) * dt)
