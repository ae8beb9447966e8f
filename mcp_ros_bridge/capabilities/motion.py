"""Motion capabilities: pose, joint and straight-line moves, and stop."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
import itertools
import math
from typing import Any

from mcp_ros_bridge.backends.port import (BackendError, CartesianGoal, JointGoal, MotionGoal,
                                          MotionLimits, MotionResult, MotionStatus, Plan, Pose,
                                          PoseGoal)
from mcp_ros_bridge.capabilities.base import (BOOL, CallContext, fmt, Kind, MOTION, NUM,
                                              Outcome, output_schema, POSE_BRIEF, Runner, STOP,
                                              STR)
from mcp_ros_bridge.capabilities.clearance import add_clearance, CLEARANCE
from mcp_ros_bridge.capabilities.grip_report import add_grip_report, GRIP_REPORT, held_before
from mcp_ros_bridge.capabilities.motion_advice import explain_cone_refusal, is_cone_refusal
from mcp_ros_bridge.capabilities.plan_ids import plan_facts
from mcp_ros_bridge.capabilities.preview import previews_plans, unsupported
from mcp_ros_bridge.capabilities.scene_changes import (add_scene_changes, scene_before,
                                                       SCENE_CHANGES)
from mcp_ros_bridge.catalog.bindings import FrameBinding, PathBinding
from mcp_ros_bridge.failure import Failure
from mcp_ros_bridge.geometry import describe_pose, pose_to_dict, rpy_deg_to_quat
from mcp_ros_bridge.messages import said, t

MOTION_OUTPUT = output_schema({
    'status': {'type': 'string',
               'enum': [s.value for s in MotionStatus if s is not MotionStatus.IDLE]
               + ['PLANNED']},
    'message': STR,
    'final_pose': POSE_BRIEF,
    'joint_positions_rad': {'type': 'object', 'additionalProperties': NUM},
    'duration_s': NUM,
    'fraction': NUM,
    'position_error_mm': NUM,
    'orientation_error_deg': NUM,
    'peak_force_n': {'type': 'number', 'description': said('schema_peak_force')},
    'velocity_scaling': NUM,
    'adjustments': {'type': 'array', 'items': STR},
    'path_length_m': {'type': 'number', 'description': said('schema_path_length')},
    'grip': GRIP_REPORT,
    'scene_changes': SCENE_CHANGES,
    'clearance': CLEARANCE,
    'plan_id': STR,
    'plan': {'type': 'object', 'description': said('schema_plan')},
}, ['status', 'message', 'duration_s'])

Goal = Callable[[MotionLimits], MotionGoal]

STOP_OUTPUT = output_schema({'stopped_motion': BOOL, 'status': STR, 'message': STR},
                            ['stopped_motion', 'status', 'message'])


def motion_limits(ctx: CallContext, args: dict[str, Any]) -> MotionLimits:
    """Build the per-motion limits from the arguments and the robot's limits."""
    lim = ctx.robot.limits
    vel = float(args['velocity_scaling'])
    return MotionLimits(
        velocity_scaling=vel,
        acceleration_scaling=lim.acceleration_scaling(vel),
        contact_force_limit_n=lim.contact_force_limit_n,
        max_cartesian_speed_mps=lim.max_cartesian_speed_mps,
        timeout_s=lim.motion_timeout_s,
    )


def motion_outcome(verb: str, result: MotionResult, limits: MotionLimits, *,
                   target: tuple[float, ...] | None = None,
                   requested_m: float | None = None) -> Outcome:
    """
    Turn a backend motion result into a short text and structured content.

    ``target`` (the commanded fingertip position) gives ``position_error_mm`` where the
    backend reports none; ``requested_m`` (a straight path's length) gives a path that
    ran ``path_length_m`` as length times fraction where the backend traced none.
    """
    s: dict[str, Any] = {'status': result.status.value, 'message': result.message,
                         'duration_s': round(result.duration_s, 3),
                         'fraction': round(result.fraction, 4),
                         'velocity_scaling': limits.velocity_scaling}
    if result.final_pose is not None:
        s['final_pose'] = pose_to_dict(result.final_pose)
    if result.joint_positions:
        s['joint_positions_rad'] = {k: round(v, 5) for k, v in result.joint_positions.items()}
    error_m = result.position_error_m
    if error_m is None and target is not None and result.final_pose is not None:
        error_m = math.dist(result.final_pose.position, target)
    if error_m is not None:
        s['position_error_mm'] = round(error_m * 1000.0, 3)
    travelled = result.details.get('path_length_m')
    if travelled is None and requested_m is not None and result.succeeded:
        travelled = requested_m * result.fraction  # a refused path (PARTIAL) never ran
    if isinstance(travelled, (int, float)):
        s['path_length_m'] = round(float(travelled), 4)
    if result.orientation_error_rad is not None:
        s['orientation_error_deg'] = round(result.orientation_error_rad * 57.29577951308232, 3)
    if result.peak_force_n is not None:
        s['peak_force_n'] = round(result.peak_force_n, 2)
    if result.details.get('adjustments'):
        s['adjustments'] = list(result.details['adjustments'])
    where = (t('motion_now_at', pose=describe_pose(result.final_pose)) if result.final_pose
             else '')
    if result.succeeded:
        text = t('motion_succeeded', verb=verb, duration=fmt(result.duration_s, 2), where=where)
        if 'position_error_mm' in s:
            text += t('motion_position_error', error=fmt(s['position_error_mm'], 2))
        return Outcome(text, s)
    failed = motion_failure(result, s)
    advice = f' {failed.advice}' if result.details.get('advice') else failed.advice
    peak = (t('motion_peak_force', force=fmt(result.peak_force_n, 1))
            if result.peak_force_n is not None else '')
    return Outcome(t('motion_ended', verb=verb, status=result.status, message=result.message,
                     peak=peak, advice=advice, where=where), s, failed)


MEASURED = ('status', 'fraction', 'position_error_mm', 'orientation_error_deg', 'peak_force_n')


def motion_failure(result: MotionResult, structured: dict[str, Any]) -> Failure:
    """Return a failed motion's failure with the backend's JSON facts and the measures."""
    details = {k: v for k, v in result.details.items() if _plain(v)}
    details.update({k: structured[k] for k in MEASURED if k in structured})
    return replace(result.failure, details=details)


def _plain(value: Any) -> bool:
    """Return True for JSON data (what an error block may carry)."""
    if isinstance(value, (list, tuple)):
        return all(map(_plain, value))
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    return value is None or isinstance(value, (str, int, float, bool))


def planned_outcome(verb: str, plan: Plan, plan_id: str, limits: MotionLimits,
                    requested_m: float | None) -> Outcome:
    """Report a plan-only motion: its facts and the plan_id that runs it; nothing moved."""
    fraction = 1.0
    if requested_m:
        fraction = min(1.0, plan.path_length_m / requested_m) if plan.path_length_m else 0.0
    facts = plan_facts(plan)
    s: dict[str, Any] = {'status': 'PLANNED', 'message': t('plan_only_note'),
                         'fraction': round(fraction, 4), 'plan_id': plan_id, 'plan': facts,
                         'duration_s': facts['duration_s'],
                         'path_length_m': facts['path_length_m'],
                         'velocity_scaling': limits.velocity_scaling}
    end = ''
    if plan.tip_poses:
        s['final_pose'] = pose_to_dict(plan.tip_poses[-1])
        end = t('motion_planned_end', pose=describe_pose(plan.tip_poses[-1]))
    return Outcome(t('motion_planned', verb=verb, duration=fmt(plan.duration_s, 2),
                     length=fmt(plan.path_length_m, 3), fraction=f'{fraction:.0%}', end=end,
                     speed=fmt(plan.peak_tip_speed_mps * 1000, 0), plan_id=plan_id), s)


async def run_motion(ctx: CallContext, args: dict[str, Any], verb: str, goal: Goal,
                     requested_m: float | None = None, *,
                     target: tuple[float, ...] | None = None) -> Outcome:
    """
    Plan and run the goal; with ``plan_only`` keep the checked plan and report it.

    A motion that runs reports the held object (``grip``) and the known objects that
    moved or tilted meanwhile (``scene_changes``).
    """
    if isinstance(ctx.approved, Plan):
        return await run_goal(ctx, verb, ctx.approved, requested_m, target)
    limits = motion_limits(ctx, args)
    if args['plan_only']:
        if not await previews_plans(ctx.backend):
            raise unsupported(args)
        plan = await ctx.backend.plan(goal(limits))
        if not plan.executable:  # not executable (PARTIAL): nothing moved
            return motion_outcome(verb, await ctx.backend.execute(plan), limits)
        return planned_outcome(verb, plan, ctx.memory.plans.keep(plan), limits,
                               requested_m)
    return await run_goal(ctx, verb, goal(limits), requested_m, target)


async def run_goal(ctx: CallContext, verb: str, goal: MotionGoal | Plan,
                   requested_m: float | None = None,
                   target: tuple[float, ...] | None = None) -> Outcome:
    """Run a goal (or a kept plan) and report it with the grip and the scene changes."""
    held = await held_before(ctx)
    scene = await scene_before(ctx)
    b = ctx.backend
    if isinstance(goal, Plan):
        result, limits = await b.execute(goal, ctx.progress), goal.goal.limits
    else:
        limits = goal.limits
        result = await (b.move_to_pose(goal, ctx.progress) if isinstance(goal, PoseGoal) else
                        b.move_to_joints(goal, ctx.progress) if isinstance(goal, JointGoal)
                        else b.follow_cartesian_path(goal, ctx.progress))
    outcome = motion_outcome(verb, result, limits, target=target, requested_m=requested_m)
    if held is not None:
        await add_grip_report(ctx, held, outcome)
    await add_scene_changes(ctx, scene, held.object_name if held else None, outcome)
    await add_clearance(ctx, held.object_name if held else None, outcome)
    return outcome


async def run_execute_plan(ctx: CallContext, args: dict[str, Any]) -> Outcome:
    """Run the plan a plan_only motion kept, exactly as planned (once, before it expires)."""
    plan = ctx.memory.plans.take(args['plan_id'])
    return await run_goal(ctx, t('motion_plan'), plan)


async def run_move_to_pose(ctx: CallContext, args: dict[str, Any]) -> Outcome:
    """Move the end effector to a pose given in metres and degrees."""
    p = args['position']
    o = args['orientation']
    q = rpy_deg_to_quat(o['roll'], o['pitch'], o['yaw'])
    frame = ctx.bound(FrameBinding).frame
    target = Pose((p['x'], p['y'], p['z']), q, frame)

    def goal(limits: MotionLimits) -> PoseGoal:
        return PoseGoal(target=target, limits=limits, link=ctx.robot.end_effector)
    try:
        return await run_motion(ctx, args, t('motion_pose'), goal)
    except BackendError as exc:
        if is_cone_refusal(exc):
            explain_cone_refusal(exc, o)
        raise


async def run_move_to_joints(ctx: CallContext, args: dict[str, Any]) -> Outcome:
    """Move the arm to one angle (rad) per arm joint; any other count is refused, never cut."""
    joints, values = ctx.robot.arm_joints, args['positions']
    if len(values) != len(joints):
        example = [round(v, 3) for v in ctx.robot.home]
        raise BackendError('INVALID_ARGUMENTS',
                           t('joints_count', got=len(values), n=len(joints)),
                           advice=t('joints_count_fix', n=len(joints), joints=list(joints),
                                    example=example),
                           details={'field': 'positions', 'got': len(values),
                                    'expected': len(joints)})
    positions = dict(zip(joints, values))

    def goal(limits: MotionLimits) -> JointGoal:
        return JointGoal(positions, limits)
    return await run_motion(ctx, args, t('motion_joints'), goal)


async def run_cartesian_path(ctx: CallContext, args: dict[str, Any]) -> Outcome:
    """Follow straight lines through waypoints, keeping the current orientation."""
    path = ctx.bound(PathBinding)
    frame = path.frame
    current = await ctx.backend.end_effector_pose(frame, ctx.robot.end_effector)
    waypoints = [Pose((w['x'], w['y'], w['z']), current.orientation, frame)
                 for w in args['waypoints']]
    corners = [current.position] + [w.position for w in waypoints]
    length = sum(math.dist(a, b) for a, b in itertools.pairwise(corners))

    def goal(limits: MotionLimits) -> CartesianGoal:
        return CartesianGoal(waypoints=waypoints, limits=limits, link=ctx.robot.end_effector,
                             max_step_m=path.max_step_m,
                             min_fraction=float(args['min_fraction']))
    return await run_motion(ctx, args, t('motion_path'), goal, length,
                            target=tuple(waypoints[-1].position))


async def run_stop(ctx: CallContext, args: dict[str, Any]) -> Outcome:
    """Cancel whatever moves and hold; idempotent."""
    result = await ctx.backend.stop()
    stopped = ctx.preempted or result.status is MotionStatus.STOPPED
    content = {'stopped_motion': stopped, 'status': result.status.value,
               'message': result.message}
    if result.status is MotionStatus.FAILED:  # the backend could not confirm the arm is still
        return Outcome(t('stop_unconfirmed', message=result.message,
                         advice=result.details.get('advice', '')), content,
                       Failure(result.status.value, result.message))
    if stopped and result.status is MotionStatus.IDLE:
        # A motion call was queued or planning: it ended before the arm moved.
        content.update(status=MotionStatus.STOPPED.value, message=t('stop_before_motion_note'))
        return Outcome(t('stop_before_motion'), content)
    return Outcome(t('stop_stopped' if stopped else 'stop_idle'), content)


MOTION_PARAMS = frozenset({'velocity_scaling', 'idempotency_key', 'plan_only'})


def arm_motion(name: str, run: Runner, params: set[str], binding: str = 'none') -> Kind:
    """Return an arm motion kind: motion result, shared motion parameters plus ``params``."""
    return Kind(name, run, MOTION_OUTPUT, MOTION_PARAMS | params, MOTION, motion=True,
                returns=f'returns_{name}', binding=binding, plans=True)


KINDS = [
    arm_motion('move_to_pose', run_move_to_pose, {'position', 'orientation'}, 'frame'),
    arm_motion('move_to_joints', run_move_to_joints, {'positions'}),
    arm_motion('cartesian_path', run_cartesian_path, {'waypoints', 'min_fraction'}, 'path'),
    Kind('execute_plan', run_execute_plan, MOTION_OUTPUT, frozenset({'plan_id'}), MOTION,
         motion=True, returns='returns_execute_plan'),
    Kind('stop', run_stop, STOP_OUTPUT, frozenset(), STOP, preempts=True,
         returns='returns_stop'),
]
