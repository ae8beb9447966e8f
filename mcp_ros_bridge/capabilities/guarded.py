"""The guarded move: a straight approach that stops on contact and says where and how hard."""

from __future__ import annotations

from typing import Any

from mcp_ros_bridge.backends.port import (BackendError, GuardedGoal, MotionLimits, MotionResult,
                                          MotionStatus)
from mcp_ros_bridge.capabilities.base import (CallContext, fmt, Kind, MOTION, NUM, Outcome,
                                              output_schema, POSE_BRIEF, STR, XYZ)
from mcp_ros_bridge.capabilities.grip_report import held_before
from mcp_ros_bridge.capabilities.motion import failure_details
from mcp_ros_bridge.capabilities.scene_changes import (add_scene_changes, scene_before,
                                                       SCENE_CHANGES)
from mcp_ros_bridge.geometry import describe_pose, pose_to_dict
from mcp_ros_bridge.messages import MESSAGES, said, t
from transforms3d.quaternions import rotate_vector

DIRECTIONS: dict[str, tuple[float, float, float]] = {
    'down': (0.0, 0.0, -1.0), 'up': (0.0, 0.0, 1.0), 'forward': (1.0, 0.0, 0.0),
    'backward': (-1.0, 0.0, 0.0), 'left': (0.0, 1.0, 0.0), 'right': (0.0, -1.0, 0.0)}
ALONG_FINGERS = 'along_fingers'  # the tool's z axis, wherever the fingers point
ENDS = ['CONTACT', 'NO_CONTACT', 'STOPPED', 'FAILED', 'TIMED_OUT']
CONTACT_SCHEMA = {'type': 'object', 'properties': {
    'force_n': {'type': 'number', 'description': said('schema_stop_force')},
    'height_m': NUM, 'point_m': XYZ, 'tip_m': XYZ, 'travelled_m': NUM,
    'point_source': STR}}
GUARDED_OUTPUT = output_schema({
    'status': {'type': 'string', 'enum': ENDS}, 'message': STR, 'contact': CONTACT_SCHEMA,
    'travelled_m': NUM, 'final_pose': POSE_BRIEF, 'stop_latency_s': NUM,
    'peak_force_n': {'type': 'number', 'description': said('schema_guarded_peak')},
    'path_limited_by': STR, 'duration_s': NUM, 'scene_changes': SCENE_CHANGES,
}, ['status', 'message', 'travelled_m', 'duration_s'])
TOUCHED_N = 1.0  # a peak force from this up below the threshold is a touch, not "nothing"


def guarded_limits(ctx: CallContext, distance_m: float, speed_mps: float) -> MotionLimits:
    """Return the limits of one approach: the default scaling, a timeout the line fits in."""
    lim = ctx.robot.limits
    vel = lim.default_velocity_scaling
    return MotionLimits(vel, lim.acceleration_scaling(vel), lim.contact_force_limit_n,
                        speed_mps, lim.motion_timeout_s)


def check_duration(ctx: CallContext, distance_m: float, speed_mps: float) -> None:
    """Refuse an approach too slow for the motion timeout; nothing moves."""
    timeout = ctx.robot.limits.motion_timeout_s
    slowest = round((distance_m + 0.01) / (timeout - 2.0), 4)
    fastest = ctx.robot.limits.max_guarded_speed_mps
    if distance_m / speed_mps + 2.0 > timeout:
        raise BackendError('INVALID_ARGUMENTS',
                           t('guarded_too_slow', distance=fmt(distance_m),
                             speed=fmt(speed_mps, 4), timeout=timeout),
                           advice=t('guarded_too_slow_fix', slowest=slowest,
                                    fastest=fmt(fastest, 4)),
                           details={'field': 'speed_mps', 'allowed': f'>= {slowest}'})


async def approach(ctx: CallContext, direction: tuple[float, float, float], distance_m: float,
                   speed_mps: float, force_n: float, progress: Any = None,
                   push_object: str | None = None, push_cap_n: float = 0.0) -> MotionResult:
    """Run one guarded move (or a push) in the base frame through the port and envelope."""
    check_duration(ctx, distance_m, speed_mps)
    goal = GuardedGoal(direction, distance_m, speed_mps, force_n,
                       guarded_limits(ctx, distance_m, speed_mps), frame=ctx.robot.base_frame,
                       link=ctx.robot.end_effector, push_object=push_object,
                       push_force_cap_n=push_cap_n)
    return await ctx.backend.move_until_contact(goal, progress)


def contact_report(result: MotionResult) -> dict[str, Any]:
    """Return the structured facts of a guarded move: end, contact, distance, latency."""
    d = result.details
    touched = result.status is MotionStatus.CONTACT_ABORT
    s: dict[str, Any] = {
        'status': 'CONTACT' if touched else 'NO_CONTACT' if result.succeeded
        else result.status.value, 'message': result.message,
        'travelled_m': round(float(d.get('travelled_m', 0.0)), 4),
        'duration_s': round(result.duration_s, 3)}
    if result.final_pose is not None:
        s['final_pose'] = pose_to_dict(result.final_pose)
    c = dict(result.contact or {})
    if touched and 'point_m' in c:
        s['contact'] = {'force_n': c['force_n'], 'height_m': round(c['point_m']['z'], 4) + 0.0,
                        'point_m': c['point_m'], 'tip_m': c['tip_m'],
                        'travelled_m': round(c['travelled_m'], 4),
                        'point_source': c['point_source']}
    latency = [d[k] for k in ('reaction_s', 'still_after_halt_s', 'halt_waited_s') if k in d]
    if latency:
        s['stop_latency_s'] = round(sum(latency), 4)
    if result.peak_force_n is not None:
        s['peak_force_n'] = round(float(result.peak_force_n), 2)
    if d.get('path_limited_by'):
        s['path_limited_by'] = str(d['path_limited_by'])
    return s


def guarded_outcome(result: MotionResult) -> Outcome:
    """Turn a guarded move's result into the agent's text: where it touched, or why not."""
    s = contact_report(result)
    where = t('motion_now_at', pose=describe_pose(result.final_pose)) if result.final_pose \
        else ''
    if s['status'] == 'CONTACT':
        c = s.get('contact')
        peak = max(float(s.get('peak_force_n', 0.0)), float(c['force_n'])) if c else 0.0
        text = (t('guarded_contact', force=fmt(c['force_n'], 1), height=fmt(c['height_m'], 4),
                  travelled=fmt(c['travelled_m'], 4), peak=fmt(peak, 1), where=where) if c else
                t('guarded_contact_unlocated', message=result.message, where=where))
        return Outcome(text, s)
    if s['status'] == 'NO_CONTACT':
        limit = t('guarded_limited', by=s['path_limited_by']) if 'path_limited_by' in s else ''
        peak = float(s.get('peak_force_n', 0.0))
        if peak >= TOUCHED_N:
            return Outcome(t('guarded_no_contact_touched', travelled=fmt(s['travelled_m'], 4),
                             peak=fmt(peak, 1), limit=limit, where=where), s)
        return Outcome(t('guarded_no_contact', travelled=fmt(s['travelled_m'], 4),
                         limit=limit, where=where), s)
    key = f'motion_advice_{result.status.value}'
    advice = str(result.details.get('advice') or (t(key) if key in MESSAGES else ''))
    return Outcome(t('guarded_ended', status=s['status'], message=result.message,
                     advice=advice, where=where), s, is_error=True,
                   error_code=str(result.details.get('code') or result.status.value),
                   error_details=failure_details(result, s))


async def run_move_until_contact(ctx: CallContext, args: dict[str, Any]) -> Outcome:
    """Approach along a named direction until the contact force passes ``contact_force_n``."""
    name = args['direction']
    if name in DIRECTIONS:
        direction = DIRECTIONS[name]
    else:  # along the fingers: the tool's z axis now
        now = await ctx.backend.end_effector_pose(ctx.robot.base_frame, ctx.robot.end_effector)
        x, y, z = (float(v) for v in rotate_vector((0.0, 0.0, 1.0), now.orientation))
        direction = (x, y, z)
    held = await held_before(ctx)
    scene = await scene_before(ctx)
    result = await approach(ctx, direction, float(args['max_distance_m']),
                            float(args['speed_mps']), float(args['contact_force_n']), ctx.progress)
    outcome = guarded_outcome(result)
    await add_scene_changes(ctx, scene, held.object_name if held else None, outcome)
    return outcome


KINDS = [
    Kind('move_until_contact', run_move_until_contact, GUARDED_OUTPUT,
         frozenset({'direction', 'max_distance_m', 'speed_mps', 'contact_force_n',
                    'idempotency_key'}),
         MOTION, motion=True, returns='returns_move_until_contact'),
]
