"""
The push job: slide a known object a distance across the table, touching only that object.

Steps over the port: check (the arguments, the way and every pose; nothing
moves), close (the empty gripper, under position control as close_gripper
does), above (over the side opposite the push), descend (to the push height,
fingertips leading: push_plan.py), push (one guarded line of gap + distance in
which contact with the object is allowed up to ``max_force_n``; any other
contact stops it), retreat (back off, then up) and verify (from the object's
pose: how far it moved along the direction, sideways, its tilt, and whether it fell
off the table's edge).
"""

from __future__ import annotations

from dataclasses import replace
import math
from typing import Any

from mcp_ros_bridge.backends.port import (BackendError, CartesianGoal, GripStatus,
                                          MotionLimits, MotionStatus, Pose, PoseGoal,
                                          ReleaseGoal)
from mcp_ros_bridge.capabilities.base import (CallContext, fmt, Kind, MOTION, NUM, Outcome,
                                              output_schema)
from mcp_ros_bridge.capabilities.gripper import CLOSE_TOLERANCE_M
from mcp_ros_bridge.capabilities.guarded import approach
from mcp_ros_bridge.capabilities.jobs import (Job, JOB_FIELDS, refuse_while_holding,
                                              StepFailed)
from mcp_ros_bridge.capabilities.push_plan import check_push, plan_push
from mcp_ros_bridge.capabilities.scene_changes import (add_scene_changes, scene_before,
                                                       SCENE_CHANGES, tilt_deg)
from mcp_ros_bridge.messages import said, t

PUSH_STEPS = ['check', 'close', 'above', 'descend', 'push', 'retreat', 'verify']
PUSH_SPEED_MPS = 0.01  # the contact's force grows with speed: 0.02 m/s doubles the peak
# (and never above limits.max_guarded_speed_mps, the guarded line's impact bound)
OTHER_CONTACT_N = 5.0   # any contact but the pushed object's stops the line above this
TOLERANCE_M, TIPPED_DEG, FELL_M = 0.01, 5.0, 0.02  # FELL: its centre this much lower
BACK_OFF_M, RETREAT_M = 0.005, 0.08
GRIP_SPEED_MPS, GRIP_TIMEOUT_S, STEP_M = 0.05, 10.0, 0.005
PUSH_OUTPUT = output_schema({
    **JOB_FIELDS, 'status': {'enum': ['PUSHED', 'SHORT', 'LONG', 'TIPPED', 'FELL', 'FAILED']},
    'moved_m': NUM, 'dropped_m': NUM, 'lateral_m': NUM, 'tilt_deg': NUM, 'push_force_n': {
        'type': 'number', 'description': said('schema_push_force')},
    'scene_changes': SCENE_CHANGES}, ['status', 'message', 'steps_done'])


def _limits(ctx: CallContext) -> MotionLimits:
    lim = ctx.robot.limits
    vel = lim.default_velocity_scaling
    return MotionLimits(vel, lim.acceleration_scaling(vel), lim.contact_force_limit_n,
                        lim.max_cartesian_speed_mps, lim.motion_timeout_s)


async def _line(ctx: CallContext, job: Job, xyz: tuple[float, float, float],
                q: tuple[float, float, float, float]) -> None:
    goal = CartesianGoal([Pose(xyz, q, ctx.robot.base_frame)], _limits(ctx),
                         link=ctx.robot.end_effector, max_step_m=STEP_M)
    await job.moved(await ctx.backend.follow_cartesian_path(goal, job.sub))


def measured(start: Pose, now: Pose, unit: tuple[float, float, float]) -> dict[str, float]:
    """Return how far the object moved along ``unit``, to its left, and how far it tilted."""
    dx, dy = now.position[0] - start.position[0], now.position[1] - start.position[1]
    return {'moved_m': round(dx * unit[0] + dy * unit[1], 4),
            'lateral_m': round(dy * unit[0] - dx * unit[1], 4),
            'tilt_deg': round(tilt_deg(start, now), 1)}


async def _close(ctx: CallContext, job: Job) -> None:
    """Close the empty fingers (position control: nothing held is no error)."""
    r = await ctx.backend.release(ReleaseGoal(0.0, GRIP_SPEED_MPS, GRIP_TIMEOUT_S), job.sub)
    job.took(r.duration_s)
    if r.status is not GripStatus.OPEN or r.width_m > CLOSE_TOLERANCE_M:
        raise BackendError('BLOCKED', t('push_not_closed', gap=fmt(r.width_m * 1000, 1)),
                           advice=t('push_not_closed_fix'))


async def _push_line(ctx: CallContext, job: Job, name: str, unit: tuple[float, float, float],
                     line_m: float, cap: float) -> None:
    speed = min(PUSH_SPEED_MPS, ctx.robot.limits.max_guarded_speed_mps)
    r = await approach(ctx, unit, line_m, speed, OTHER_CONTACT_N, job.sub,
                       push_object=name, push_cap_n=cap)
    job.took(r.duration_s)
    peak = r.details.get('push_peak_force_n', r.peak_force_n)
    if peak is not None:
        job.structured['push_force_n'] = round(float(peak), 2)
    contact = dict(r.contact or {})
    if r.status is MotionStatus.CONTACT_ABORT and contact.get('cause') == 'push_cap':
        limit = ctx.robot.limits.contact_force_limit_n
        raise BackendError('FORCE_CAP', t('push_cap_hit', cap=fmt(cap, 2), object=name,
                                          how=r.message),
                           advice=t('push_cap_fix', limit=fmt(limit, 1)),
                           details={'field': 'max_force_n', 'allowed': f'<= {limit:g}'})
    if r.status is MotionStatus.CONTACT_ABORT:
        raise BackendError('CONTACT_ABORT', r.message, advice=t('push_contact_fix'),
                           details={'pairs': contact.get('pairs', {})})
    await job.moved(r)


async def run_push_object(ctx: CallContext, args: dict[str, Any]) -> Outcome:
    """Push a known object ``distance_m`` along a direction of the base frame."""
    name, direction = args['object'], args['direction']
    distance, cap = float(args['distance_m']), float(args['max_force_n'])
    b, base = ctx.backend, ctx.robot.base_frame
    job = Job(ctx, 'push_object', PUSH_STEPS)
    job.structured['object'] = name
    scene: dict[str, Pose] = {}
    try:
        async with job.step('check'):
            await refuse_while_holding(ctx, 'push_holding_fix')
            start = await b.object_pose(name, base)
            scene = await scene_before(ctx)
            check_push(ctx.robot, name, start, direction, distance,
                       {n: p for n, p in scene.items() if n != name})
            plan = plan_push(ctx.robot, name, start, direction, distance)
        async with job.step('close'):
            await _close(ctx, job)
        async with job.step('above'):
            await job.moved(await b.move_to_pose(PoseGoal(
                Pose(plan.above, plan.orientation, base), _limits(ctx),
                link=ctx.robot.end_effector), job.sub))
        async with job.step('descend'):
            await _line(ctx, job, plan.start, plan.orientation)
        async with job.step('push'):
            await _push_line(ctx, job, name, plan.unit, plan.line_m, cap)
        async with job.step('retreat'):
            now = (await b.end_effector_pose(base, ctx.robot.end_effector)).position
            u = plan.unit
            back = (now[0] - u[0] * BACK_OFF_M, now[1] - u[1] * BACK_OFF_M, now[2])
            await _line(ctx, job, back, plan.orientation)
            await _line(ctx, job, (back[0], back[1], back[2] + RETREAT_M), plan.orientation)
        async with job.step('verify'):
            await _verify(ctx, job, name, start, plan.unit, distance)
    except StepFailed as failed:
        outcome = job.outcome(failed)
        if failed.failure.code in ('SHORT', 'LONG', 'TIPPED', 'FELL'):  # it ran; it is off
            outcome.structured['status'] = failed.failure.code
        if 'descend' in job.done and 'moved_m' not in outcome.structured:  # it may have moved
            await _measure(ctx, name, scene.get(name), plan.unit, outcome)
        await add_scene_changes(ctx, scene, None, outcome, intended=name)
        return outcome
    s = job.structured
    text = t('push_done', object=name, moved=fmt(s['moved_m'] * 1000, 1),
             distance=fmt(distance * 1000, 1), lateral=fmt(s['lateral_m'] * 1000, 1),
             tilt=fmt(s['tilt_deg'], 1))
    s.update(status='PUSHED', steps_done=job.done, message=text)
    outcome = Outcome(text, s)
    await add_scene_changes(ctx, scene, None, outcome, intended=name)
    return outcome


async def _measure(ctx: CallContext, name: str, start: Pose | None,
                   unit: tuple[float, float, float], outcome: Outcome) -> None:
    """Add where a failed push left the object (when its pose can be read)."""
    try:
        now = await ctx.backend.object_pose(name, ctx.robot.base_frame)
    except BackendError:
        return
    if start is None:
        return
    m = measured(start, now, unit)
    if m['tilt_deg'] >= TIPPED_DEG:  # whatever stopped it, the object is left tipped
        outcome.structured['status'] = 'TIPPED'
    outcome.structured.update(m)
    if outcome.failure is not None:
        outcome.failure = replace(outcome.failure, details={**outcome.failure.details, **m})
    outcome.text += t('push_so_far', object=name, moved=fmt(m['moved_m'] * 1000, 1),
                      lateral=fmt(m['lateral_m'] * 1000, 1), tilt=fmt(m['tilt_deg'], 1))


async def _verify(ctx: CallContext, job: Job, name: str, start: Pose,
                  unit: tuple[float, float, float], distance: float) -> None:
    """Check from the object's pose how far it went; a short, long or tipped push fails."""
    now = await ctx.backend.object_pose(name, ctx.robot.base_frame)
    m = measured(start, now, unit)
    job.structured.update(m)
    dropped = round(start.position[2] - now.position[2], 4)
    if dropped > FELL_M:  # off the table's edge
        job.structured['dropped_m'] = dropped
        raise BackendError('FELL', t('push_fell', object=name, dropped=fmt(dropped * 1000, 1),
                                     moved=fmt(m['moved_m'] * 1000, 1)),
                           advice=t('push_fix_FELL'), details={'dropped_m': dropped})
    off = m['moved_m'] - distance
    status = ('TIPPED' if m['tilt_deg'] >= TIPPED_DEG or not math.isfinite(m['tilt_deg'])
              else 'SHORT' if off < -TOLERANCE_M else 'LONG' if off > TOLERANCE_M else '')
    if status:
        raise BackendError(status, t('push_off', object=name, moved=fmt(m['moved_m'] * 1000, 1),
                                     distance=fmt(distance * 1000, 1),
                                     lateral=fmt(m['lateral_m'] * 1000, 1),
                                     tilt=fmt(m['tilt_deg'], 1)),
                           advice=t(f'push_fix_{status}'))


KINDS = [
    Kind('push_object', run_push_object, PUSH_OUTPUT,
         frozenset({'object', 'direction', 'distance_m', 'max_force_n', 'idempotency_key'}),
         MOTION, motion=True, returns='returns_push_object'),
]
