"""Gripper capabilities: force-controlled grasp and release."""

from __future__ import annotations

from typing import Any

from mcp_ros_bridge.backends.port import GraspGoal, GripResult, GripStatus, ReleaseGoal
from mcp_ros_bridge.capabilities.base import (BOOL, CallContext, fmt, Kind, MOTION, NUM, Outcome,
                                              output_schema, STR)

GRIP_OUTPUT = output_schema({
    'status': STR, 'message': STR, 'width_m': NUM, 'force_n': NUM, 'object_held': BOOL,
    'reached_goal': BOOL, 'stalled': BOOL, 'duration_s': NUM, 'requested_force_n': NUM,
    'force_source': {'enum': ['measured', 'commanded']},
}, ['status', 'message', 'width_m', 'force_n', 'object_held'])


def _grip_dict(r: GripResult) -> dict[str, Any]:
    return {'status': r.status.value, 'message': r.message, 'width_m': round(r.width_m, 5),
            'force_n': round(r.force_n, 2), 'object_held': r.object_held,
            'reached_goal': r.reached_goal, 'stalled': r.stalled,
            'duration_s': round(r.duration_s, 3), 'force_source': r.force_source}


def _force_text(r: GripResult) -> str:
    if r.force_source == 'commanded':
        return f'commanded effort {fmt(r.force_n, 1)} N (this gripper measures no force)'
    return f'grip force {fmt(r.force_n, 1)} N'


async def run_grasp(ctx: CallContext, args: dict[str, Any]) -> Outcome:
    """Close until contact and regulate the grip force."""
    strategy = args['strategy']
    speeds = ctx.binding.get('strategies', {})
    goal = GraspGoal(force_n=float(args['force_n']),
                     speed_mps=float(speeds.get(strategy, 0.05)),
                     timeout_s=float(args['timeout_s']))
    r = await ctx.backend.grasp(goal, ctx.progress)
    s = _grip_dict(r) | {'requested_force_n': goal.force_n}
    if r.succeeded and r.object_held:
        return Outcome(f'Holding an object: finger gap {fmt(r.width_m * 1000, 1)} mm, '
                       f'{_force_text(r)} (requested {fmt(goal.force_n, 1)} N).', s)
    if not r.object_held and r.status in (GripStatus.SUCCEEDED, GripStatus.NO_OBJECT):
        return Outcome(
            f'No object: the fingers closed to {fmt(r.width_m * 1000, 1)} mm without '
            'touching anything. Open with release_object, move the gripper so the object is '
            'between the fingers (check with get_object_pose), then grasp again.', s,
            is_error=True, error_code='NO_OBJECT')
    return Outcome(f'Grasp ended with {r.status}: {r.message}. Finger gap '
                   f'{fmt(r.width_m * 1000, 1)} mm, {_force_text(r)}.', s,
                   is_error=True)


async def run_release(ctx: CallContext, args: dict[str, Any]) -> Outcome:
    """Open the gripper."""
    goal = ReleaseGoal(width_m=float(args['width_m']))
    r = await ctx.backend.release(goal, ctx.progress)
    s = _grip_dict(r)
    if r.succeeded:
        return Outcome(f'Gripper open: finger gap {fmt(r.width_m * 1000, 1)} mm'
                       + ('; something is still held.' if r.object_held else '.'), s)
    return Outcome(f'Release ended with {r.status}: {r.message}.', s, is_error=True)


KINDS = [
    Kind('grasp', run_grasp, GRIP_OUTPUT,
         frozenset({'force_n', 'strategy', 'timeout_s', 'idempotency_key'}), MOTION,
         motion=True,
         returns='the finger gap (m), the measured grip force (N) and whether an object is held'),
    Kind('release', run_release, GRIP_OUTPUT, frozenset({'width_m', 'idempotency_key'}),
         MOTION, motion=True,
         returns='the reached finger gap (m)'),
]
