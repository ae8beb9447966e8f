"""
The tool-centre point on ROS: a configured end effector MoveIt may not know as a link.

``moveit_resources_panda`` has no ``panda_hand_tcp`` link: MoveIt then treats a
goal for it as already satisfied (SUCCESS, no motion) and FK answers
INVALID_LINK_NAME. With ``ros.tcp: {parent_link, offset_xyz, rpy}`` the bridge
commands and measures the real parent link and applies the fixed transform
(metres and radians, in the parent link's frame) itself, as the simulation
places its TCP site. Pure; no ROS import.
"""

from __future__ import annotations

from dataclasses import replace

from mcp_ros_bridge.backends.port import Pose
from mcp_ros_bridge.catalog.robot import RobotConfig
from transforms3d.euler import euler2quat
from transforms3d.quaternions import qinverse, qmult, rotate_vector

Offset = tuple[tuple[float, float, float], tuple[float, float, float, float]]


def offset(config: RobotConfig) -> Offset | None:
    """Return the configured TCP transform from its parent link (xyz, quat wxyz), or None."""
    tcp = config.ros.tcp
    if tcp is None:
        return None
    w, x, y, z = (float(v) for v in euler2quat(*tcp.rpy, 'sxyz'))
    return tcp.offset_xyz, (w, x, y, z)


def moveit_link(config: RobotConfig, link: str = '') -> str:
    """Return the link MoveIt is asked about for ``link`` (default: the end effector)."""
    link = link or config.end_effector
    tcp = config.ros.tcp
    return tcp.parent_link if tcp and link == config.end_effector else link


def _then(pose: Pose, xyz: tuple[float, float, float] | list[float],
          turn: tuple[float, float, float, float] | list[float]) -> Pose:
    """Return ``pose`` composed with the transform ``(xyz, turn)`` given in its own frame."""
    moved = rotate_vector(xyz, pose.orientation)
    w, x, y, z = (float(v) for v in qmult(pose.orientation, turn))
    return replace(pose, position=tuple(  # type: ignore[arg-type]
        float(p + m) for p, m in zip(pose.position, moved)), orientation=(w, x, y, z))


def to_parent(config: RobotConfig, link: str, pose: Pose) -> Pose:
    """Return the parent link's pose that puts ``link`` (the TCP) at ``pose``."""
    tcp = offset(config)
    if tcp is None or (link or config.end_effector) != config.end_effector:
        return pose
    back = qinverse(tcp[1])
    return _then(pose, [-float(v) for v in rotate_vector(tcp[0], back)], back)


def from_parent(config: RobotConfig, link: str, pose: Pose) -> Pose:
    """Return the TCP pose for a measured pose of its parent link."""
    tcp = offset(config)
    if tcp is None or (link or config.end_effector) != config.end_effector:
        return pose
    return _then(pose, *tcp)
