"""
Pure builders for MoveIt goals and requests, as plain dicts.

Each builder returns a mapping whose keys are the field names of the upstream
interface (``moveit_msgs``) for the given ``distro`` (``humble`` or ``jazzy``);
:mod:`.messages` sets it into a real message instance. No ROS import here, so
these run and are tested everywhere. Invalid input raises ``BackendError``
before anything is sent.
"""

from __future__ import annotations

from collections.abc import Mapping
import math
from typing import Any

from mcp_ros_bridge.backends.port import (
    BackendError,
    JointGoal,
    MotionLimits,
    Pose,
    PoseGoal,
)
from mcp_ros_bridge.backends.ros import tcp
from mcp_ros_bridge.catalog.robot import RobotConfig
from mcp_ros_bridge.messages import t

DISTROS = ('humble', 'jazzy')
SPHERE = 2  # shape_msgs/SolidPrimitive.SPHERE


def check_distro(distro: str) -> str:
    """Return ``distro`` when it is a supported ROS 2 distribution name."""
    if distro not in DISTROS:
        raise ValueError(f'unsupported distro {distro!r}; expected one of {DISTROS}')
    return distro


def cartesian_speed_link_field(distro: str) -> str:
    """Return the MotionPlanRequest field naming the speed-limited link."""
    if check_distro(distro) == 'humble':
        return 'cartesian_speed_end_effector_link'
    return 'cartesian_speed_limited_link'


def check_scaling(config: RobotConfig, limits: MotionLimits) -> tuple[float, float]:
    """
    Return the velocity and acceleration scaling, refusing values outside (0, cap].

    MoveIt silently replaces 0 or values above 1 by full speed, so a bad value
    must never reach it.
    """
    pairs = (('velocity_scaling', limits.velocity_scaling, config.limits.max_velocity_scaling),
             ('acceleration_scaling', limits.acceleration_scaling,
              config.limits.max_acceleration_scaling))
    for name, value, cap in pairs:
        if not (isinstance(value, (int, float)) and math.isfinite(value) and 0.0 < value <= cap):
            raise BackendError(
                'INVALID_GOAL', t('goal_scaling_outside', name=name, value=value, cap=cap),
                advice=t('goal_scaling_fix', name=name, cap=cap),
                details={'limit': name, 'value': value, 'max': cap})
    return float(limits.velocity_scaling), float(limits.acceleration_scaling)


def header(frame_id: str) -> dict[str, Any]:
    """Return a std_msgs/Header dict with a frame and a zero stamp."""
    return {'frame_id': frame_id}


def pose_dict(pose: Pose) -> dict[str, Any]:
    """Return a geometry_msgs/Pose dict; ``pose.orientation`` is (w, x, y, z)."""
    w, x, y, z = (float(v) for v in pose.orientation)
    px, py, pz = (float(v) for v in pose.position)
    return {'position': {'x': px, 'y': py, 'z': pz},
            'orientation': {'x': x, 'y': y, 'z': z, 'w': w}}


def check_pose(config: RobotConfig, pose: Pose) -> None:
    """Refuse non-finite poses and positions outside the workspace box."""
    values = tuple(pose.position) + tuple(pose.orientation)
    if not all(isinstance(v, (int, float)) and math.isfinite(v) for v in values):
        raise BackendError('INVALID_GOAL', t('goal_not_finite', values=values))
    if abs(math.sqrt(sum(v * v for v in pose.orientation)) - 1.0) > 1e-3:
        raise BackendError('INVALID_GOAL', t('goal_not_unit'))
    ws = config.limits.workspace
    if pose.frame_id in (ws.frame, '') and not ws.contains(tuple(pose.position)):
        raise BackendError(
            'INVALID_GOAL', t('goal_outside_workspace', position=tuple(pose.position), lo=ws.lo,
                              hi=ws.hi, frame=ws.frame),
            advice=t('goal_outside_workspace_fix'),
            details={'limit': 'workspace', 'min': list(ws.lo), 'max': list(ws.hi)})


def workspace_parameters(config: RobotConfig) -> dict[str, Any]:
    """Return moveit_msgs/WorkspaceParameters from the configured workspace box."""
    ws = config.limits.workspace
    return {'header': header(ws.frame),
            'min_corner': dict(zip('xyz', (float(v) for v in ws.lo))),
            'max_corner': dict(zip('xyz', (float(v) for v in ws.hi)))}


def pose_constraints(config: RobotConfig, goal: PoseGoal) -> dict[str, Any]:
    """Return moveit_msgs/Constraints: a sphere region plus orientation tolerances."""
    check_pose(config, goal.target)
    frame = goal.target.frame_id or config.base_frame
    link = tcp.moveit_link(config, goal.link)
    tol_p, tol_o = float(goal.position_tolerance_m), float(goal.orientation_tolerance_rad)
    if not (tol_p > 0.0 and tol_o > 0.0):
        raise BackendError('INVALID_GOAL', t('goal_tolerances'))
    target = pose_dict(tcp.to_parent(config, goal.link, goal.target))
    region = {'primitives': [{'type': SPHERE, 'dimensions': [tol_p]}],
              'primitive_poses': [{'position': target['position'],
                                   'orientation': {'x': 0.0, 'y': 0.0, 'z': 0.0, 'w': 1.0}}]}
    return {
        'name': 'mcp_pose_goal',
        'position_constraints': [{'header': header(frame), 'link_name': link,
                                  'constraint_region': region, 'weight': 1.0}],
        'orientation_constraints': [{
            'header': header(frame), 'orientation': target['orientation'], 'link_name': link,
            'absolute_x_axis_tolerance': tol_o, 'absolute_y_axis_tolerance': tol_o,
            'absolute_z_axis_tolerance': tol_o, 'weight': 1.0}],
    }


def joint_constraints(config: RobotConfig, goal: JointGoal) -> dict[str, Any]:
    """Return moveit_msgs/Constraints holding one JointConstraint per commanded joint."""
    unknown = sorted(set(goal.positions) - set(config.arm_joints))
    if unknown or not goal.positions:
        raise BackendError('INVALID_GOAL', t('goal_unknown_joints', unknown=unknown),
                           advice=t('goal_unknown_joints_fix', names=list(config.arm_joints)))
    tol = float(goal.tolerance_rad)
    constraints = []
    for name in config.arm_joints:
        if name not in goal.positions:
            continue
        value = goal.positions[name]
        if not math.isfinite(value):
            raise BackendError('INVALID_GOAL', t('goal_joint_not_finite', name=name, value=value))
        constraints.append({'joint_name': name, 'position': float(value),
                            'tolerance_above': tol, 'tolerance_below': tol, 'weight': 1.0})
    return {'name': 'mcp_joint_goal', 'joint_constraints': constraints}


def start_state(start: Mapping[str, float] | None) -> dict[str, Any]:
    """
    Return a moveit_msgs/RobotState to plan from: the current state, ``start``'s joints set.

    A diff keeps what the bridge does not know (other joints, attached objects) as
    move_group has it.
    """
    if not start:
        return {'is_diff': True}
    return {'joint_state': {'name': list(start), 'position': [float(v) for v in start.values()]},
            'is_diff': True}


def build_motion_plan_request(config: RobotConfig, goal: PoseGoal | JointGoal, distro: str,
                              start: Mapping[str, float] | None = None) -> dict[str, Any]:
    """Return a moveit_msgs/MotionPlanRequest dict for a pose or joint goal (from ``start``)."""
    vel, acc = check_scaling(config, goal.limits)
    if isinstance(goal, PoseGoal):
        constraints, attempts = pose_constraints(config, goal), int(goal.planning_attempts)
        link = tcp.moveit_link(config, goal.link)
    else:
        constraints, attempts = joint_constraints(config, goal), 1
        link = tcp.moveit_link(config)
    request = {
        'workspace_parameters': workspace_parameters(config),
        'start_state': start_state(start),
        'goal_constraints': [constraints],
        'pipeline_id': config.pipeline_id,
        'planner_id': config.planner_id,
        'group_name': config.group,
        'num_planning_attempts': max(1, attempts),
        'allowed_planning_time': float(goal.planning_time_s),
        'max_velocity_scaling_factor': vel,
        'max_acceleration_scaling_factor': acc,
    }
    speed = goal.limits.max_cartesian_speed_mps
    if speed is not None:
        if not (math.isfinite(speed) and speed > 0.0):
            raise BackendError('INVALID_GOAL', t('goal_speed_positive', speed=speed))
        request[cartesian_speed_link_field(distro)] = link
        request['max_cartesian_speed'] = float(speed)
    return request


def build_move_group_goal(config: RobotConfig, goal: PoseGoal | JointGoal, distro: str,
                          plan_only: bool = False,
                          start: Mapping[str, float] | None = None) -> dict[str, Any]:
    """Return a moveit_msgs/action/MoveGroup goal dict that plans (and executes)."""
    if start and not plan_only:
        raise ValueError('move_group executes from the current state only')
    return {
        'request': build_motion_plan_request(config, goal, check_distro(distro), start),
        'planning_options': {
            'planning_scene_diff': {'is_diff': True, 'robot_state': {'is_diff': True}},
            'plan_only': bool(plan_only), 'look_around': False, 'replan': False,
            'replan_attempts': 0, 'replan_delay': 0.0,
        },
    }


def build_fk_request(config: RobotConfig, frame: str, link: str,
                     names: list[str], positions: list[float]) -> dict[str, Any]:
    """Return a moveit_msgs/srv/GetPositionFK request dict for one link."""
    return {
        'header': header(frame or config.base_frame),
        'fk_link_names': [tcp.moveit_link(config, link)],
        'robot_state': {'joint_state': {'name': list(names),
                                        'position': [float(p) for p in positions]},
                        'is_diff': False},
    }
