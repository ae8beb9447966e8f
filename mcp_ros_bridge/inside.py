"""
The way back into a limit: how far a value lies outside it, and the monotone rule.

A motion may start outside a limit (a failed move left the arm just past it, or
a reload narrowed the limit); the envelope must not forbid the way back. So a
path is checked sample by sample with :class:`TowardInside`: the first sample
(where the arm is) is taken as it is, each later one may be no farther outside
than the closest before it, and once a sample is inside all later ones must be.
Pure functions: the backends (joint rows) and the safety layer (poses) share them.
"""

from __future__ import annotations

from collections.abc import Sequence
import math


def outside_interval(value: float, lo: float, hi: float) -> float:
    """Return how far ``value`` lies outside ``[lo, hi]``: 0 inside, inf when not finite."""
    if not math.isfinite(value):
        return math.inf
    return max(lo - value, value - hi, 0.0)


def outside_box(point: Sequence[float], lo: Sequence[float], hi: Sequence[float]) -> float:
    """Return the distance from ``point`` to the box ``lo``..``hi`` (0 inside, inf: not finite)."""
    gaps = [outside_interval(v, a, b) for v, a, b in zip(point, lo, hi)]
    return math.inf if math.inf in gaps else math.sqrt(sum(g * g for g in gaps))


class TowardInside:
    """
    The monotone rule of one limit over the samples of one motion.

    ``admit(distance)`` takes each sample's distance outside the limit (0:
    inside) in path order and returns False for the first sample that breaks
    the rule. ``restart`` begins another pass over the same motion (its
    execution after its plan) from the distance of the first sample.
    """

    def __init__(self, eps: float = 1e-9) -> None:
        """Allow distances to grow by at most ``eps`` (rounding), never more."""
        self.eps = eps
        self.start: float | None = None
        self.closest: float | None = None

    def admit(self, distance: float) -> bool:
        """Return whether a sample ``distance`` outside the limit may follow the ones before."""
        if not math.isfinite(distance):
            return False
        if self.closest is None:
            self.start = self.closest = distance
            return True
        if distance > self.closest + self.eps:
            return False
        self.closest = min(self.closest, distance)
        return True

    def restart(self) -> None:
        """Check another pass of the same motion from its first sample's distance."""
        self.closest = self.start

    @property
    def started_outside(self) -> bool:
        """Return whether the first sample lay outside the limit."""
        return bool(self.start)
