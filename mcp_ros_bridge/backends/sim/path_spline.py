"""
A smooth joint path through waypoints: a C1 cubic Hermite spline (pure numpy).

The waypoints of a Cartesian path are IK solutions a few millimetres apart;
joined by straight joint segments, the joint velocity would jump at every
waypoint. The spline keeps ``dq/ds`` continuous and ``d²q/ds²`` bounded, and
gives exact bounds of both over any stretch of the path, which is what the
time parameterisation needs to respect the joint acceleration limits.
Collinear, evenly spaced waypoints (a straight joint line) stay a straight line.
"""

from __future__ import annotations

import numpy as np


class PathSpline:
    """``q(s)`` through waypoints ``w`` at path parameters ``sigma`` (increasing)."""

    def __init__(self, w: np.ndarray, sigma: np.ndarray) -> None:
        """Fit the spline; tangents are the three-point derivatives at each waypoint."""
        self.sigma = sigma
        h = np.maximum(np.diff(sigma), 1e-12)
        d = np.diff(w, axis=0) / h[:, None]                     # chord slopes
        m = np.empty_like(w)
        m[0], m[-1] = d[0], d[-1]
        if len(d) > 1:
            h0, h1 = h[:-1, None], h[1:, None]
            m[1:-1] = (h1 * d[:-1] + h0 * d[1:]) / (h0 + h1)
        # q = a + b u + c u² + e u³ on each piece, u = (s - sigma_k) / h_k in [0, 1]
        self.h = h
        self.a = w[:-1]
        self.b = h[:, None] * m[:-1]
        self.c = 3.0 * d * h[:, None] - 2.0 * self.b - h[:, None] * m[1:]
        self.e = -2.0 * d * h[:, None] + self.b + h[:, None] * m[1:]

    def piece(self, s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Return the piece index and local parameter ``u`` of each ``s``."""
        k = np.clip(np.searchsorted(self.sigma, s, side='right') - 1, 0, len(self.h) - 1)
        u = np.clip((s - self.sigma[k]) / self.h[k], 0.0, 1.0)
        return k, u

    def at(self, s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Return ``q(s)`` and ``dq/ds`` at the path parameters ``s``."""
        k, u = self.piece(s)
        uu = u[:, None]
        q = self.a[k] + uu * (self.b[k] + uu * (self.c[k] + uu * self.e[k]))
        dq = (self.b[k] + uu * (2.0 * self.c[k] + 3.0 * uu * self.e[k])) / self.h[k, None]
        return q, dq

    def bounds(self, k: np.ndarray, u0: np.ndarray,
               u1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """
        Return per-joint max ``|dq/ds|`` and ``|d²q/ds²|`` over stretches of pieces.

        Stretch ``i`` is ``u0[i] <= u <= u1[i]`` of piece ``k[i]``. The first
        derivative is quadratic in ``u`` (ends and vertex checked), the second
        linear (ends).
        """
        b, c, e = self.b[k], self.c[k], self.e[k]
        h = self.h[k, None]

        def d1(u: np.ndarray) -> np.ndarray:
            return np.asarray(np.abs(b + u * (2.0 * c + 3.0 * u * e)))

        lo, hi = u0[:, None], u1[:, None]
        with np.errstate(divide='ignore', invalid='ignore'):
            vertex = np.where(np.abs(e) > 1e-15, -c / (3.0 * e), -1.0)
        inside = (vertex > lo) & (vertex < hi)
        top = np.maximum(d1(lo), d1(hi))
        top = np.where(inside, np.maximum(top, d1(np.clip(vertex, 0.0, 1.0))), top)
        curve = np.maximum(np.abs(2.0 * c + 6.0 * e * lo), np.abs(2.0 * c + 6.0 * e * hi))
        return top / h, curve / (h * h)
