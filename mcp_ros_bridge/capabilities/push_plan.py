"""
A push's arithmetic: where the fingertips start, how low they go, what the object sweeps.

The closed fingertips lead, tilted toward the push so that no part of the hand
is ahead of them (from the gripper geometry: the hand's overhang in front of
the fingers over the finger length, plus a margin). Their lowest corner runs
:data:`TABLE_CLEAR_M` above the table, so the corner that touches is well below
the object's centre of mass: the object slides instead of tipping. Everything
here is pure: the catalog, the poses and the arguments in, numbers out.
"""

from __future__ import annotations

from dataclasses import dataclass
import math

from mcp_ros_bridge.backends.port import BackendError, Pose
from mcp_ros_bridge.capabilities.guarded import DIRECTIONS
from mcp_ros_bridge.capabilities.object_heights import half_height, top_z
from mcp_ros_bridge.catalog.robot import GripperGeometry, ObjectSpec, RobotConfig
from mcp_ros_bridge.messages import t
import numpy as np
from transforms3d.quaternions import mat2quat, quat2mat

PUSH_DIRECTIONS = ('forward', 'backward', 'left', 'right')
TABLE_CLEAR_M = 0.006  # the fingers' lowest corner above the table while pushing
GAP_M = 0.02           # the leading fingertip starts this far from the object
ABOVE_M = 0.05         # the fingers come down from this far above the object's top
OBJECT_CLEAR_M = 0.01  # the pushed object must pass other objects by this much
TILT_MARGIN_DEG = 10.0
MAX_TILT_DEG = 40.0


@dataclass(frozen=True)
class PushPlan:
    """The poses and distances of one push, in the base frame (m)."""

    unit: tuple[float, float, float]
    orientation: tuple[float, float, float, float]
    above: tuple[float, float, float]   # TCP above the start
    start: tuple[float, float, float]   # TCP at the push height, behind the object
    line_m: float                       # the guarded line: gap + distance
    contact_z: float                    # height of the leading fingertip corner
    tilt_deg: float


def finger_tilt_deg(g: GripperGeometry) -> float:
    """Return the tilt (deg) that puts the fingertips ahead of the hand's front edge."""
    overhang = max(0.0, g.hand_size_m[0] / 2.0 - g.finger_width_m / 2.0)
    lean = math.degrees(math.atan2(overhang, g.finger_length_m)) if g.finger_length_m else 0.0
    return min(MAX_TILT_DEG, lean + TILT_MARGIN_DEG)


def _tilted(unit: np.ndarray, tilt: float) -> tuple[float, float, float, float]:
    """Return the TCP orientation: fingers down, leaning ``tilt`` rad toward ``unit``."""
    z = np.array([math.sin(tilt) * unit[0], math.sin(tilt) * unit[1], -math.cos(tilt)])
    x = np.array([math.cos(tilt) * unit[0], math.cos(tilt) * unit[1], math.sin(tilt)])
    y = np.cross(z, x)
    w, qx, qy, qz = (float(v) for v in mat2quat(np.column_stack([x, y, z])))
    return (w, qx, qy, qz) if w >= 0 else (-w, -qx, -qy, -qz)


def half_along(obj: ObjectSpec, pose: Pose, unit: np.ndarray) -> float:
    """Return half the object's extent (m) along the horizontal ``unit``."""
    if obj.shape == 'cylinder':
        return obj.size_m[0] / 2.0
    r = quat2mat(pose.orientation)
    return float(sum(abs(float(np.dot(r[:, i], unit))) * obj.size_m[i] / 2.0 for i in range(3)))


def footprint_radius(obj: ObjectSpec) -> float:
    """Return the radius (m) of a circle around the object's footprint."""
    if obj.shape == 'cylinder':
        return obj.size_m[0] / 2.0
    return math.hypot(obj.size_m[0], obj.size_m[1]) / 2.0


def _bad(field: str, message: str, allowed: str, example: str) -> BackendError:
    return BackendError('INVALID_ARGUMENTS', message,
                        advice=t('push_fix', field=field, allowed=allowed, example=example),
                        details={'field': field, 'allowed': allowed, 'example': example})


def blocked_by(robot: RobotConfig, name: str, pose: Pose, direction: str, distance: float,
               others: dict[str, Pose]) -> str:
    """
    Return the object the pushed one would run into (or '' when the way is clear).

    Objects wholly below or above it (what it stands on) are not in its way.
    """
    unit = np.asarray(DIRECTIONS[direction][:2])
    c0 = np.asarray(pose.position[:2])
    mine = footprint_radius(robot.objects[name])
    lo, hi = _span(robot.objects[name], pose)
    for other, p in others.items():
        other_lo, other_hi = _span(robot.objects[other], p)
        if other_hi <= lo + OBJECT_CLEAR_M / 2 or other_lo >= hi - OBJECT_CLEAR_M / 2:
            continue
        rel = np.asarray(p.position[:2]) - c0
        along = min(max(float(np.dot(rel, unit)), 0.0), distance)
        gap = float(np.linalg.norm(rel - along * unit))
        if gap < mine + footprint_radius(robot.objects[other]) + OBJECT_CLEAR_M:
            return other
    return ''


def check_push(robot: RobotConfig, name: str, pose: Pose, direction: str, distance: float,
               others: dict[str, Pose]) -> None:
    """Refuse a push into another object or out of the workspace; nothing moves."""
    ws = robot.limits.workspace
    clear = [d for d in PUSH_DIRECTIONS
             if not blocked_by(robot, name, pose, d, distance, others)]
    example = (f'{{"object": "{name}", "direction": "{clear[0]}", "distance_m": {distance:g}}}'
               if clear else f'{{"object": "{name}", "direction": "{direction}", '
               f'"distance_m": 0.02}}')
    if hit := blocked_by(robot, name, pose, direction, distance, others):
        raise _bad('direction', t('push_blocked', object=name, other=hit, direction=direction,
                                  distance=f'{distance:g}'),
                   t('push_blocked_allowed', directions=', '.join(clear)) if clear
                   else t('push_blocked_none'), example)
    end = np.asarray(pose.position[:2]) + distance * np.asarray(DIRECTIONS[direction][:2])
    if ws.frame in ('', robot.base_frame) and not all(
            ws.lo[i] <= end[i] <= ws.hi[i] for i in range(2)):
        room = min(_room(pose.position[i], DIRECTIONS[direction][i], ws.lo[i], ws.hi[i])
                   for i in range(2))
        raise _bad('distance_m', t('push_outside', object=name, distance=f'{distance:g}'),
                   f'<= {max(room, 0.0):.3f} m', example)


def _span(obj: ObjectSpec, pose: Pose) -> tuple[float, float]:
    """Return the heights (m) of the object's bottom and top."""
    half = half_height(obj, pose)
    return float(pose.position[2]) - half, float(pose.position[2]) + half


def _room(p: float, d: float, lo: float, hi: float) -> float:
    return (hi - p) / d if d > 1e-9 else (p - lo) / -d if d < -1e-9 else math.inf


def plan_push(robot: RobotConfig, name: str, pose: Pose, direction: str,
              distance: float) -> PushPlan:
    """Return the tilted fingertip poses of a push (refused when the object is too low)."""
    g, obj = robot.gripper_geometry, robot.objects[name]
    unit = np.asarray(DIRECTIONS[direction])
    tilt = math.radians(finger_tilt_deg(g))
    w = g.finger_width_m / 2.0
    centre = float(pose.position[2])
    bottom = centre - half_height(obj, pose)  # the surface it stands on
    tip_z = bottom + TABLE_CLEAR_M + w * math.sin(tilt)  # the fingertip centre line
    contact_z = tip_z + w * math.sin(tilt)               # the leading corner
    if contact_z >= centre:
        raise _bad('object', t('push_too_low', object=name, height=f'{contact_z:.3f}'),
                   t('push_too_low_allowed'), '{"object": "box", "direction": "forward", '
                   '"distance_m": 0.05}')
    lead = np.asarray(pose.position[:2]) - unit[:2] * (half_along(obj, pose, unit) + GAP_M)
    tip = lead - unit[:2] * w * math.cos(tilt)
    back = g.tip_past_tcp_m  # the TCP is this far behind the fingertips, along the fingers
    tcp = tip - unit[:2] * back * math.sin(tilt)
    start = (float(tcp[0]), float(tcp[1]), tip_z + back * math.cos(tilt))
    above_z = top_z(obj, pose) + ABOVE_M + back * math.cos(tilt)
    return PushPlan((float(unit[0]), float(unit[1]), 0.0), _tilted(unit, tilt),
                    (start[0], start[1], above_z), start, GAP_M + distance, contact_z,
                    math.degrees(tilt))
