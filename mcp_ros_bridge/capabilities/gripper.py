"""Gripper capabilities: force-controlled grasp, release, closing and the gripper-state read."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mcp_ros_bridge.backends.port import (BackendError, GraspGoal, GripperState, GripResult,
                                          GripStatus, ReleaseGoal)
from mcp_ros_bridge.capabilities.base import (BOOL, CallContext, fmt, Kind, MOTION, NUM, Outcome,
                                              output_schema, READ_ONLY, STR)
from mcp_ros_bridge.capabilities.grip_report import forget_slip, slip_since_grasp
from mcp_ros_bridge.catalog.bindings import GraspBinding, ReleaseBinding
from mcp_ros_bridge.failure import Failure
from mcp_ros_bridge.messages import t

FORCE_SOURCE = {'enum': ['measured', 'commanded']}
GRIP_OUTPUT = output_schema({
    'status': {'enum': ['HOLDING', 'EMPTY', 'OPEN', 'CLOSED', 'BLOCKED', 'STOPPED', 'TIMED_OUT',
                        'FAILED']},
    'message': STR, 'width_m': NUM, 'force_n': NUM, 'object_held': BOOL,
    'duration_s': NUM, 'requested_force_n': NUM, 'force_source': FORCE_SOURCE,
}, ['status', 'message', 'width_m', 'force_n', 'object_held'])
STATE_OUTPUT = output_schema({
    'status': {'enum': ['HOLDING', 'LOST', 'EMPTY', 'OPEN']}, 'width_m': NUM, 'force_n': NUM,
    'force_source': FORCE_SOURCE, 'slip_mm': NUM, 'slip_method': STR, 'object': STR,
}, ['status', 'width_m', 'force_n', 'force_source'])


def _grip_dict(r: GripResult) -> dict[str, Any]:
    return {'status': r.status.value, 'message': r.message, 'width_m': round(r.width_m, 5),
            'force_n': round(r.force_n, 2), 'object_held': r.object_held,
            'duration_s': round(r.duration_s, 3), 'force_source': r.force_source}


def _force_text(force_n: float, source: str) -> str:
    key = 'grip_force_commanded' if source == 'commanded' else 'grip_force_measured'
    return t(key, force=fmt(force_n, 1))


async def run_grasp(ctx: CallContext, args: dict[str, Any]) -> Outcome:
    """Close until contact and regulate the grip force (re-regulate when already holding)."""
    strategy = args['strategy']
    goal = GraspGoal(force_n=float(args['force_n']),
                     speed_mps=ctx.bound(GraspBinding).strategies[strategy],
                     timeout_s=float(args['timeout_s']))
    forget_slip(ctx)
    r = await ctx.backend.grasp(goal, ctx.progress)
    s = _grip_dict(r) | {'requested_force_n': goal.force_n}
    force, gap = _force_text(r.force_n, r.force_source), fmt(r.width_m * 1000, 1)
    if r.status is GripStatus.HOLDING:
        return Outcome(t('grasp_holding', gap=gap, force=force,
                         requested=fmt(goal.force_n, 1)), s)
    if r.status is GripStatus.EMPTY:
        return Outcome(t('grasp_empty', gap=gap), s, Failure(r.status.value, r.message))
    held = t('grasp_still_squeezing') if r.object_held else ''
    return Outcome(t('grasp_ended', status=r.status, message=r.message, gap=gap, force=force)
                   + held, s, Failure(r.status.value, r.message))


async def run_release(ctx: CallContext, args: dict[str, Any]) -> Outcome:
    """Open the gripper."""
    bound = ctx.bound(ReleaseBinding)
    goal = ReleaseGoal(width_m=float(args['width_m']), speed_mps=bound.speed_mps,
                       timeout_s=bound.timeout_s)
    forget_slip(ctx)
    r = await ctx.backend.release(goal, ctx.progress)
    s = _grip_dict(r)
    if r.status is GripStatus.OPEN:
        return Outcome(t('release_open', gap=fmt(r.width_m * 1000, 1)), s)
    return Outcome(t('release_ended', status=r.status, message=r.message), s,
                   Failure(r.status.value, r.message))


CLOSE_TOLERANCE_M = 0.002  # a gap this close to the target counts as reached
EASE_OFF_M = 0.004  # blocked fingers open back by this much, so they stop squeezing


async def run_close_gripper(ctx: CallContext, args: dict[str, Any]) -> Outcome:
    """Close the empty gripper to a gap (0: fully) under position control: not a grasp."""
    state = await ctx.backend.gripper_state()
    if state.status is GripStatus.HOLDING:
        name = state.object_name or t('grip_unnamed')
        raise BackendError('GRIPPER_HOLDING', t('close_holding', object=name),
                           advice=t('close_holding_fix'), details={'field': 'gripper'})
    bound = ctx.bound(ReleaseBinding)
    target = float(args['width_m'])
    forget_slip(ctx)
    r = await ctx.backend.release(ReleaseGoal(width_m=target, speed_mps=bound.speed_mps,
                                              timeout_s=bound.timeout_s), ctx.progress)
    s = _grip_dict(r)
    gap = fmt(r.width_m * 1000, 1)
    if r.status is GripStatus.OPEN and r.width_m <= target + CLOSE_TOLERANCE_M:
        text = t('close_closed', gap=gap)
        return Outcome(text, s | {'status': 'CLOSED', 'message': text})
    if r.status in (GripStatus.OPEN, GripStatus.TIMED_OUT) and r.width_m > target:
        # Position control squeezes what blocks it: ease off to just around it.
        eased = min(ctx.robot.gripper_max_width_m, r.width_m + EASE_OFF_M)
        back = await ctx.backend.release(ReleaseGoal(width_m=eased, speed_mps=bound.speed_mps,
                                                     timeout_s=bound.timeout_s), ctx.progress)
        text = t('close_blocked', gap=gap, target=fmt(target * 1000, 1),
                 eased=fmt(back.width_m * 1000, 1))
        return Outcome(text, _grip_dict(back) | {'status': 'BLOCKED', 'message': text},
                       Failure('BLOCKED', text, details={'blocked_at_m': round(r.width_m, 5),
                                                         'target_width_m': target}))
    return Outcome(t('close_ended', status=r.status, message=r.message), s,
                   Failure(r.status.value, r.message))


def state_dict(g: GripperState) -> dict[str, Any]:
    """Return the structured gripper state (mm for slip)."""
    s: dict[str, Any] = {'status': g.status.value, 'width_m': round(g.width_m, 5),
                         'force_n': round(g.force_n, 2), 'force_source': g.force_source}
    if g.slip_m is not None:
        s |= {'slip_mm': round(g.slip_m * 1000, 2), 'slip_method': g.slip_method}
    if g.object_name:
        s['object'] = g.object_name
    return s


async def run_gripper_state(ctx: CallContext, args: dict[str, Any]) -> Outcome:
    """Read the gripper: gap, force, what it holds and slip since the grasp."""
    g = await ctx.backend.gripper_state()
    if g.slip_m is not None and g.status is GripStatus.HOLDING:
        g = replace(g, slip_m=slip_since_grasp(ctx, g))
    what = t(f'gripper_{g.status.value.lower()}', object=g.object_name or t('grip_unnamed'))
    slip = ('' if g.slip_m is None else
            t('gripper_slip', slip=fmt(g.slip_m * 1000, 2), method=g.slip_method))
    return Outcome(t('gripper_state', what=what, gap=fmt(g.width_m * 1000, 1),
                     force=_force_text(g.force_n, g.force_source), slip=slip), state_dict(g))


KINDS = [
    Kind('grasp', run_grasp, GRIP_OUTPUT,
         frozenset({'force_n', 'strategy', 'timeout_s', 'idempotency_key'}), MOTION,
         motion=True,
         returns='returns_grasp',
         binding='grasp'),
    Kind('release', run_release, GRIP_OUTPUT, frozenset({'width_m', 'idempotency_key'}),
         MOTION, motion=True,
         returns='returns_release', binding='release'),
    Kind('close_gripper', run_close_gripper, GRIP_OUTPUT,
         frozenset({'width_m', 'idempotency_key'}), MOTION, motion=True,
         returns='returns_close_gripper', binding='release'),
    Kind('gripper_state', run_gripper_state, STATE_OUTPUT, frozenset(), READ_ONLY,
         returns='returns_gripper_state'),
]
