"""
What the person approving a motion is told: what moves, where, and (from the plan) how fast.

A motion that has a checked plan (``execute_plan``'s, or the one the call
pipeline made for the approval of a single-plan motion) is described by the
plan's own facts: target, duration, peak tip speed, path length, held object.
A job that previews (pick, place) is described by its chain of arm plans, each
planned from where the one before ends: the motions' time and path summed, the
peak tip speed of all; the job plans each motion again as it runs. Without a
plan (a backend that cannot preview; a job that does not preview) the text says
what the arguments ask and the distance to the target, but never a speed or a
duration, which only a plan knows (velocity scaling limits the joints, not the tip).
"""

from __future__ import annotations

import itertools
import math
from typing import Any

from mcp_ros_bridge.backends.port import RobotBackend
from mcp_ros_bridge.catalog.loader import ToolSpec
from mcp_ros_bridge.catalog.robot import RobotConfig
from mcp_ros_bridge.geometry import fixed
from mcp_ros_bridge.messages import t


async def plan_summary(spec: ToolSpec, args: dict[str, Any], backend: RobotBackend,
                       robot: RobotConfig, facts: dict[str, Any] | None = None) -> str:
    """
    Describe what will move: from the plan's ``facts`` when there are some, else the arguments.

    ``facts``: :func:`~mcp_ros_bridge.capabilities.plan_ids.plan_facts` of one plan or
    :func:`~mcp_ros_bridge.capabilities.plan_ids.chain_facts` of a job's plans.
    """
    lines = [t('approval_asks', title=spec.title, tool=spec.name)]
    if facts is not None:
        lines += _plan_lines(facts, robot) + _what_moves(args, robot)
        return '\n'.join(lines)
    points = _points(args)
    if points:
        last = points[-1]
        lines.append(t('approval_target', x=fixed(last[0], 3), y=fixed(last[1], 3),
                       z=fixed(last[2], 3), frame=robot.base_frame))
    if points or 'offset' in args:
        try:
            now = await backend.end_effector_pose(robot.base_frame, robot.end_effector)
            dist = _offset_length(args) if 'offset' in args else _path_length(
                now.position, points)
            lines.append(t('approval_distance', dist=f'{dist:.3f}'))
        except Exception:  # noqa: BLE001 - the summary is best effort
            lines.append(t('approval_distance_unknown'))
    lines += _what_moves(args, robot)
    scaling = args.get('velocity_scaling')  # filled from its default; absent: no arm motion
    if scaling is not None:
        lines.append(t('approval_speed', scaling=f'{scaling:.2f}'))
    return '\n'.join(lines)


def card_facts(facts: dict[str, Any], robot: RobotConfig,
               args: dict[str, Any] | None = None) -> dict[str, Any]:
    """Return a plan's (or a job chain's) facts as the console's approval card shows them."""
    shown: dict[str, Any] = {k: facts[k] for k in ('duration_s', 'peak_tip_speed_mps',
                                                   'path_length_m', 'object', 'motions')
                             if k in facts}
    if 'object' not in shown and isinstance((args or {}).get('object'), str):
        shown['object'] = str((args or {})['object'])  # a pick's object: not held yet
    target = facts.get('target_m')
    if target is not None:
        shown['target'] = (f"x={fixed(target['x'], 3)} y={fixed(target['y'], 3)} "
                           f"z={fixed(target['z'], 3)} m ({robot.base_frame})")
    return shown


def _plan_lines(facts: dict[str, Any], robot: RobotConfig) -> list[str]:
    """Return the target and the plan's duration, peak tip speed, length and held object."""
    lines = []
    target = facts.get('target_m')
    if target is not None:
        lines.append(t('approval_target', x=fixed(target['x'], 3), y=fixed(target['y'], 3),
                       z=fixed(target['z'], 3), frame=robot.base_frame))
    said = {'duration': f"{facts['duration_s']:.2f}",
            'speed': f"{facts['peak_tip_speed_mps'] * 1000:.0f}",
            'length': f"{facts['path_length_m']:.3f}",
            'object': t('approval_plan_object', object=facts['object'])
            if 'object' in facts else ''}
    if 'motions' in facts:  # a job's chain of plans
        lines.append(t('approval_job_plan', motions=facts['motions'], **said))
    else:
        lines.append(t('approval_plan', **said))
    return lines


def _points(args: dict[str, Any]) -> list[tuple[float, float, float]]:
    """Return the fingertip targets in order: one pose, or every waypoint of a path."""
    found = [args['position']] if isinstance(args.get('position'), dict) else [
        w for w in args.get('waypoints') or [] if isinstance(w, dict)]
    return [(float(p['x']), float(p['y']), float(p['z'])) for p in found]


def _path_length(start: Any, points: list[tuple[float, float, float]]) -> float:
    """Return the length of the straight legs from ``start`` through ``points`` (m)."""
    legs = [tuple(start), *points]
    return sum(math.dist(a, b) for a, b in itertools.pairwise(legs))


def _offset_length(args: dict[str, Any]) -> float:
    o = args['offset']
    return math.sqrt(sum(float(o.get(k, 0.0)) ** 2 for k in 'xyz'))


def _place_line(target: dict[str, Any], frame: str) -> str:
    """Return the approval line of a place ``target`` (base point, or from/toward objects)."""
    x, y = fixed(float(target['x']), 3), fixed(float(target['y']), 3)
    origin = target.get('from') or t('approval_held_object')
    if target.get('toward'):
        return t('approval_place_toward', x=x, y=y, toward=target['toward'], origin=origin)
    if target.get('from'):
        return t('approval_place_from', x=x, y=y, origin=origin)
    return t('approval_place_at', x=x, y=y, frame=frame)


def _what_moves(args: dict[str, Any], robot: RobotConfig) -> list[str]:
    """Return the lines that say what will move besides the fingertip target."""
    lines = []
    if 'offset' in args:
        o = args['offset']
        lines.append(t('approval_offset', x=fixed(float(o.get('x', 0.0)), 3),
                       y=fixed(float(o.get('y', 0.0)), 3), z=fixed(float(o.get('z', 0.0)), 3),
                       frame=args.get('frame') or robot.base_frame))
    if 'max_distance_m' in args:
        lines.append(t('approval_guarded', direction=args['direction'],
                       dist=fixed(float(args['max_distance_m']), 3),
                       speed=f"{float(args['speed_mps']) * 1000:.0f}",
                       force=args['contact_force_n']))
    if 'distance_m' in args:
        lines.append(t('approval_push', object=args['object'],
                       direction=args['direction'],
                       dist=fixed(float(args['distance_m']), 3),
                       force=args['max_force_n']))
    elif 'object' in args:
        lines.append(t('approval_pick', object=args['object']))
    if isinstance(args.get('target'), dict):
        lines.append(_place_line(args['target'], robot.base_frame))
    elif 'on' in args:
        lines.append(t('approval_place_on', on=args['on']))
    if 'release' in args:
        lines.append(t('approval_release' if args['release'] else 'approval_keep'))
    if 'posture' in args:
        lines.append(t('approval_posture', posture=args['posture']))
    if 'positions' in args:
        units = robot.arm_units or ('rad',) * len(robot.arm_joints)
        lines.append(t('approval_joints', joints=', '.join(
            f'{name} {fixed(math.degrees(v), 1)}°' if unit == 'rad' else f'{name} {fixed(v, 3)} m'
            for name, v, unit in zip(robot.arm_joints, args['positions'], units))))
    if 'force_n' in args:
        lines.append(t('approval_force', force=args['force_n']))
    return lines
