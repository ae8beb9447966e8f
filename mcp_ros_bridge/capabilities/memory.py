"""
What the bridge remembers about one robot between calls, for every client.

One :class:`RobotMemory` per robot, owned by its call pipeline: the object the
hand holds (from the pick), the largest slip since that grasp, the F/T tare and
the plans kept under a ``plan_id``. A reload of robot.yaml calls
:meth:`RobotMemory.reloaded`, the one place that drops what a new gripper voids.
"""

from __future__ import annotations

from dataclasses import dataclass, field
import time

from mcp_ros_bridge.capabilities.plan_ids import PlanStore
import numpy as np


@dataclass(frozen=True)
class Tare:
    """A stored tare: the compensated wrench (sensor frame) and when it was taken."""

    offset: np.ndarray
    taken_mono: float

    def age_s(self) -> float:
        """Return how long ago the tare was taken, in seconds."""
        return time.monotonic() - self.taken_mono


@dataclass(frozen=True)
class HeldObject:
    """The object a pick left in the hand and how high the fingertip is above its centre (m)."""

    name: str
    tip_above_centre_m: float


@dataclass(frozen=True)
class SlipPeak:
    """The largest slip (m) of ``name`` in the fingers since its grasp."""

    name: str
    peak_m: float


@dataclass
class RobotMemory:
    """The state kept across calls for one robot."""

    held: HeldObject | None = None
    slip: SlipPeak | None = None
    tare: Tare | None = None
    plans: PlanStore = field(default_factory=PlanStore)

    def reloaded(self, gripper_changed: bool) -> bool:
        """Drop what a reloaded robot.yaml voids (a tare, for a new gripper); return if it did."""
        dropped = gripper_changed and self.tare is not None
        if gripper_changed:
            self.tare = None
        return dropped
