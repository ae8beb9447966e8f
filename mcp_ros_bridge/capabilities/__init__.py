"""The built-in capability kinds, by name."""

from __future__ import annotations

from mcp_ros_bridge.capabilities import (gripper, guarded, imaging, lease, motion, objects,
                                         pick_place, push, relative_motion, robot_info,
                                         ros_bindings, sensing, tare)
from mcp_ros_bridge.capabilities.base import CallContext, Kind, Outcome

KINDS: dict[str, Kind] = {
    k.name: k
    for module in (motion, relative_motion, guarded, pick_place, push, gripper, sensing, tare,
                   objects, imaging, robot_info, ros_bindings, lease)
    for k in module.KINDS
}

__all__ = ['KINDS', 'CallContext', 'Kind', 'Outcome']
