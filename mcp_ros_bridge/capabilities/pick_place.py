"""
Pick and place as jobs over the port: every height from the object catalog and the poses.

``pick_object``: open, move above the object, descend to its grasp height, grasp,
lift, check it is held. ``place_object``: lift to a carry height that clears the
other objects, move above the target (a point on the table or the top of a known
object), descend, touch down with a guarded move, release, retreat, check where
the object came to rest. The fingertip reference is the TCP; the table top is
z = 0 of the base frame.
"""

from __future__ import annotations

import math
from typing import Any

from mcp_ros_bridge.backends.port import BackendError, GripStatus, MotionLimits, Pose
from mcp_ros_bridge.capabilities.base import (BOOL, CallContext, fmt, Kind, MOTION, NUM,
                                              Outcome, output_schema)
from mcp_ros_bridge.capabilities.job_preview import planned_job, preview_or_run
from mcp_ros_bridge.capabilities.job_steps import STEP_PLAN, Steps
from mcp_ros_bridge.capabilities.jobs import (Job, JOB_FIELDS, refuse_while_holding,
                                              StepFailed)
from mcp_ros_bridge.capabilities.memory import HeldObject
from mcp_ros_bridge.capabilities.object_heights import face_above_tcp, grasp_z
from mcp_ros_bridge.capabilities.placing import (place_outcome, PlacePlan,
                                                 plan_place, verify_place)
from mcp_ros_bridge.geometry import rpy_deg_to_quat
from mcp_ros_bridge.messages import t
from transforms3d.euler import quat2euler

TOUCH_M = 0.02        # the guarded touch-down starts this far above the place height
OVERSHOOT_M = 0.01    # and may go this far below it
TOUCH_FORCE_N = 5.0

PICK_STEPS = ['check', 'open', 'above', 'descend', 'grasp', 'lift', 'verify']
PLACE_STEPS = ['check', 'lift', 'carry', 'descend', 'touch', 'release', 'retreat', 'verify']
PLANNED = {'plan': STEP_PLAN}
PICK_OUTPUT = output_schema({**JOB_FIELDS, **PLANNED,
                             'status': {'enum': ['HOLDING', 'PLANNED', 'FAILED']},
                             'grasp_z_m': NUM, 'lifted_z_m': NUM},
                            ['status', 'message', 'steps_done'])
PLACE_OUTPUT = output_schema({**JOB_FIELDS, **PLANNED,
                              'status': {'enum': ['PLACED', 'SET_DOWN', 'PLANNED', 'FAILED']},
                              'placed_z_m': NUM, 'contact_height_m': NUM,
                              'error_m': NUM, 'tilt_deg': NUM, 'released': BOOL},
                             ['status', 'message', 'steps_done'])


def _limits(ctx: CallContext, vel: float) -> MotionLimits:
    lim = ctx.robot.limits
    return MotionLimits(vel, lim.acceleration_scaling(vel), lim.contact_force_limit_n,
                        lim.max_cartesian_speed_mps, lim.motion_timeout_s)


def _down(yaw_deg: float) -> tuple[float, float, float, float]:
    """Return fingers pointing straight down, turned by ``yaw_deg``."""
    return rpy_deg_to_quat(180.0, 0.0, yaw_deg)


def _squared(orientation: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """
    Return fingers straight down at the yaw of ``orientation`` (a hand within a few degrees).

    A held object's carry keeps the yaw the pick chose, not the servo's last tenth of a
    degree of tilt: an arm with five joints reaches straight down, not every small tilt.
    """
    roll, pitch, yaw = (math.degrees(a) for a in quat2euler(orientation))
    if abs(abs(roll) - 180.0) > 5.0 or abs(pitch) > 5.0:
        return orientation
    return _down(yaw)


def _finger_yaw(pose: Pose) -> float:
    """Return the finger yaw (deg) that squares the fingers with the object's sides."""
    yaw = math.degrees(quat2euler(pose.orientation)[2])
    return (yaw + 45.0) % 90.0 - 45.0


def refuse_too_wide(ctx: CallContext, name: str) -> None:
    """Refuse an object whose narrowest side is wider than the open finger gap (nothing moves)."""
    objects, gap = ctx.robot.objects, ctx.robot.gripper_max_width_m
    spec = objects.get(name)
    if spec is None or min(spec.size_m[:2]) <= gap:
        return
    fits = [n for n, o in objects.items() if min(o.size_m[:2]) <= gap] or ['none']
    raise BackendError('INVALID_GOAL', t('pick_too_wide', object=name,
                                         width=fmt(min(spec.size_m[:2]) * 1000, 1),
                                         gap=fmt(gap * 1000, 1)),
                       advice=t('pick_too_wide_fix', fits=', '.join(fits)),
                       details={'field': 'object', 'object': name})


async def pick_steps(ctx: CallContext, args: dict[str, Any], job: Job, do: Steps) -> None:
    """Pick a known object: open, above, descend, grasp, lift, verify (``do`` runs or plans)."""
    name, b, base = args['object'], ctx.backend, ctx.robot.base_frame
    async with job.step('check'):
        await refuse_while_holding(ctx, 'pick_holding_fix')
        refuse_too_wide(ctx, name)
        pose = await b.object_pose(name, base)
    gz = grasp_z(pose, ctx.robot.objects.get(name), face_above_tcp(ctx.robot))
    x, y = pose.position[0], pose.position[1]
    q, above = _down(_finger_yaw(pose)), gz + ctx.robot.approach_m
    job.structured.update(grasp_z_m=round(gz, 4), lifted_z_m=round(above, 4))
    async with job.step('open'):
        await do.release()
    async with job.step('above'):
        await do.free(do.pose((x, y, above), q))
    async with job.step('descend'):
        await do.line(do.pose((x, y, gz), q), touch=frozenset({name}))
    async with job.step('grasp'):
        await do.grasp(float(args['force_n']))
    async with job.step('lift'):
        await do.line(do.pose((x, y, above), q))
    if job.preview:
        return
    async with job.step('verify'):
        grip = await b.gripper_state()
        if grip.status is not GripStatus.HOLDING:
            raise BackendError('LOST', t('pick_lost', object=name), advice=t('pick_lost_fix'))
    ctx.memory.held = HeldObject(name, gz - pose.position[2])


async def run_pick_object(ctx: CallContext, args: dict[str, Any]) -> Outcome:
    """Pick a known object (or, with plan_only, plan and check the pick; nothing moves)."""
    name = args['object']
    job = Job(ctx, 'pick_object', PICK_STEPS, held=name, preview=bool(args.get('plan_only')))
    job.structured['object'] = name
    try:
        _, steps = await preview_or_run(ctx, args, job,
                                        _limits(ctx, float(args['velocity_scaling'])),
                                        pick_steps)
    except StepFailed as failed:
        return job.outcome(failed)
    if steps is not None:
        return planned_job(job, steps)
    z = fmt(job.structured['lifted_z_m'], 3)
    job.structured.update(status='HOLDING', steps_done=job.done,
                          message=t('pick_done', object=name, z=z))
    return Outcome(t('pick_done', object=name, z=z), job.structured)


async def place_steps(ctx: CallContext, args: dict[str, Any], job: Job, do: Steps) -> PlacePlan:
    """Place the held object on the table at ``target`` or on top of the object ``on``."""
    async with job.step('check'):
        plan = await plan_place(ctx, args, job)
    tip = plan.tip
    down = _squared(tip.orientation)
    async with job.step('lift'):
        if tip.position[2] < plan.carry_z - 0.005:
            await do.line(do.pose((*tip.position[:2], plan.carry_z), down))
    async with job.step('carry'):
        await do.line(do.pose((*plan.xy, plan.carry_z), down), free=True)
    start = do.pose((*plan.xy, plan.place_z + TOUCH_M), down)
    async with job.step('descend'):
        await do.line(start)
    async with job.step('touch'):
        touch = await do.touch(start, TOUCH_M + OVERSHOOT_M, TOUCH_FORCE_N)
    contact = ((touch.contact if touch else None) or {}).get('point_m')
    if contact:
        job.structured['contact_height_m'] = round(float(contact['z']), 4)
    if not args['release']:
        return plan
    async with job.step('release'):
        await do.release()
    if not job.preview:
        ctx.memory.held = None
    async with job.step('retreat'):
        now = await do.here()
        above = plan.place_z + ctx.robot.approach_m
        await do.line(do.pose((*now.position[:2], above), _squared(now.orientation)))
    if not job.preview:
        async with job.step('verify'):
            await verify_place(ctx, plan, job)
    return plan


async def run_place_object(ctx: CallContext, args: dict[str, Any]) -> Outcome:
    """Place the held object (or, with plan_only, plan and check the placing; nothing moves)."""
    job = Job(ctx, 'place_object', PLACE_STEPS, preview=bool(args.get('plan_only')))
    try:
        default = ctx.robot.limits.default_velocity_scaling  # place has no speed parameter
        plan, steps = await preview_or_run(ctx, args, job, _limits(ctx, default), place_steps)
    except StepFailed as failed:
        return job.outcome(failed)
    if steps is not None:
        return planned_job(job, steps)
    if not args['release']:
        job.structured.update(status='SET_DOWN', released=False, steps_done=job.done,
                              message=t('place_set_down', object=plan.held))
        return Outcome(t('place_set_down', object=plan.held), job.structured)
    return place_outcome(plan, job)


def _object_param(kind_fields: set[str]) -> frozenset[str]:
    return frozenset(kind_fields | {'plan_only', 'idempotency_key'})


KINDS = [
    Kind('pick_object', run_pick_object, PICK_OUTPUT,
         _object_param({'object', 'force_n', 'velocity_scaling'}),
         MOTION, motion=True, returns='returns_pick_object'),
    Kind('place_object', run_place_object, PLACE_OUTPUT,
         _object_param({'target', 'on', 'release'}), MOTION, motion=True,
         returns='returns_place_object',
         optional=frozenset({'idempotency_key', 'target', 'on'})),
]
