"""What ``robot.yaml`` must satisfy beyond its format: consistent limits, names and sizes."""

from __future__ import annotations

from typing import Any

from mcp_ros_bridge.catalog.format_check import Problem
from mcp_ros_bridge.catalog.robot import joint_margins


RETIRED = {('ros', 'gripper_position_scale'): (
    'ros.gripper_position_scale is retired: write gripper.command instead, e.g. '
    '{open: 0.04, closed: 0.0, unit: m} for a finger joint travelling 0.04 m, or '
    '{open: 0.0, closed: 0.8, unit: rad, joint: robotiq_85_left_knuckle_joint} for a '
    'Robotiq 2F-85 knuckle (0 rad open, 0.8 rad closed)')}


def retired_problems(data: Any) -> list[Problem]:
    """Return a problem naming the replacement for each retired key ``data`` still has."""
    out: list[Problem] = []
    for (section, key), message in RETIRED.items():
        part = data.get(section) if isinstance(data, dict) else None
        if isinstance(part, dict) and key in part:
            out.append(((section, key), message))
    return out


def _gripper_problems(data: dict[str, Any]) -> list[Problem]:
    """Return the problems of ``gripper.command``: two distinct ends, a known joint."""
    command, fingers = data['gripper'].get('command'), data['joints']['gripper']
    if not command:
        return []
    where = ('gripper', 'command')
    out: list[Problem] = []
    if command['open'] == command['closed']:
        same = (f"open and closed are both {command['open']}: give the joint position with "
                'the fingers open and with them closed, e.g. open: 0.0, closed: 0.8')
        out.append((where, same))
    joint = command['joint']
    if joint and joint not in fingers:
        unknown = (f'{joint!r} is no gripper joint: use one of {fingers} or add it to '
                   'joints.gripper')
        out.append((where + ('joint',), unknown))
    if not joint and not fingers:
        out.append((where + ('joint',), ('name the joint that reports the gripper position '
                    '(joints.gripper is empty)')))
    return out


def robot_problems(data: dict[str, Any]) -> list[Problem]:
    """Return the problems of a format-valid ``robot.yaml`` mapping, defaults filled in."""
    problems = _gripper_problems(data)
    lim = data['limits']
    for lo, hi in (('default_velocity_scaling', 'max_velocity_scaling'),
                   ('default_acceleration_scaling', 'max_acceleration_scaling')):
        if lim[lo] > lim[hi]:
            problems.append((('limits', lo), f'{lo} {lim[lo]} exceeds {hi} {lim[hi]}'))
    ws = lim['workspace']
    if any(a >= b for a, b in zip(ws['min'], ws['max'])):
        problems.append((('limits', 'workspace'), 'each workspace min must be below its max'))
    for name, obj in data['objects'].items():
        start = obj.get('start_xy_m')
        if start and not all(lo <= v <= hi for v, lo, hi in zip(start, ws['min'], ws['max'])):
            (x0, y0), (x1, y1) = ws['min'][:2], ws['max'][:2]
            inside = [round(x1 / 2 if x1 > 0 else (x0 + x1) / 2, 2),  # in front of the base
                      0.0 if y0 <= 0 <= y1 else round((y0 + y1) / 2, 2)]
            problems.append((('objects', name, 'start_xy_m'), (
                f"{start} is outside the workspace (x in [{ws['min'][0]:g}, {ws['max'][0]:g}], "
                f"y in [{ws['min'][1]:g}, {ws['max'][1]:g}]): e.g. {inside}")))
    joints = data['joints']
    for name, posture in joints['postures'].items():
        if len(posture) != len(joints['arm']):
            problems.append((('joints', 'postures', name),
                             f'posture {name!r} needs one value per arm joint'))
    for name in data['ros']['object_pose_topics']:
        if name not in data['objects']:
            known = sorted(data['objects'])
            problems.append((('ros', 'object_pose_topics', name),
                             f'{name!r} is no object of the catalog: use one of {known}'))
    limits = joints['position_limits']
    if len(limits) != len(joints['arm']):
        problems.append((('joints', 'position_limits'),
                         'position_limits needs one [min, max] pair per arm joint'))
    for i, (lo, hi) in enumerate(limits):
        if lo >= hi:
            problems.append((('joints', 'position_limits', i), f'min {lo} is not below max {hi}'))
    margins = joint_margins(joints.get('units') or [], len(limits),
                            lim['joint_limit_margin_rad'], lim.get('joint_limit_margin_m', 0.005))
    for name, posture in joints['postures'].items():
        outside = [f'{joint}={v:g} not in [{lo + margin:g}, {hi - margin:g}]'
                   for joint, v, (lo, hi), margin in zip(joints['arm'], posture, limits, margins)
                   if not lo + margin <= v <= hi - margin]
        if outside and len(posture) == len(limits):
            problems.append((('joints', 'postures', name), (
                f"posture {name!r} is outside the limits less the margin: {'; '.join(outside)}")))
    return problems
