"""
How close a motion ended the hand to the known objects and the table: its clearance.

The hand is two boxes in the tip frame (z along the fingers): the fingers (the
gap they span now, ``finger_length_m`` back from the fingertips) and the hand
body behind them (``hand_size_m``); each is turned into the base frame and its
corners bound an axis-aligned box, as each object's (its size about its centre
pose). The clearance is the gap between those boxes: 0 where they overlap,
never more than the true gap (a conservative figure). The held object is part
of the hand, not an obstacle.
"""

from __future__ import annotations

from itertools import product
import math
from typing import Any

from mcp_ros_bridge.backends.port import BackendError, Pose
from mcp_ros_bridge.capabilities.base import CallContext, fmt, NUM, Outcome, STR
from mcp_ros_bridge.messages import said, t
import numpy as np
from transforms3d.quaternions import quat2mat

CLEARANCE = {'type': 'object', 'description': said('schema_clearance'), 'properties': {
    'nearest': STR, 'distance_m': NUM, 'table_m': NUM}}
Box = tuple[np.ndarray, np.ndarray]


def _bound(centre: np.ndarray, rot: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> Box:
    """Return the axis-aligned bounds of the box ``lo..hi`` (local) turned by ``rot``."""
    corners = np.array([centre + rot @ np.array(c) for c in product(*zip(lo, hi))])
    return corners.min(axis=0), corners.max(axis=0)


def hand_boxes(ctx: CallContext, tip: Pose, gap_m: float) -> list[Box]:
    """Return the fingers' and the hand body's bounds (base frame) at ``tip``."""
    g = ctx.robot.gripper_geometry
    centre, rot = np.asarray(tip.position, float), quat2mat(np.asarray(tip.orientation, float))
    hx, hy, hz = (v / 2.0 if v else 0.0 for v in g.hand_size_m)
    hz = 2.0 * hz
    fx = (g.finger_width_m or 0.02) / 2.0
    fy = min(hy or math.inf, gap_m / 2.0 + fx)
    back = g.finger_length_m or 0.05
    tip_z = g.tip_past_tcp_m
    boxes = [_bound(centre, rot, np.array([-fx, -fy, tip_z - back]), np.array([fx, fy, tip_z]))]
    if hx and hy:
        boxes.append(_bound(centre, rot, np.array([-hx, -hy, tip_z - back - hz]),
                            np.array([hx, hy, tip_z - back])))
    return boxes


def gap(a: Box, b: Box) -> float:
    """Return the distance (m) between two axis-aligned boxes, 0 where they overlap."""
    apart = np.maximum(0.0, np.maximum(a[0] - b[1], b[0] - a[1]))
    return float(np.linalg.norm(apart))


async def clearance(ctx: CallContext, tip: Pose, held: str | None) -> dict[str, Any] | None:
    """Return the nearest object's name and gap and the gap to the table (m), or None."""
    try:
        grip = await ctx.backend.gripper_state()
    except BackendError:
        return None
    hand = hand_boxes(ctx, tip, float(grip.width_m))
    out: dict[str, Any] = {'table_m': round(max(0.0, min(float(b[0][2]) for b in hand)
                                                - ctx.robot.limits.workspace.lo[2]), 4)}
    best = (math.inf, '')
    for name, obj in ctx.robot.objects.items():
        if name == held:
            continue
        try:
            pose = await ctx.backend.object_pose(name, tip.frame_id)
        except BackendError:
            continue
        half = np.asarray(obj.size_m, float) / 2.0
        box = _bound(np.asarray(pose.position, float),
                     quat2mat(np.asarray(pose.orientation, float)), -half, half)
        best = min(best, (min(gap(h, box) for h in hand), name))
    if best[1]:
        out.update(nearest=best[1], distance_m=round(best[0], 4))
    return out


async def add_clearance(ctx: CallContext, held: str | None, outcome: Outcome) -> None:
    """Add ``clearance`` and one sentence to a motion's outcome that ended at a known pose."""
    pose = outcome.structured.get('final_pose')
    if not pose:
        return
    p, q = pose['position_m'], pose['quaternion']
    tip = Pose((p['x'], p['y'], p['z']), (q['w'], q['x'], q['y'], q['z']), pose['frame'])
    c = await clearance(ctx, tip, held)
    if c is None:
        return
    outcome.structured['clearance'] = c
    sentence = t('clearance_table', table=fmt(c['table_m'] * 1000.0, 0))
    if 'nearest' in c:
        sentence = t('clearance_nearest', object=c['nearest'],
                     gap=fmt(c['distance_m'] * 1000.0, 0)) + sentence
    outcome.text = outcome.text.rstrip() + ' ' + sentence
