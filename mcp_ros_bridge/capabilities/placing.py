"""A placement's arithmetic: where the held object goes, how high it is carried, how it lands."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
import json
import math
from typing import Any

from mcp_ros_bridge.backends.port import BackendError, GripStatus, Pose
from mcp_ros_bridge.capabilities.base import CallContext, fmt, Outcome
from mcp_ros_bridge.capabilities.jobs import Job
from mcp_ros_bridge.capabilities.object_heights import half_height, top_z
from mcp_ros_bridge.catalog.robot import ObjectSpec
from mcp_ros_bridge.catalog.schemas import APPROACH_M
from mcp_ros_bridge.geometry import approach_angle_deg
from mcp_ros_bridge.messages import t
import numpy as np

CLEAR_M, PLACE_TOLERANCE_M, MAX_TILT_DEG = 0.03, 0.02, 15.0
MIN_TOWARD_M = 0.01  # a direction "toward" needs the two points this far apart
HAND_HALF_M = 0.1  # the carry clears objects this near its line (and their footprint)
PLACE_GAP_M = 0.002  # the held object's bottom stops this far above the surface (then touches)
EXAMPLE = '{"target": {"x": 0.45, "y": 0.2}}'


@dataclass
class PlacePlan:
    """Where the held object goes and the fingertip heights on the way."""

    held: str
    tip: Pose
    xy: tuple[float, float]
    support: str          # 'table' or the object it is placed on
    surface_z: float      # the top the object lands on
    centre_z: float       # the object's centre when placed
    place_z: float        # the fingertip height then
    carry_z: float


def _bad(field: str, message: str, allowed: str, example: str = EXAMPLE) -> BackendError:
    return BackendError('INVALID_ARGUMENTS', message,
                        advice=t('place_fix', field=field, allowed=allowed, example=example),
                        details={'field': field, 'allowed': allowed, 'example': example})


async def _held(ctx: CallContext) -> str:
    grip = await ctx.backend.gripper_state()
    remembered = ctx.memory.held
    if grip.status is not GripStatus.HOLDING:
        raise BackendError('NOT_HOLDING', t('place_not_holding', status=grip.status.value),
                           advice=t('place_not_holding_fix'))
    name = grip.object_name or (remembered.name if remembered is not None else '')
    if name not in ctx.robot.objects:
        raise BackendError('UNKNOWN_OBJECT', t('place_unknown_held'),
                           advice=t('place_not_holding_fix'))
    return name


async def _pose_or_none(ctx: CallContext, name: str) -> Pose | None:
    try:
        return await ctx.backend.object_pose(name, ctx.robot.base_frame)
    except BackendError:
        return None


async def _centre_xy(ctx: CallContext, name: str, held: str,
                     here: tuple[float, float]) -> tuple[float, float]:
    if name == held:
        return here
    pose = await ctx.backend.object_pose(name, ctx.robot.base_frame)
    return pose.position[0], pose.position[1]


async def _target_xy(ctx: CallContext, target: dict[str, Any], held: str,
                     here: tuple[float, float]) -> tuple[float, float]:
    """
    Return the table point ``target`` names, in the base frame.

    Plain ``x, y`` are base coordinates. With ``from`` they count from that object's
    centre now (the held object: from here); with ``toward`` the x axis runs from that
    origin (``from``, else here) to the named object and y to its left.
    """
    x, y = float(target['x']), float(target['y'])
    origin, toward = target.get('from'), target.get('toward')
    if origin is None and toward is None:
        return x, y
    ox, oy = here if origin is None else await _centre_xy(ctx, origin, held, here)
    ux, uy = 1.0, 0.0
    if toward is not None:
        tx, ty = await _centre_xy(ctx, toward, held, here)
        length = math.hypot(tx - ox, ty - oy)
        if length < MIN_TOWARD_M:
            others = [n for n in ctx.robot.objects if n not in (toward, origin or held)]
            example = json.dumps({'target': {'from': held, 'x': 0.05, 'y': 0.0}} if not others
                                 else {'target': {'toward': others[0], 'x': 0.08, 'y': 0.0}})
            raise _bad('target.toward', t('place_toward_here', toward=toward,
                                          origin=origin or held, mm=fmt(length * 1000, 0)),
                       t('place_toward_allowed'), example)
        ux, uy = (tx - ox) / length, (ty - oy) / length
    return ox + x * ux - y * uy, oy + x * uy + y * ux


def _footprint(spec: ObjectSpec) -> float:
    """Return the radius of an object's footprint on the table (m)."""
    if spec.shape in ('cylinder', 'sphere'):
        return max(spec.size_m[0], spec.size_m[1]) / 2.0
    return math.hypot(spec.size_m[0], spec.size_m[1]) / 2.0


def _off_line(p: Sequence[float], a: Sequence[float], b: Sequence[float]) -> float:
    """Return how far point ``p`` lies from the segment ``a``-``b`` (xy, m)."""
    ab, ap = np.subtract(b, a), np.subtract(p, a)
    along = float(np.clip(ap @ ab / max(float(ab @ ab), 1e-12), 0.0, 1.0))
    return float(np.linalg.norm(ap - along * ab))


async def plan_place(ctx: CallContext, args: dict[str, Any], job: Job) -> PlacePlan:
    """Check the arguments and the grip; compute the target and every height. Nothing moves."""
    target, on = args.get('target'), args.get('on')
    names = sorted(ctx.robot.objects)
    if (target is None) == (on is None):
        raise _bad('target', t('place_one_of'), t('place_one_of_allowed', names=names))
    held = await _held(ctx)
    job.held = held
    job.structured['object'] = held
    spec, robot = ctx.robot.objects[held], ctx.robot
    tip = await ctx.backend.end_effector_pose(robot.base_frame, robot.end_effector)
    now = await _pose_or_none(ctx, held)
    if now is not None:  # measured: the fingertip above the held object's centre
        above_centre = tip.position[2] - now.position[2]
        half = half_height(spec, now)
    else:  # remembered from the pick
        remembered = ctx.memory.held
        above_centre = remembered.tip_above_centre_m if remembered is not None else 0.0
        half = spec.size_m[2] / 2.0
    if on is not None:
        if on == held:
            raise _bad('on', t('place_on_itself', object=held),
                       ', '.join(n for n in names if n != held))
        support = await ctx.backend.object_pose(on, robot.base_frame)
        xy, surface = (support.position[0], support.position[1]), top_z(robot.objects[on],
                                                                        support)
    else:
        assert target is not None
        here = (now or tip).position[:2]
        xy, surface = await _target_xy(ctx, target, held, (here[0], here[1])), robot.table_z_m
    ws = robot.limits.workspace
    if ws.frame in ('', robot.base_frame) and not all(
            ws.lo[i] <= xy[i] <= ws.hi[i] for i in range(2)):
        raise _bad('target', t('place_outside', x=fmt(xy[0]), y=fmt(xy[1])),
                   t('place_outside_allowed', x0=ws.lo[0], x1=ws.hi[0], y0=ws.lo[1],
                     y1=ws.hi[1]))
    centre = surface + half
    place_z = centre + above_centre + PLACE_GAP_M
    # an arm with a short approach carries over the objects near its line only (the line is
    # collision-checked when planned); others carry over every object
    start, reach = tip.position[:2], max(_footprint(spec), HAND_HALF_M) + CLEAR_M
    corridor = robot.approach_m < APPROACH_M
    tops = [top_z(robot.objects[n], p) for n in names if n != held
            and (p := await _pose_or_none(ctx, n)) is not None
            and (not corridor
                 or _off_line(p.position[:2], start, xy) < reach + _footprint(robot.objects[n]))]
    below_tip = above_centre + half  # from the fingertip down to the held object's bottom
    carry = max([tip.position[2], place_z + robot.approach_m]
                + [top + below_tip + CLEAR_M for top in tops])
    carry = min(carry, ws.hi[2] - 0.01) if ws.frame in ('', robot.base_frame) else carry
    return PlacePlan(held, tip, xy, on or 'table', surface, centre, place_z, carry)


async def verify_place(ctx: CallContext, plan: PlacePlan, job: Job) -> None:
    """Check from the pose source where the object came to rest (skipped without one)."""
    pose = await _pose_or_none(ctx, plan.held)
    if pose is None:
        job.structured['message'] = t('place_unverified')
        return
    error = math.dist(pose.position, (*plan.xy, plan.centre_z))
    tilt = _tilt_deg(pose)
    job.structured.update(error_m=round(error, 4), tilt_deg=round(tilt, 1),
                          placed_z_m=round(pose.position[2], 4))
    if error > PLACE_TOLERANCE_M or tilt > MAX_TILT_DEG:
        raise BackendError('PLACEMENT_OFF', t('place_off', object=plan.held,
                                              error=fmt(error * 1000, 1), tilt=fmt(tilt, 1)),
                           advice=t('place_off_fix'))


def _tilt_deg(pose: Pose) -> float:
    """Return how far the object's z axis leans from vertical (deg)."""
    down = approach_angle_deg(pose.orientation)  # angle of its -z... from straight down
    return min(down, 180.0 - down)


def place_outcome(plan: PlacePlan, job: Job) -> Outcome:
    """Return the success of a placement: where, on what, how far off."""
    s = job.structured
    text = t('place_done', object=plan.held, support=plan.support, x=fmt(plan.xy[0]),
             y=fmt(plan.xy[1]), z=fmt(plan.centre_z))
    if 'error_m' in s:
        text += t('place_measured', error=fmt(s['error_m'] * 1000, 1), tilt=fmt(s['tilt_deg'], 1))
    s.update(status='PLACED', released=True, steps_done=job.done,
             message=s.get('message') or text)
    return Outcome(text, s)
