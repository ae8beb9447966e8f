"""
``get_robot_info``: the facts behind every other tool, read from the robot model.

A tools-only host cannot read resources, so the robot's name (the description's),
its frames, the true joint limits with the margin the tools keep, the gripper's
geometry, the workspace and the speed and force caps come from a tool.
"""

from __future__ import annotations

from typing import Any

from mcp_ros_bridge.capabilities.base import (CallContext, fmt, Kind, NUM, Outcome,
                                              output_schema, READ_ONLY, STR)
from mcp_ros_bridge.catalog.robot import RobotConfig
from mcp_ros_bridge.messages import t

OBJ = {'type': 'object'}
ROBOT_INFO_OUTPUT = output_schema({
    'robot': STR, 'frames': OBJ,
    'arm_joints': {'type': 'array', 'items': {'type': 'object', 'properties': {
        'name': STR, 'min_rad': NUM, 'max_rad': NUM, 'usable_min_rad': NUM,
        'usable_max_rad': NUM}}},
    'joint_limit_margin_rad': NUM, 'postures_rad': OBJ, 'gripper': OBJ, 'table': OBJ,
    'workspace_m': OBJ, 'sensors': OBJ, 'caps': OBJ},
    ['robot', 'frames', 'arm_joints', 'gripper', 'workspace_m', 'caps'])


def robot_facts(r: RobotConfig) -> dict[str, Any]:
    """Return every fact of ``r`` a caller plans with (m, rad, N, m/s)."""
    lim, g, margin = r.limits, r.gripper_geometry, r.limits.joint_limit_margin_rad
    gripper: dict[str, Any] = {
        'joints': list(r.gripper_joints), 'open_gap_m': r.gripper_max_width_m,
        'force_n': {'min': r.gripper_min_force_n, 'max': r.gripper_max_force_n},
        'mass_kg': r.gripper_mass_kg, 'fingertips_below_tip_m': g.tip_past_tcp_m}
    if g.finger_length_m:
        gripper['finger_length_m'] = g.finger_length_m
    if any(g.hand_size_m):
        gripper['hand_size_m'] = dict(zip('xyz', g.hand_size_m))
    if g.finger_width_m:
        gripper['finger_width_m'] = g.finger_width_m
    return {
        'robot': r.robot,
        'frames': {'base': r.base_frame, 'tip': r.end_effector, 'ft_sensor': r.ft_frame,
                   'axes': 'x forward, y left, z up'},
        'arm_joints': [{'name': n, 'min_rad': lo, 'max_rad': hi,
                        'usable_min_rad': round(lo + margin, 6),
                        'usable_max_rad': round(hi - margin, 6)}
                       for n, (lo, hi) in zip(r.arm_joints, r.arm_position_limits)],
        'joint_limit_margin_rad': margin,
        'postures_rad': {k: list(v) for k, v in r.postures.items()},
        'gripper': gripper,
        'table': {'top_z_m': r.table_z_m, 'frame': r.base_frame},
        'workspace_m': {'frame': lim.workspace.frame, 'min': list(lim.workspace.lo),
                        'max': list(lim.workspace.hi)},
        'sensors': {'wrist_ft': {'frame': r.ft_frame, 'rated_force_n': lim.ft_rated_force_n,
                                 'rated_torque_nm': lim.ft_rated_torque_nm},
                    'max_age_s': lim.sensor_max_age_s},
        'caps': {'max_velocity_scaling': lim.max_velocity_scaling,
                 'max_tip_speed_mps': lim.max_cartesian_speed_mps,
                 'max_guarded_speed_mps': lim.max_guarded_speed_mps,
                 'contact_force_limit_n': lim.contact_force_limit_n,
                 'approach_cone_deg': lim.approach_cone_deg},
    }


async def run_robot_info(ctx: CallContext, args: dict[str, Any]) -> Outcome:
    """Return the robot's facts; nothing is read from the backend."""
    r, s = ctx.robot, robot_facts(ctx.robot)
    ws = s['workspace_m']
    text = t('robot_info_text', robot=r.robot, joints=len(r.arm_joints), first=r.arm_joints[0],
             last=r.arm_joints[-1], margin=fmt(r.limits.joint_limit_margin_rad, 4),
             base=r.base_frame, tip=r.end_effector, open=fmt(r.gripper_max_width_m * 1000, 1),
             force=f'{fmt(r.gripper_min_force_n, 1)}-{fmt(r.gripper_max_force_n, 1)}',
             past=fmt(r.gripper_geometry.tip_past_tcp_m * 1000, 1),
             lo=[fmt(v) for v in ws['min']], hi=[fmt(v) for v in ws['max']],
             contact=fmt(r.limits.contact_force_limit_n, 1))
    return Outcome(text.replace("'", ''), s)


KINDS = [Kind('robot_info', run_robot_info, ROBOT_INFO_OUTPUT, frozenset(), READ_ONLY,
              returns='returns_robot_info')]
