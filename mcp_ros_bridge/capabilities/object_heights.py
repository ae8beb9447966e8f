"""Heights of known objects from their pose and catalog size: where to grasp, where the top is."""

from __future__ import annotations

from mcp_ros_bridge.backends.port import Pose
from mcp_ros_bridge.catalog.robot import ObjectSpec, RobotConfig
from transforms3d.quaternions import quat2mat


PALM_CLEARANCE_M = 0.003  # the hand's face stays this far above a grasped object's top


def grasp_z(pose: Pose, obj: ObjectSpec | None = None, face_above_tcp_m: float = 0.0) -> float:
    """
    Return the fingertip (TCP) height to grasp an object at.

    Its centre, or higher where the hand's face (``face_above_tcp_m`` above the
    TCP; 0: not known) would otherwise press on the object's top.
    """
    centre = float(pose.position[2])
    if obj is None or face_above_tcp_m <= 0.0:
        return centre
    return max(centre, top_z(obj, pose) + PALM_CLEARANCE_M - face_above_tcp_m)


def face_above_tcp(robot: RobotConfig) -> float:
    """Return how far the hand's face is above the TCP (m; 0 when the geometry is not stated)."""
    g = robot.gripper_geometry
    return g.finger_length_m - g.tip_past_tcp_m if g.finger_length_m > 0 else 0.0


def half_height(obj: ObjectSpec, pose: Pose) -> float:
    """Return half the vertical extent (m) of the object's size box at its orientation."""
    r = quat2mat(pose.orientation)
    return float(sum(abs(r[2][i]) * obj.size_m[i] / 2.0 for i in range(3)))


def top_z(obj: ObjectSpec, pose: Pose) -> float:
    """Return the height of the object's top (m): its centre plus half its vertical extent."""
    return float(pose.position[2]) + half_height(obj, pose)
