"""
The guard of a guarded move: trips on the force change since the start, at the sensor rate.

A guarded move stops on a light touch (a few newtons), far below the contact
force limit, while the wrist sensor carries the gripper's weight and any held
load. So the guard compares each sample's force vector with the mean of the
samples before the motion and trips when they differ by more than the
threshold (or the magnitude passes the contact force limit, as the plain guard
does); the halt path is the plain guard's.
"""

from __future__ import annotations

import math

from mcp_ros_bridge.backends.ros.guard import ForceGuard
from mcp_ros_bridge.backends.ros.runtime import call_soon
from mcp_ros_bridge.backends.ros.sensors import Row, WrenchBuffer

BASELINE_SAMPLES = 20


class ContactGuard(ForceGuard):
    """Trips when the force differs from its value at the start by more than ``threshold_n``."""

    def __init__(self, buffer: WrenchBuffer, limit_n: float, threshold_n: float,
                 max_age_s: float) -> None:
        """Take the baseline from the newest samples; ``peak_n`` is then the change."""
        super().__init__(buffer, threshold_n, max_age_s)
        self.absolute_n = float(limit_n)
        rows = [r[2] for r in buffer.tail(BASELINE_SAMPLES)]
        n = max(1, len(rows))
        self.baseline = tuple(sum(r[i] for r in rows) / n for i in range(3))

    def _watch(self, row: Row) -> None:
        net = math.dist(row[:3], self.baseline)
        self.peak_n = max(self.peak_n, net)
        magnitude = math.hypot(row[0], row[1], row[2])
        if ((net > self.limit_n or magnitude > self.absolute_n) and not self.contact
                and self._loop is not None):
            self.contact, self.trip_n = True, net
            call_soon(self._loop, self.event.set)
