"""
``robot.yaml``'s ``description:``: the arm's joints, limits and postures read from URDF/SRDF.

With ``description: {urdf: FILE, srdf: FILE}`` (paths relative to the config
directory) the arm joints, their position limits, the gripper joints, the
MoveIt group and the SRDF's named states come from the description, so no
robot fact is typed twice. What robot.yaml says as well must agree: the same
arm joints, and limits no wider than the description's (narrowing is the one
allowed override; widening refuses to start, naming both values). Postures
written in robot.yaml win over SRDF states of the same name.
"""

from __future__ import annotations

import copy
import os
from typing import Any

from mcp_ros_bridge.catalog.arm_model import arm_model, ArmModel
from mcp_ros_bridge.catalog.description import (DescriptionError, EMPTY_SRDF, MAX_CHARS,
                                                parse_srdf, parse_urdf, Urdf)
from mcp_ros_bridge.catalog.format_check import Problem
from mcp_ros_bridge.catalog.robot import joint_margins

_WHERE = ('description',)


def read_description(config_dir: str, spec: dict[str, Any]) -> tuple[Urdf, ArmModel]:
    """Parse the files ``spec`` names (relative to ``config_dir``): the URDF and the arm."""
    def text(key: str) -> str:
        path = os.path.join(config_dir, os.path.expanduser(str(spec[key])))
        try:
            with open(path, encoding='utf-8') as f:
                return f.read(MAX_CHARS + 1)
        except OSError as exc:
            raise DescriptionError(f'description.{key}: cannot read {path}: '
                                   f'{exc.strerror}') from None
    urdf = parse_urdf(text('urdf'), str(spec['urdf']))
    srdf = parse_srdf(text('srdf'), str(spec['srdf'])) if spec.get('srdf') else EMPTY_SRDF
    return urdf, arm_model(urdf, srdf, str(spec.get('group') or ''), str(spec.get('tip') or ''),
                           str(spec.get('base') or ''))


def merge_description(config_dir: str, data: Any) -> tuple[Any, list[Problem], list[str]]:
    """
    Return robot.yaml data with the description's facts filled in.

    Also the disagreements with robot.yaml (errors) and notes on what the
    description leaves to check (SRDF states outside the limits are left out).
    """
    spec = data.get('description') if isinstance(data, dict) else None
    if not isinstance(spec, dict) or not isinstance(spec.get('urdf'), str):
        return data, [], []  # no description (or a malformed one: the format check says so)
    try:
        urdf, model = read_description(config_dir, spec)
    except DescriptionError as exc:
        return data, [(_WHERE, str(exc))], []
    out = copy.deepcopy(data)
    joints = out.setdefault('joints', {})
    if not isinstance(joints, dict):
        return data, [], []
    problems: list[Problem] = []
    notes = list(model.notes)
    names = list(model.joint_names)
    if joints.setdefault('arm', names) != names:
        problems.append((('joints', 'arm'), (
            f"joints.arm {joints['arm']} differs from the description's arm {names}: leave "
            'joints.arm out (it is read from the description) or name the same joints in '
            'chain order')))
    limits = [[j.lower, j.upper] for j in model.joints]
    units = [_UNITS.get(j.kind, 'rad') for j in model.joints]
    if joints.setdefault('units', units) != units:
        problems.append((('joints', 'units'), (
            f"joints.units {joints['units']} differs from the description's {units} (m for a "
            'prismatic joint, rad otherwise): leave joints.units out')))
    problems += _narrowing(joints.setdefault('position_limits', limits), limits, names)
    if model.gripper_joints:
        joints.setdefault('gripper', [j.name for j in model.gripper_joints])
    problems += _gripper_command(urdf, out.get('gripper'), joints.get('gripper'))
    postures = joints.setdefault('postures', {})
    lim = out.get('limits') or {}
    margin, margin_m = lim.get('joint_limit_margin_rad', 0.0), lim.get('joint_limit_margin_m',
                                                                       0.005)
    if isinstance(postures, dict) and isinstance(margin, (int, float)) \
            and isinstance(margin_m, (int, float)):
        margins = joint_margins(units, len(names), margin, margin_m)
        for name, values in model.postures.items():
            outside = [f'{n}={v:g}' for n, v, (lo, hi), m in zip(names, values, limits, margins)
                       if not lo + m <= v <= hi - m]
            if outside:
                notes.append(f'SRDF state {name!r} left out: {", ".join(outside)} outside the '
                             f'limits less the margin ({margin:g} rad, {margin_m:g} m)')
            else:
                postures.setdefault(name, list(values))
    moveit = out.setdefault('moveit', {})
    if isinstance(moveit, dict) and model.group:
        moveit.setdefault('group', model.group)
    return out, problems, notes


_UNITS = {'prismatic': 'm', 'revolute': 'rad'}


def _gripper_command(urdf: Urdf, gripper: Any, fingers: Any) -> list[Problem]:
    """Return a problem when ``gripper.command`` leaves its URDF joint's limits or unit."""
    command = gripper.get('command') if isinstance(gripper, dict) else None
    if not isinstance(command, dict):
        return []
    name = command.get('joint') or (fingers[0] if isinstance(fingers, list) and fingers else '')
    joint = urdf.joint(name) if isinstance(name, str) and name else None
    if joint is None or joint.kind not in _UNITS:
        return []  # no such joint in the URDF: robot_checks names the gripper joints
    where, unit = ('gripper', 'command'), _UNITS[joint.kind]
    out: list[Problem] = []
    if command.get('unit', 'm') != unit:
        out.append((where + ('unit',), (f'{name} is {joint.kind} in the URDF: its unit is '
                    f'{unit}, write unit: {unit}')))
    lo, hi = joint.lower, joint.upper
    for end in ('open', 'closed'):
        value = command.get(end)
        if (isinstance(value, (int, float)) and lo is not None and hi is not None
                and not lo - 1e-9 <= value <= hi + 1e-9):
            out.append((where + (end,), (f'{end}: {value} is outside {name} limits [{lo}, '
                        f'{hi}] in the URDF: give a position the joint can reach')))
    return out


def _narrowing(given: Any, described: list[list[float]], names: list[str]) -> list[Problem]:
    """Return a problem for each robot.yaml limit wider than the description's."""
    if not isinstance(given, list) or len(given) != len(described):
        return []  # the format and size checks report it
    out: list[Problem] = []
    for i, (pair, (lo, hi), name) in enumerate(zip(given, described, names)):
        if (isinstance(pair, list) and len(pair) == 2
                and all(isinstance(v, (int, float)) for v in pair)
                and (pair[0] < lo - 1e-9 or pair[1] > hi + 1e-9)):
            out.append((('joints', 'position_limits', i), (
                f"{name} limits {pair} are wider than the description's [{lo}, {hi}]: "
                'robot.yaml may only narrow a limit the description gives')))
    return out
