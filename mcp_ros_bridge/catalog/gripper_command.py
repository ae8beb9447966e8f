"""
How the gripper action's position maps to the finger gap: ``robot.yaml`` ``gripper.command``.

Grippers are commanded in their own joint's terms: the Panda hand takes one
finger's travel in metres (0.04 open), a Robotiq 2F-85 its knuckle angle in
radians (0 open, 0.8 closed). The bridge speaks the total finger gap in metres
(0 closed, ``gripper.max_width_m`` open) and maps it linearly: ``open`` is the
command position at the full gap, ``closed`` at no gap, in either order.
The measured ``joint`` in /joint_states is read back through the same line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

Unit = Literal['m', 'rad']


@dataclass(frozen=True)
class GripperCommand:
    """A linear map between the finger gap (m) and the gripper joint's position."""

    opened: float         # command position with the fingers fully open (max_width_m)
    closed: float         # command position with the fingers closed (gap 0)
    unit: Unit            # the joint's unit: m (prismatic) or rad (revolute knuckle)
    joint: str            # the joint in /joint_states that reports the position
    max_width_m: float
    max_effort: float | None  # the command's max_effort that means max_force_n (None: N as is)

    def position(self, gap_m: float) -> float:
        """Return the command position for a total finger gap (m)."""
        return self.closed + (self.opened - self.closed) * float(gap_m) / self.max_width_m

    def gap_m(self, position: float) -> float:
        """Return the total finger gap (m) a joint position means."""
        return (float(position) - self.closed) / (self.opened - self.closed) * self.max_width_m

    def rate(self, speed_mps: float) -> float:
        """Return the joint speed (unit/s) that moves the gap at ``speed_mps``."""
        return abs(self.opened - self.closed) * float(speed_mps) / self.max_width_m

    def effort(self, force_n: float, max_force_n: float) -> float:
        """Return the command's max_effort for a grip force (N)."""
        if self.max_effort is None:
            return float(force_n)
        return self.max_effort * float(force_n) / max_force_n


def gripper_command(gripper: Mapping[str, Any], joints: Sequence[str]) -> GripperCommand:
    """
    Return the map of a filled-in ``gripper:`` section for the gripper ``joints``.

    Without ``command`` it is the Panda hand's: the first finger joint, in
    metres, closed at 0 and open at the full gap, or at half of it when two
    finger joints share the gap (one finger's travel).
    """
    width = float(gripper['max_width_m'])
    given = gripper.get('command')
    if not given:
        share = 0.5 if len(joints) == 2 else 1.0
        return GripperCommand(width * share, 0.0, 'm', joints[0] if joints else '', width, None)
    effort = given.get('max_effort')
    return GripperCommand(float(given['open']), float(given['closed']), given['unit'],
                          given['joint'] or (joints[0] if joints else ''), width,
                          None if effort is None else float(effort))
