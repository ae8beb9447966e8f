"""
Which robot.yaml changes loosen a safety limit: a reload must not apply those silently.

A limit loosens when a cap or range grows (speeds, forces, the sensor's rated
range and age, the approach cone, the workspace box, joint ranges) or when a
margin or required fraction shrinks, or the policy goes from reject to clamp.
"""

from __future__ import annotations

from typing import Any

from mcp_ros_bridge.server.live_config import Change

HIGHER_IS_LOOSER = frozenset({
    'limits.max_velocity_scaling', 'limits.max_acceleration_scaling',
    'limits.default_velocity_scaling', 'limits.default_acceleration_scaling',
    'limits.max_cartesian_speed_mps', 'limits.contact_force_limit_n',
    'limits.max_guarded_speed_mps', 'limits.sensor_max_age_s', 'limits.ft_rated_force_n',
    'limits.ft_rated_torque_nm', 'limits.motion_timeout_s', 'limits.approach_cone_deg',
    'gripper_max_force_n'})
LOWER_IS_LOOSER = frozenset({'limits.joint_limit_margin_rad', 'limits.min_cartesian_fraction'})


def _wider(old: Any, new: Any) -> bool:
    """Tell whether a (lo, hi) range or a list of them grew anywhere (or changed shape)."""
    if isinstance(old, tuple) and old and isinstance(old[0], tuple):
        return len(old) != len(new) or any(_wider(a, b) for a, b in zip(old, new))
    return float(new[0]) < float(old[0]) or float(new[1]) > float(old[1])


def looser(changes: list[Change]) -> list[Change]:
    """Return the changes that loosen a safety limit."""
    out = []
    for name, old, new in changes:
        if old is None or new is None:
            loosens = name in HIGHER_IS_LOOSER | LOWER_IS_LOOSER
        elif name in HIGHER_IS_LOOSER:
            loosens = float(new) > float(old)
        elif name in LOWER_IS_LOOSER:
            loosens = float(new) < float(old)
        elif name == 'limits.workspace.lo':
            loosens = any(float(b) < float(a) for a, b in zip(old, new))
        elif name == 'limits.workspace.hi':
            loosens = any(float(b) > float(a) for a, b in zip(old, new))
        elif name == 'arm_position_limits':
            loosens = _wider(old, new)
        else:
            loosens = name == 'limits.policy' and new == 'clamp'
        if loosens:
            out.append((name, old, new))
    return out
