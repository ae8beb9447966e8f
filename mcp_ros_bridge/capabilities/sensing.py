"""Sensing capabilities: wrench, joint states and the end-effector pose."""

from __future__ import annotations

from typing import Any

from mcp_ros_bridge.backends.port import AXES, STILL_RAD_S
from mcp_ros_bridge.capabilities.base import (BOOL, CallContext, fmt, Kind, NUM, Outcome,
                                              output_schema, POSE, READ_ONLY, STR)
from mcp_ros_bridge.capabilities.tare import current as current_tare
from mcp_ros_bridge.capabilities.weighing import (gripper_gravity, held_mass_kg, samples_after,
                                                  steady, window_samples)
from mcp_ros_bridge.catalog.bindings import FrameBinding
from mcp_ros_bridge.filters import apply_filter
from mcp_ros_bridge.geometry import describe_pose, pose_to_dict
from mcp_ros_bridge.messages import t
import numpy as np

_UNIT = {'F': 'N', 'M': 'Nm'}
# invalid samples the backend left out since start, by reason (present only when any were)
REJECTED = {'type': 'object', 'additionalProperties': {'type': 'integer'}}

WRENCH_OUTPUT = output_schema({
    'frame': STR, 'filter': STR, 'values': {'type': 'object', 'additionalProperties': NUM},
    'units': {'type': 'object', 'additionalProperties': STR},
    'force_magnitude_n': NUM, 'samples_used': {'type': 'integer'}, 'stamp': NUM,
    'age_s': NUM, 'rate_hz': NUM, 'std': {'type': 'object', 'additionalProperties': NUM},
    'compensation': {'type': 'string', 'enum': ['gripper_gravity', 'tared', 'none']},
    'held_mass_g': NUM, 'steady': BOOL, 'rejected': REJECTED, 'window_s': NUM,
}, ['frame', 'filter', 'values', 'units', 'samples_used', 'age_s', 'compensation'])

JOINTS_OUTPUT = output_schema({
    'joints': {'type': 'array', 'items': {'type': 'object', 'properties': {
        'name': STR, 'position': NUM, 'velocity': NUM, 'effort': NUM, 'unit': STR},
        'required': ['name', 'position', 'unit']}},
    'stamp': NUM, 'age_s': NUM, 'rejected': REJECTED,
}, ['joints', 'stamp', 'age_s'])

POSE_OUTPUT = output_schema({'pose': POSE, 'link': STR}, ['pose'])


def _rejected(counts: Any, s: dict[str, Any]) -> str:
    """Add the rejected counts to ``s``; return the note for the text ('' when none)."""
    if not counts:
        return ''
    s['rejected'] = dict(counts)
    listed = ', '.join(f'{k} {v}' for k, v in sorted(counts.items()))
    return t('sensor_rejected_note', count=sum(counts.values()), counts=listed)


async def arm_moving(ctx: CallContext) -> bool:
    """Return True when an arm joint moves faster than the backends' still speed."""
    js = await ctx.backend.joint_states()
    arm = set(ctx.robot.arm_joints)
    return any(abs(v) >= STILL_RAD_S for n, v in zip(js.names, js.velocities) if n in arm)


async def run_read_wrench(ctx: CallContext, args: dict[str, Any]) -> Outcome:
    """Read and filter the newest wrench samples, net of the gripper's weight by default."""
    kind = args['filter']
    axes = list(args['axes'])
    window = 0.0 if kind == 'raw' else float(args['window_s'])  # raw: the newest sample
    w = await window_samples(ctx.backend, window)
    arr = np.asarray(w.samples, dtype=float)
    note, held = '', None
    gravity = await gripper_gravity(ctx) if args['subtract_gripper_weight'] else ''
    tare = current_tare(ctx) if isinstance(gravity, tuple) else None
    moving = False
    if isinstance(gravity, tuple):
        still = steady(arr, gravity[1])
        moving = await arm_moving(ctx)
        if moving:  # no window of a moving arm weighs anything: say so now
            still = False
        elif not still:  # the arm settles after a motion: weigh a fresh window
            w = await samples_after(ctx.backend, window, w.stamps[-1] if w.stamps else 0.0)
            arr = np.asarray(w.samples, dtype=float)
            still = steady(arr, gravity[1])
        est = apply_filter(kind, arr) - gravity[0] - (0.0 if tare is None else tare.offset)
        held = round(held_mass_kg(est, gravity[1]) * 1000.0, 1)
        net = (t('wrench_net_gripper') if tare is None else
               t('wrench_net_gripper_and_tare', age=fmt(tare.age_s(), 0)))
        grams = f'{held:.0f}'
        note = net + t('wrench_holding' if still else 'wrench_moving' if moving
                       else 'wrench_unsteady', grams=grams)
    else:
        est = apply_filter(kind, arr)
        if gravity:
            note = t('wrench_raw', why=gravity)
    idx = [AXES.index(a) for a in axes]
    values = {a: round(float(est[i]), 4) for a, i in zip(axes, idx)}
    s: dict[str, Any] = {
        'frame': w.frame_id, 'filter': kind, 'values': values,
        'units': {a: _UNIT[a[0]] for a in axes},
        'force_magnitude_n': round(float(np.linalg.norm(est[:3])), 4),
        'samples_used': int(arr.shape[0]), 'stamp': w.stamps[-1] if w.stamps else 0.0,
        'window_s': round(w.stamps[-1] - w.stamps[0], 4) if w.stamps else 0.0,
        'age_s': round(w.age_s, 4), 'rate_hz': round(w.rate_hz, 1),
        'compensation': 'none' if held is None else 'gripper_gravity' if tare is None
        else 'tared',
    }
    if held is not None:
        s['held_mass_g'] = held
        s['steady'] = still
    if arr.shape[0] > 1:
        s['std'] = {a: round(float(arr[:, i].std()), 4) for a, i in zip(axes, idx)}
    parts = ', '.join(f'{a}={fmt(v, 3)} {_UNIT[a[0]]}' for a, v in values.items())
    return Outcome(t('wrench_line', kind=kind, samples=arr.shape[0], frame=w.frame_id,
                     age=fmt(w.age_s * 1000, 1), parts=parts, note=note)
                   + _rejected(w.rejected, s), s)


async def run_read_joints(ctx: CallContext, args: dict[str, Any]) -> Outcome:
    """Read joint positions, velocities and efforts."""
    js = await ctx.backend.joint_states()
    arm, fingers = set(ctx.robot.arm_joints), set(ctx.robot.gripper_joints)
    keep = arm | fingers if args['include_gripper'] else arm
    finger_unit = ctx.robot.gripper_command.unit  # a Robotiq knuckle is in rad, Panda's in m
    joints = []
    for i, name in enumerate(js.names):
        if name not in keep:
            continue
        j: dict[str, Any] = {'name': name, 'position': round(js.positions[i], 5),
                             'unit': 'rad' if name in arm else finger_unit}
        if i < len(js.velocities):
            j['velocity'] = round(js.velocities[i], 5)
        if i < len(js.efforts):
            j['effort'] = round(js.efforts[i], 4)
        joints.append(j)
    text = t('joints_line', positions=', '.join(fmt(j['position'], 4) for j in joints
                                                if j['name'] in arm),
             age=fmt(js.age_s * 1000, 1))
    shown = [j for j in joints if j['name'] not in arm]
    if shown:
        text += t('joints_fingers', unit=finger_unit,
                  fingers=', '.join(f"{j['name']}={fmt(j['position'], 4)}" for j in shown))
    s = {'joints': joints, 'stamp': js.stamp, 'age_s': round(js.age_s, 4)}
    return Outcome(text + _rejected(js.rejected, s), s)


async def run_read_ee_pose(ctx: CallContext, args: dict[str, Any]) -> Outcome:
    """Read the end-effector pose in the configured frame."""
    frame = ctx.bound(FrameBinding).frame
    pose = await ctx.backend.end_effector_pose(frame, ctx.robot.end_effector)
    return Outcome(t('pose_at', name=ctx.robot.end_effector, pose=describe_pose(pose)),
                   {'pose': pose_to_dict(pose), 'link': ctx.robot.end_effector})


KINDS = [
    Kind('read_wrench', run_read_wrench, WRENCH_OUTPUT,
         frozenset({'filter', 'axes', 'window_s', 'subtract_gripper_weight'}), READ_ONLY,
         returns='returns_read_wrench'),
    Kind('read_joints', run_read_joints, JOINTS_OUTPUT, frozenset({'include_gripper'}),
         READ_ONLY,
         returns='returns_read_joints'),
    Kind('read_ee_pose', run_read_ee_pose, POSE_OUTPUT, frozenset(), READ_ONLY,
         returns='returns_read_ee_pose', binding='frame'),
]
