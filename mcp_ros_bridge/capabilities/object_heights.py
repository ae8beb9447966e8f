"""Heights of known objects from their pose and catalog size: where to grasp, where the top is."""

from __future__ import annotations

from mcp_ros_bridge.backends.port import Pose
from mcp_ros_bridge.catalog.robot import ObjectSpec
from transforms3d.quaternions import quat2mat


def grasp_z(pose: Pose) -> float:
    """Return the fingertip (TCP) height to grasp an object at: its centre."""
    return float(pose.position[2])


def half_height(obj: ObjectSpec, pose: Pose) -> float:
    """Return half the vertical extent (m) of the object's size box at its orientation."""
    r = quat2mat(pose.orientation)
    return float(sum(abs(r[2][i]) * obj.size_m[i] / 2.0 for i in range(3)))


def top_z(obj: ObjectSpec, pose: Pose) -> float:
    """Return the height of the object's top (m): its centre plus half its vertical extent."""
    return float(pose.position[2]) + half_height(obj, pose)
