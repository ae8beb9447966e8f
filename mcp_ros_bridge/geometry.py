"""
Frames, quaternions and Euler angles (fixed-axis XYZ roll/pitch/yaw) via transforms3d.

Also the static load of a tool on a wrist F/T sensor, the one place its math
lives (weighing, tare and the force guard use it): at rest a tool of mass
``m`` reads ``m * g`` for the gravity vector ``g`` (m/s^2) in the sensor frame,
and ``c x (m * g)`` as torque for its centre of mass ``c`` (m, sensor frame).
The base frame's z axis points up.
"""

from __future__ import annotations

from collections.abc import Sequence
import math
from typing import Any, Protocol

from mcp_ros_bridge.messages import t
import numpy as np
from transforms3d.euler import euler2quat, quat2euler
from transforms3d.quaternions import quat2mat, rotate_vector

GRAVITY = 9.81  # m/s^2 along -z of the base frame


def fixed(v: float, digits: int) -> str:
    """Format ``v`` with ``digits`` decimals; never "-0" ("-0.0001" at 1 decimal is "0.0")."""
    text = f'{v:.{digits}f}'
    return text[1:] if text.startswith('-') and not text.strip('-0.') else text


class PoseLike(Protocol):
    """What the pose helpers read: position (m) and (w, x, y, z) quaternion in ``frame_id``."""

    @property
    def frame_id(self) -> str:
        """Return the frame the pose is expressed in."""

    @property
    def position(self) -> Sequence[float]:
        """Return x, y, z in metres."""

    @property
    def orientation(self) -> Sequence[float]:
        """Return the (w, x, y, z) quaternion."""


def rpy_deg_to_quat(roll: float, pitch: float, yaw: float) -> tuple[float, float, float, float]:
    """Return the (w, x, y, z) quaternion of fixed-axis roll/pitch/yaw in degrees."""
    q = euler2quat(math.radians(roll), math.radians(pitch), math.radians(yaw), 'sxyz')
    return tuple(float(v) for v in q)  # type: ignore[return-value]


def normalise_deg(angle: float, digits: int | None = None) -> float:
    """Return ``angle`` (deg) in (-180, 180], rounded to ``digits`` first: one pose, one value."""
    a = angle if digits is None else round(angle, digits)
    a = math.fmod(a, 360.0)
    a = a - 360.0 if a > 180.0 else a + 360.0 if a <= -180.0 else a
    return a + 0.0  # no -0.0


def quat_to_rpy_deg(q: Sequence[float]) -> tuple[float, float, float]:
    """Return fixed-axis roll/pitch/yaw in degrees, each in (-180, 180], of a (w, x, y, z)."""
    r, p, y = quat2euler(np.asarray(q, dtype=float), 'sxyz')
    return (normalise_deg(math.degrees(r)), math.degrees(p), normalise_deg(math.degrees(y)))


def pose_to_dict(pose: PoseLike) -> dict[str, Any]:
    """Render a pose for structured output: metres, degrees and the quaternion."""
    r, p, y = quat_to_rpy_deg(pose.orientation)
    w, qx, qy, qz = pose.orientation
    return {
        'frame': pose.frame_id,
        'position_m': {'x': round(pose.position[0], 5), 'y': round(pose.position[1], 5),
                       'z': round(pose.position[2], 5)},
        'orientation_deg': {'roll': normalise_deg(r, 3), 'pitch': round(p, 3) + 0.0,
                            'yaw': normalise_deg(y, 3)},
        'quaternion': {'w': round(w, 6), 'x': round(qx, 6), 'y': round(qy, 6),
                       'z': round(qz, 6)},
    }


def describe_pose(pose: PoseLike) -> str:
    """Return a one-line human summary of a pose."""
    d = pose_to_dict(pose)
    p, o = d['position_m'], d['orientation_deg']
    return t('pose_line', x=fixed(p['x'], 3), y=fixed(p['y'], 3), z=fixed(p['z'], 3),
             roll=fixed(normalise_deg(o['roll'], 1), 1), pitch=fixed(o['pitch'], 1),
             yaw=fixed(normalise_deg(o['yaw'], 1), 1),
             frame=pose.frame_id)


def approach_angle_deg(q: tuple[float, float, float, float]) -> float:
    """Return the angle (deg) between the finger axis (the TCP's z) and straight down."""
    finger_z = rotate_vector((0.0, 0.0, 1.0), np.asarray(q, dtype=float))[2]
    return math.degrees(math.acos(max(-1.0, min(1.0, -float(finger_z)))))


def gravity_in_sensor(q_sensor_in_base: Sequence[float]) -> np.ndarray:
    """Return the gravity vector (m/s^2) in the sensor frame, given its orientation (wxyz)."""
    rot = quat2mat(np.asarray(q_sensor_in_base, dtype=float))
    return np.asarray(rot.T @ np.array([0.0, 0.0, -GRAVITY]))


def tool_wrench(mass_kg: float, com_m: Sequence[float], g_sensor: np.ndarray) -> np.ndarray:
    """Return the wrench (N, Nm) a static tool of this mass and centre of mass reads."""
    force = mass_kg * g_sensor
    return np.concatenate([force, np.cross(np.asarray(com_m, dtype=float), force)])


def held_mass_kg(net_wrench: Sequence[float], g_sensor: np.ndarray) -> float:
    """Return the mass (kg) whose weight explains the net force along gravity."""
    return float(np.dot(np.asarray(net_wrench[:3], dtype=float), g_sensor) / GRAVITY ** 2)
