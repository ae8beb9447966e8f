"""
The guarded line's contact rule on ROS, pure: which contacts refuse it, which states are asked.

No ROS package is imported here, so the rule is tested where rclpy is absent.
"""

from __future__ import annotations

from typing import Any

ROBOT_LINK = 0  # moveit_msgs/ContactInformation body types
MAX_STATES = 25  # states checked along one line (evenly spaced, the last included)


def arm_contacts(contacts: Any, hand: frozenset[str]) -> list[str]:
    """Return ``a<->b`` for each contact that involves a robot link outside ``hand``."""
    out = []
    for c in contacts:
        bodies = ((c.contact_body_1, c.body_type_1), (c.contact_body_2, c.body_type_2))
        if any(kind == ROBOT_LINK and name not in hand for name, kind in bodies):
            out.append(f'{c.contact_body_1}<->{c.contact_body_2}')
    return out


def spread(n: int, most: int = MAX_STATES) -> list[int]:
    """Return up to ``most`` indices of ``n`` samples, evenly spaced, first and last included."""
    if n <= most:
        return list(range(n))
    return sorted({round(i * (n - 1) / (most - 1)) for i in range(most)})
