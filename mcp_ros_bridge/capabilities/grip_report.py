"""Slip in arm motions: what happened to the object in the fingers while the arm moved."""

from __future__ import annotations

from typing import Any

from mcp_ros_bridge.backends.port import BackendError, GripperState, GripStatus
from mcp_ros_bridge.capabilities.base import CallContext, fmt, NUM, Outcome, STR
from mcp_ros_bridge.capabilities.memory import SlipPeak
from mcp_ros_bridge.messages import said, t

SLIP_SAID_MM = 0.5  # slip from this size on is said in the text, not only in the numbers
GRIP_REPORT = {'type': 'object', 'description': said('schema_grip'),
               'properties': {'status': {'enum': ['HOLDING', 'LOST']}, 'object': STR,
                              'slip_mm': NUM, 'slip_since_grasp_mm': NUM}}


def forget_slip(ctx: CallContext) -> None:
    """Start a new grasp's slip record (a grasp or release call)."""
    ctx.memory.slip = None


def slip_since_grasp(ctx: CallContext, state: GripperState) -> float | None:
    """
    Return the largest slip (m) of the held object since its grasp: a running maximum.

    The backend's reading is the object's offset in the hand now, which can shrink when
    it settles back; what has slipped once is kept, so the figure never goes down.
    """
    if state.slip_m is None:
        return None
    name = state.object_name or ''
    kept = ctx.memory.slip
    peak = max(state.slip_m, kept.peak_m if kept is not None and kept.name == name else 0.0)
    ctx.memory.slip = SlipPeak(name, peak)
    return float(peak)


async def held_before(ctx: CallContext) -> GripperState | None:
    """Return the gripper state when it holds an object, else None (also when unreadable)."""
    try:
        state = await ctx.backend.gripper_state()
    except BackendError:
        return None
    return state if state.status is GripStatus.HOLDING else None


async def add_grip_report(ctx: CallContext, before: GripperState, outcome: Outcome) -> None:
    """Add ``grip`` (status, slip in this motion) and one sentence to a motion's outcome."""
    try:
        after = await ctx.backend.gripper_state()
    except BackendError as exc:
        outcome.text += t('grip_unchecked', message=exc.message)
        return
    start = slip_since_grasp(ctx, before) or 0.0
    total = max(start, slip_since_grasp(ctx, after) or 0.0)
    slip_mm = max(0.0, (after.slip_m or 0.0) - (before.slip_m or 0.0)) * 1000
    grip: dict[str, Any] = {'status': 'LOST' if after.status is GripStatus.LOST else 'HOLDING',
                            'slip_mm': round(slip_mm, 2),
                            'slip_since_grasp_mm': round(total * 1000, 2)}
    if before.object_name:
        grip['object'] = before.object_name
    outcome.structured['grip'] = grip
    name = before.object_name or t('grip_unnamed')
    if after.status is GripStatus.LOST:
        outcome.text += t('grip_lost', object=name)
    elif slip_mm >= SLIP_SAID_MM:
        outcome.text += t('grip_slipped', object=name, slip=fmt(slip_mm, 1),
                          method=after.slip_method)
    else:
        outcome.text += t('grip_stayed', object=name, slip=fmt(slip_mm, 2))
