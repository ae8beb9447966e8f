"""
The tool-centre point on ROS: a configured end effector MoveIt may not know as a link.

``moveit_resources_panda`` has no ``panda_hand_tcp`` link: MoveIt then treats a
goal for it as already satisfied (SUCCESS, no motion) and FK answers
INVALID_LINK_NAME. With ``ros.tcp: {parent_link, offset_xyz}`` the bridge
commands and measures the real parent link and applies the fixed offset
(metres, in the parent link's frame) itself. Pure; no ROS import.
"""

from __future__ import annotations

from dataclasses import replace

from mcp_ros_bridge.backends.port import Pose
from mcp_ros_bridge.catalog.robot import RobotConfig
from transforms3d.quaternions import rotate_vector


def offset(config: RobotConfig) -> tuple[float, float, float] | None:
    """Return the configured TCP offset from its parent link, or None."""
    return config.ros.tcp.offset_xyz if config.ros.tcp else None


def moveit_link(config: RobotConfig, link: str = '') -> str:
    """Return the link MoveIt is asked about for ``link`` (default: the end effector)."""
    link = link or config.end_effector
    tcp = config.ros.tcp
    return tcp.parent_link if tcp and link == config.end_effector else link


def _shift(pose: Pose, xyz: tuple[float, float, float], sign: float) -> Pose:
    moved = rotate_vector(xyz, pose.orientation)
    return replace(pose, position=tuple(  # type: ignore[arg-type]
        float(p + sign * m) for p, m in zip(pose.position, moved)))


def to_parent(config: RobotConfig, link: str, pose: Pose) -> Pose:
    """Return the parent link's pose that puts ``link`` (the TCP) at ``pose``."""
    xyz = offset(config)
    if xyz is None or (link or config.end_effector) != config.end_effector:
        return pose
    return _shift(pose, xyz, -1.0)


def from_parent(config: RobotConfig, link: str, pose: Pose) -> Pose:
    """Return the TCP pose for a measured pose of its parent link."""
    xyz = offset(config)
    if xyz is None or (link or config.end_effector) != config.end_effector:
        return pose
    return _shift(pose, xyz, 1.0)
