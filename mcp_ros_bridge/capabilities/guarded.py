"""The guarded move: a straight approach that stops on contact and says where and how hard."""

from __future__ import annotations

from dataclasses import replace
import math
from typing import Any

from mcp_ros_bridge.backends.port import (BackendError, GuardedGoal, MotionLimits, MotionResult,
                                          MotionStatus)
from mcp_ros_bridge.capabilities.base import (CallContext, fmt, Kind, MOTION, NUM, Outcome,
                                              output_schema, POSE_BRIEF, STR, XYZ)
from mcp_ros_bridge.capabilities.grip_report import held_before
from mcp_ros_bridge.capabilities.motion import motion_failure
from mcp_ros_bridge.capabilities.scene_changes import (add_scene_changes, scene_before,
                                                       SCENE_CHANGES)
from mcp_ros_bridge.geometry import describe_pose, pose_to_dict
from mcp_ros_bridge.messages import said, t
from transforms3d.quaternions import rotate_vector

DIRECTIONS: dict[str, tuple[float, float, float]] = {
    'down': (0.0, 0.0, -1.0), 'up': (0.0, 0.0, 1.0), 'forward': (1.0, 0.0, 0.0),
    'backward': (-1.0, 0.0, 0.0), 'left': (0.0, 1.0, 0.0), 'right': (0.0, -1.0, 0.0)}
ALONG_FINGERS = 'along_fingers'  # the tool's z axis, wherever the fingers point
# CONTACT: the fingers (or the held object) touched; HAND_CONTACT/ARM_CONTACT: another part did
ENDS = ['CONTACT', 'HAND_CONTACT', 'ARM_CONTACT', 'NO_CONTACT', 'STOPPED', 'FAILED', 'TIMED_OUT']
ENDED_BY = ['contact', 'distance', 'workspace', 'path', 'stop', 'timeout', 'failure']
PARTS = ['fingers', 'held_object', 'hand', 'arm']
GOOD_PARTS = ('fingers', 'held_object')
PRESSING_N = 0.5  # below this residual contact force at rest the hand no longer presses
CONTACT_SCHEMA = {'type': 'object', 'properties': {
    'force_n': {'type': 'number', 'description': said('schema_stop_force')},
    'height_m': NUM, 'point_m': XYZ, 'tip_m': XYZ, 'travelled_m': NUM,
    'point_source': STR,
    'body': {'type': 'string', 'description': said('schema_contact_body')},
    'by': {'type': 'string', 'enum': PARTS, 'description': said('schema_contact_by')},
    'by_fingers': {'type': 'boolean', 'description': said('schema_contact_by_fingers')},
    'by_body': STR,
    'from_tip_m': {'type': 'number', 'description': said('schema_contact_from_tip')},
    'backed_off_m': {'type': 'number', 'description': said('schema_contact_backed_off')},
    'rest_force_n': {'type': 'number', 'description': said('schema_contact_rest_force')}}}
GUARDED_OUTPUT = output_schema({
    'status': {'type': 'string', 'enum': ENDS}, 'message': STR, 'contact': CONTACT_SCHEMA,
    'ended_by': {'type': 'string', 'enum': ENDED_BY, 'description': said('schema_ended_by')},
    'travelled_m': NUM, 'final_pose': POSE_BRIEF, 'stop_latency_s': NUM,
    'peak_force_n': {'type': 'number', 'description': said('schema_guarded_peak')},
    'path_limited_by': {'type': 'string', 'description': said('schema_path_limited_by')},
    'line_m': {'type': 'number', 'description': said('schema_guarded_line')},
    'duration_s': NUM, 'scene_changes': SCENE_CHANGES,
}, ['status', 'message', 'ended_by', 'travelled_m', 'duration_s'])
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


def _contact(c: dict[str, Any], travelled_m: float) -> dict[str, Any]:
    """Return the contact's facts for the agent: where, how hard, what touched what, after."""
    out = {'force_n': c['force_n'], 'height_m': round(c['point_m']['z'], 4) + 0.0,
           'point_m': c['point_m'], 'tip_m': c['tip_m'],
           'travelled_m': round(c['travelled_m'], 4), 'point_source': c['point_source'],
           'backed_off_m': round(max(0.0, c['travelled_m'] - travelled_m), 4)}
    if c.get('by'):
        out.update(body=c['body'], by=c['by'], by_fingers=c['by'] in GOOD_PARTS,
                   by_body=c['by_body'])
    if c['point_source'] == 'physics':
        out['from_tip_m'] = round(math.dist([c['point_m'][k] for k in 'xyz'],
                                            [c['tip_m'][k] for k in 'xyz']), 4)
    if 'rest_force_n' in c:
        out['rest_force_n'] = c['rest_force_n']
    return out


def _ended_by(status: str, limited_by: str) -> str:
    """Return what ended the move: a contact, the distance, the workspace, the path or a stop."""
    if status.endswith('CONTACT') and status != 'NO_CONTACT':
        return 'contact'
    if status == 'NO_CONTACT':
        return 'workspace' if limited_by == 'workspace' else 'path' if limited_by else 'distance'
    return {'STOPPED': 'stop', 'TIMED_OUT': 'timeout'}.get(status, 'failure')


def contact_report(result: MotionResult) -> dict[str, Any]:
    """Return the structured facts of a guarded move: end, contact, distance, latency."""
    d = result.details
    touched = result.status is MotionStatus.CONTACT_ABORT
    travelled = round(float(d.get('travelled_m', 0.0)), 4)
    c = dict(result.contact or {})
    by = str(c.get('by') or 'fingers')
    status = (('CONTACT' if by in GOOD_PARTS else f'{by.upper()}_CONTACT') if touched
              else 'NO_CONTACT' if result.succeeded else result.status.value)
    limited = str(d.get('path_limited_by') or '')
    s: dict[str, Any] = {
        'status': status, 'message': result.message, 'ended_by': _ended_by(status, limited),
        'travelled_m': travelled, 'duration_s': round(result.duration_s, 3)}
    if result.final_pose is not None:
        s['final_pose'] = pose_to_dict(result.final_pose)
    if touched and 'point_m' in c:
        s['contact'] = _contact(c, travelled)
    latency = [d[k] for k in ('reaction_s', 'still_after_halt_s', 'halt_waited_s') if k in d]
    if latency:
        s['stop_latency_s'] = round(sum(latency), 4)
    if result.peak_force_n is not None:
        s['peak_force_n'] = round(float(result.peak_force_n), 2)
    if limited:
        s['path_limited_by'] = limited
    line = d.get('line_m', d.get('path_length_m'))
    if line is not None:
        s['line_m'] = round(float(line), 4)
    return s


def _after(c: dict[str, Any]) -> str:
    """Return what the arm does after the stop: backed off or holding, still pressing or not."""
    back = c['backed_off_m']
    text = (t('guarded_backed_off', back=fmt(back * 1000.0, 1)) if back >= 0.0001
            else t('guarded_holds'))
    if 'rest_force_n' not in c:  # not measured (one wrist sensor)
        return text
    rest = float(c['rest_force_n'])
    return text + (t('guarded_pressing', force=fmt(rest, 1)) if rest >= PRESSING_N
                   else t('guarded_not_pressing'))


def guarded_outcome(result: MotionResult) -> Outcome:
    """Turn a guarded move's result into the agent's text: where it touched, or why not."""
    s = contact_report(result)
    where = t('motion_now_at', pose=describe_pose(result.final_pose)) if result.final_pose \
        else ''
    c = s.get('contact')
    if s['ended_by'] == 'contact' and c is None:
        return Outcome(t('guarded_contact_unlocated', message=result.message, where=where), s)
    if s['status'] == 'CONTACT':
        assert c is not None
        peak = max(float(s.get('peak_force_n', 0.0)), float(c['force_n']))
        who = (t(f"guarded_by_{c['by']}", body=c['body']) if 'by' in c
               else t('guarded_by_unknown'))
        return Outcome(t('guarded_contact', who=who, force=fmt(c['force_n'], 1),
                         height=fmt(c['height_m'], 4), travelled=fmt(c['travelled_m'], 4),
                         peak=fmt(peak, 1), after=_after(c), where=where), s)
    if c is not None:  # the hand or an arm link touched, not the fingers
        text = t('guarded_other_part', status=s['status'], part=t(f"guarded_part_{c['by']}"),
                 link=c['by_body'], body=c['body'], height=fmt(c['height_m'], 4),
                 off=fmt(c.get('from_tip_m', 0.0), 3), tip=fmt(c['tip_m']['z'], 4),
                 force=fmt(c['force_n'], 1), after=_after(c), where=where)
        return Outcome(text + ' ' + t('guarded_other_part_fix', body=c['body']), s,
                       replace(motion_failure(result, s), code=s['status']))
    if s['status'] == 'NO_CONTACT':
        limit = t('guarded_limited', by=s['path_limited_by']) if 'path_limited_by' in s else ''
        peak = float(s.get('peak_force_n', 0.0))
        if peak >= TOUCHED_N:
            return Outcome(t('guarded_no_contact_touched', travelled=fmt(s['travelled_m'], 4),
                             peak=fmt(peak, 1), limit=limit, where=where), s)
        return Outcome(t('guarded_no_contact', travelled=fmt(s['travelled_m'], 4),
                         limit=limit, where=where), s)
    failed = motion_failure(result, s)
    return Outcome(t('guarded_ended', status=s['status'], message=result.message,
                     advice=failed.advice, where=where), s, failed)


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
