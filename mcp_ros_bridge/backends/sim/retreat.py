"""
The guarded move's halt: slow down along the path, every joint in step, and back off.

On contact the commanded path time leaves the clock: a cubic takes it from
the contact (rate 1) back to ``back_s`` before it (rate 0) over ``duration_s``,
so the position, velocity and inertial feed-forward commands stay those of the
path, only slowed, stopped and reversed; then the arm holds there. A jump of
the joint targets instead (hold where the path was, velocity 0) stops each
joint at its own inertia: where the path turns two nearly coaxial wrist joints
against each other (near the base), the light last joint whips round, the hand
twists on the fingertips' friction, and the contact force rose again to 50 N
after a stop at 0.01 m/s.
"""

from __future__ import annotations

import numpy as np

from .trajectory import Trajectory


class Retreat:
    """A path-time profile from the contact back to a hold point, sampled per step."""

    def __init__(self, traj: Trajectory, qdd: np.ndarray, tau0: float, back_s: float,
                 duration_s: float) -> None:
        """Leave the path at time ``tau0`` (s, rate 1); end ``back_s`` before it, at rest."""
        self.traj, self.qdd = traj, qdd
        self.tau0, self.back = tau0, min(back_s, tau0)
        self.duration = duration_s

    def tau(self, t: float) -> tuple[float, float, float]:
        """Return the path time, its rate and its rate's rate ``t`` s after the contact."""
        d, b = self.duration, self.back
        u = min(max(t / d, 0.0), 1.0)
        if u >= 1.0:
            return self.tau0 - b, 0.0, 0.0
        # Hermite cubic: tau(0) = tau0, tau'(0) = 1, tau(d) = tau0 - b, tau'(d) = 0
        tau = self.tau0 + d * (u ** 3 - 2 * u ** 2 + u) - b * (3 * u ** 2 - 2 * u ** 3)
        rate = (3 * u ** 2 - 4 * u + 1) - b / d * (6 * u - 6 * u ** 2)
        accel = ((6 * u - 4) - b / d * (6 - 12 * u)) / d
        return tau, rate, accel

    def hold(self) -> np.ndarray:
        """Return the joint positions the arm holds once the retreat is over."""
        return self._sample(self.traj.q, self.tau0 - self.back)

    def commands(self, t: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Return the joint position, velocity and acceleration commands at ``t``."""
        tau, rate, accel = self.tau(t)
        qd = self._sample(self.traj.qd, tau)
        qdd = self._sample(self.qdd, tau) * rate ** 2 + qd * accel
        return self._sample(self.traj.q, tau), qd * rate, qdd

    def _sample(self, rows: np.ndarray, tau: float) -> np.ndarray:
        x = min(max(tau / self.traj.dt, 0.0), len(rows) - 1.0)
        lo = min(int(x), len(rows) - 2) if len(rows) > 1 else 0
        f = x - lo
        return np.asarray(rows[lo] * (1.0 - f) + rows[min(lo + 1, len(rows) - 1)] * f)
