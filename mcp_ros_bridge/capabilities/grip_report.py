"""Slip in arm motions: what happened to the object in the fingers while the arm moved."""

from __future__ import annotations

from typing import Any

from mcp_ros_bridge.backends.port import BackendError, GripperState, GripStatus
from mcp_ros_bridge.capabilities.base import CallContext, fmt, NUM, Outcome, STR
from mcp_ros_bridge.messages import t

SLIP_SAID_MM = 0.5  # slip from this size on is said in the text, not only in the numbers
GRIP_REPORT = {'type': 'object', 'description': 'the held object; slip_mm: in this motion',
               'properties': {'status': {'enum': ['HOLDING', 'LOST']}, 'object': STR,
                              'slip_mm': NUM, 'slip_since_grasp_mm': NUM}}


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
    total = after.slip_m or 0.0
    slip_mm = max(0.0, total - (before.slip_m or 0.0)) * 1000
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
