"""
Scene changes in arm motions: which known objects moved or tilted while the arm moved.

The poses come from the backend's object pose source (ground truth in the
simulation, the configured object pose topics on ROS), read before and after the
motion. The held object moves with the hand and is reported under ``grip``, and a
pushed object in its push's own fields, not here.
"""

from __future__ import annotations

from dataclasses import replace
import math
from typing import Any

from mcp_ros_bridge.backends.port import BackendError, Pose
from mcp_ros_bridge.capabilities.base import CallContext, fmt, NUM, Outcome, STR
from mcp_ros_bridge.messages import said, t
import numpy as np
from transforms3d.quaternions import rotate_vector

MOVED_MM = 5.0  # an object that moved at least this far, or
TILTED_DEG = 5.0  # tilted at least this much, is reported
SCENE_CHANGES = {
    'type': 'array',
    'description': said('schema_scene_changes', moved=f'{MOVED_MM:g}', tilted=f'{TILTED_DEG:g}'),
    'items': {'type': 'object', 'required': ['object', 'moved_mm', 'tilted_deg'],
              'properties': {'object': STR, 'moved_mm': NUM, 'tilted_deg': NUM}}}


async def scene_before(ctx: CallContext) -> dict[str, Pose]:
    """Return the pose of every known object the backend can see (none: no source)."""
    poses: dict[str, Pose] = {}
    for name in ctx.robot.objects:
        try:
            poses[name] = await ctx.backend.object_pose(name, ctx.robot.base_frame)
        except BackendError:
            continue
    return poses


def tilt_deg(a: Pose, b: Pose) -> float:
    """Return the angle (deg) between an object's up axis in pose ``a`` and in pose ``b``."""
    up_a = rotate_vector((0.0, 0.0, 1.0), np.asarray(a.orientation, dtype=float))
    up_b = rotate_vector((0.0, 0.0, 1.0), np.asarray(b.orientation, dtype=float))
    return math.degrees(math.acos(max(-1.0, min(1.0, float(np.dot(up_a, up_b))))))


async def add_scene_changes(ctx: CallContext, before: dict[str, Pose], held: str | None,
                            outcome: Outcome, intended: str | None = None) -> None:
    """
    Add ``scene_changes`` (possibly empty) and one sentence per changed object.

    ``intended``: the object the motion was meant to move (a push reports it itself).
    """
    if not before:
        return
    after = await scene_before(ctx)
    changes: list[dict[str, Any]] = []
    for name, pose in before.items():
        if name in (held, intended) or name not in after:
            continue
        moved = math.dist(pose.position, after[name].position) * 1000.0
        tilted = tilt_deg(pose, after[name])
        if moved >= MOVED_MM or tilted >= TILTED_DEG:
            changes.append({'object': name, 'moved_mm': round(moved, 1),
                            'tilted_deg': round(tilted, 1)})
    outcome.structured['scene_changes'] = changes
    if outcome.failure is not None and changes:  # the machine-readable block says it too
        outcome.failure = replace(outcome.failure,
                                  details={**outcome.failure.details, 'scene_changes': changes})
    for c in changes:
        outcome.text += t('scene_changed', object=c['object'], moved=fmt(c['moved_mm'], 1),
                          tilted=fmt(c['tilted_deg'], 1))
