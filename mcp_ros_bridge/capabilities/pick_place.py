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

from dataclasses import replace
import math
from typing import Any

from mcp_ros_bridge.backends.port import (BackendError, CartesianGoal, GraspGoal, GripStatus,
                                          MotionLimits, MotionStatus, Pose, PoseGoal,
                                          ReleaseGoal)
from mcp_ros_bridge.capabilities.base import (BOOL, CallContext, fmt, Kind, MOTION, NUM,
                                              Outcome, output_schema)
from mcp_ros_bridge.capabilities.guarded import approach
from mcp_ros_bridge.capabilities.jobs import Job, JOB_FIELDS, StepFailed
from mcp_ros_bridge.capabilities.object_heights import grasp_z
from mcp_ros_bridge.capabilities.placing import (APPROACH_M, place_outcome, plan_place,
                                                 verify_place)
from mcp_ros_bridge.geometry import rpy_deg_to_quat
from mcp_ros_bridge.messages import t
from transforms3d.euler import quat2euler

TOUCH_M = 0.02        # the guarded touch-down starts this far above the place height
OVERSHOOT_M = 0.01    # and may go this far below it
TOUCH_FORCE_N = 5.0
GRASP_SPEED_MPS, GRIP_TIMEOUT_S = 0.05, 10.0
STEP_M = 0.005

PICK_STEPS = ['check', 'open', 'above', 'descend', 'grasp', 'lift', 'verify']
PLACE_STEPS = ['check', 'lift', 'carry', 'descend', 'touch', 'release', 'retreat', 'verify']
PICK_OUTPUT = output_schema({**JOB_FIELDS, 'status': {'enum': ['HOLDING', 'FAILED']},
                             'grasp_z_m': NUM, 'lifted_z_m': NUM},
                            ['status', 'message', 'steps_done'])
PLACE_OUTPUT = output_schema({**JOB_FIELDS, 'status': {'enum': ['PLACED', 'SET_DOWN', 'FAILED']},
                              'placed_z_m': NUM, 'contact_height_m': NUM,
                              'error_m': NUM, 'tilt_deg': NUM, 'released': BOOL},
                             ['status', 'message', 'steps_done'])


def _limits(ctx: CallContext, args: dict[str, Any]) -> MotionLimits:
    lim, vel = ctx.robot.limits, float(args['velocity_scaling'])
    return MotionLimits(vel, lim.acceleration_scaling(vel), lim.contact_force_limit_n,
                        lim.max_cartesian_speed_mps, lim.motion_timeout_s)


def _down(yaw_deg: float) -> tuple[float, float, float, float]:
    """Return fingers pointing straight down, turned by ``yaw_deg``."""
    return rpy_deg_to_quat(180.0, 0.0, yaw_deg)


def _finger_yaw(pose: Pose) -> float:
    """Return the finger yaw (deg) that squares the fingers with the object's sides."""
    yaw = math.degrees(quat2euler(pose.orientation)[2])
    return (yaw + 45.0) % 90.0 - 45.0


async def _line(ctx: CallContext, job: Job, lim: MotionLimits, xyz: tuple[float, ...],
                q: tuple[float, float, float, float], free: bool = False) -> None:
    """
    Move the fingertip in a straight line to ``xyz`` with orientation ``q``.

    ``free``: where no straight line is feasible (PARTIAL), plan a free motion there instead.
    """
    target = Pose(xyz, q, ctx.robot.base_frame)  # type: ignore[arg-type]
    goal = CartesianGoal([target], lim, link=ctx.robot.end_effector, max_step_m=STEP_M)
    result = await ctx.backend.follow_cartesian_path(goal, job.sub)
    if free and result.status is MotionStatus.PARTIAL:
        result = await ctx.backend.move_to_pose(
            PoseGoal(target, lim, link=ctx.robot.end_effector), job.sub)
    await job.moved(result)


def _open(ctx: CallContext) -> ReleaseGoal:
    return ReleaseGoal(ctx.robot.gripper_max_width_m, GRASP_SPEED_MPS, GRIP_TIMEOUT_S)


async def run_pick_object(ctx: CallContext, args: dict[str, Any]) -> Outcome:
    """Pick a known object: open, above, descend, grasp, lift, verify."""
    name, b, base = args['object'], ctx.backend, ctx.robot.base_frame
    job, lim = Job(ctx, 'pick_object', PICK_STEPS, held=name), _limits(ctx, args)
    job.structured['object'] = name
    try:
        async with job.step('check'):
            grip = await b.gripper_state()
            if grip.status is GripStatus.HOLDING:
                raise BackendError('REJECTED', t('pick_holding', object=grip.object_name or '?'),
                                   advice=t('pick_holding_fix'))
            pose = await b.object_pose(name, base)
        x, y, gz = pose.position[0], pose.position[1], grasp_z(pose)
        q, above = _down(_finger_yaw(pose)), gz + APPROACH_M
        job.structured['grasp_z_m'] = round(gz, 4)
        async with job.step('open'):
            await job.gripped(await b.release(_open(ctx), job.sub), GripStatus.OPEN)
        async with job.step('above'):
            await job.moved(await b.move_to_pose(
                PoseGoal(Pose((x, y, above), q, base), lim, link=ctx.robot.end_effector),
                job.sub))
        async with job.step('descend'):
            await _line(ctx, job, lim, (x, y, gz), q)
        async with job.step('grasp'):
            await job.gripped(await b.grasp(GraspGoal(float(args['force_n']), GRASP_SPEED_MPS,
                                                      GRIP_TIMEOUT_S), job.sub),
                              GripStatus.HOLDING)
        async with job.step('lift'):
            await _line(ctx, job, lim, (x, y, above), q)
        async with job.step('verify'):
            grip = await b.gripper_state()
            if grip.status is not GripStatus.HOLDING:
                raise BackendError('LOST', t('pick_lost', object=name),
                                   advice=t('pick_lost_fix'))
    except StepFailed as failed:
        return failed.outcome
    ctx.shared['held_object'] = {'name': name, 'tip_above_centre_m': gz - pose.position[2]}
    job.structured.update(status='HOLDING', lifted_z_m=round(above, 4),
                          steps_done=job.done, message=t('pick_done', object=name,
                                                         z=fmt(above, 3)))
    return Outcome(t('pick_done', object=name, z=fmt(above, 3)), job.structured)


async def run_place_object(ctx: CallContext, args: dict[str, Any]) -> Outcome:
    """Place the held object on the table at ``target`` or on top of the object ``on``."""
    b, base = ctx.backend, ctx.robot.base_frame
    job, lim = Job(ctx, 'place_object', PLACE_STEPS), _limits(ctx, args)
    try:
        async with job.step('check'):
            plan = await plan_place(ctx, args, job)
        tip = plan.tip
        async with job.step('lift'):
            if tip.position[2] < plan.carry_z - 0.005:
                await _line(ctx, job, lim, (*tip.position[:2], plan.carry_z), tip.orientation)
        async with job.step('carry'):
            await _line(ctx, job, lim, (*plan.xy, plan.carry_z), tip.orientation, free=True)
        async with job.step('descend'):
            await _line(ctx, job, lim, (*plan.xy, plan.place_z + TOUCH_M), tip.orientation)
        async with job.step('touch'):
            touch = await approach(ctx, (0.0, 0.0, -1.0), TOUCH_M + OVERSHOOT_M,
                                   ctx.robot.limits.max_guarded_speed_mps, TOUCH_FORCE_N,
                                   job.sub)
            job.took(touch.duration_s)
            if touch.status.value not in ('CONTACT_ABORT', 'SUCCEEDED'):
                await job.moved(replace(touch, duration_s=0.0))
        contact = (touch.contact or {}).get('point_m')
        if contact:
            job.structured['contact_height_m'] = round(float(contact['z']), 4)
        if not args['release']:
            job.structured.update(status='SET_DOWN', released=False, steps_done=job.done,
                                  message=t('place_set_down', object=plan.held))
            return Outcome(t('place_set_down', object=plan.held), job.structured)
        async with job.step('release'):
            await job.gripped(await b.release(_open(ctx), job.sub), GripStatus.OPEN)
        ctx.shared.pop('held_object', None)
        async with job.step('retreat'):
            now = await b.end_effector_pose(base, ctx.robot.end_effector)
            await _line(ctx, job, lim, (*now.position[:2], plan.place_z + APPROACH_M),
                        now.orientation)
        async with job.step('verify'):
            await verify_place(ctx, plan, job)
    except StepFailed as failed:
        return failed.outcome
    return place_outcome(plan, job)


def _object_param(kind_fields: set[str]) -> frozenset[str]:
    return frozenset(kind_fields | {'velocity_scaling', 'idempotency_key'})


KINDS = [
    Kind('pick_object', run_pick_object, PICK_OUTPUT, _object_param({'object', 'force_n'}),
         MOTION, motion=True, returns='returns_pick_object'),
    Kind('place_object', run_place_object, PLACE_OUTPUT,
         _object_param({'target', 'on', 'release'}), MOTION, motion=True,
         returns='returns_place_object',
         optional=frozenset({'idempotency_key', 'target', 'on'})),
]
