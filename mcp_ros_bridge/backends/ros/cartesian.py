"""
Pure builders for Cartesian paths and the retiming Humble needs.

They build the GetCartesianPath request and the ExecuteTrajectory goal.

Humble's ``compute_cartesian_path`` has no scaling fields and returns a
full-speed trajectory, so :func:`retime_trajectory` slows it down to the
requested scaling before it is checked and executed.
"""

from __future__ import annotations

from collections.abc import Mapping
from math import floor, sqrt
from typing import Any

from mcp_ros_bridge.backends.port import BackendError, CartesianGoal
from mcp_ros_bridge.backends.ros import tcp
from mcp_ros_bridge.backends.ros.goals import (
    cartesian_speed_link_field,
    check_distro,
    check_pose,
    check_scaling,
    header,
    pose_dict,
    start_state,
)
from mcp_ros_bridge.catalog.robot import RobotConfig
from mcp_ros_bridge.messages import t


def build_cartesian_path_request(config: RobotConfig, goal: CartesianGoal, distro: str,
                                 start: Mapping[str, float] | None = None) -> dict[str, Any]:
    """Return a moveit_msgs/srv/GetCartesianPath request dict (the path from ``start``)."""
    check_distro(distro)
    vel, acc = check_scaling(config, goal.limits)
    if not goal.waypoints:
        raise BackendError('INVALID_GOAL', t('path_no_waypoints'))
    frames = {p.frame_id or config.base_frame for p in goal.waypoints}
    if len(frames) != 1:
        raise BackendError('INVALID_GOAL', t('path_several_frames', frames=sorted(frames)),
                           advice=t('path_several_frames_fix'))
    for pose in goal.waypoints:
        check_pose(config, pose)
    if not (0.0 < goal.max_step_m <= 0.05):
        raise BackendError('INVALID_GOAL', t('path_step_outside', step=goal.max_step_m))
    link = tcp.moveit_link(config, goal.link)
    request = {
        'header': header(frames.pop()),
        'start_state': start_state(start),
        'group_name': config.group,
        'link_name': link,
        'waypoints': [pose_dict(tcp.to_parent(config, goal.link, p)) for p in goal.waypoints],
        'max_step': float(goal.max_step_m),
        'jump_threshold': 0.0,
        'avoid_collisions': bool(goal.avoid_collisions),
    }
    if distro == 'jazzy':
        request['max_velocity_scaling_factor'] = vel
        request['max_acceleration_scaling_factor'] = acc
        speed = goal.limits.max_cartesian_speed_mps
        if speed is not None and speed > 0.0:
            request[cartesian_speed_link_field(distro)] = link
            request['max_cartesian_speed'] = float(speed)
    return request


def build_execute_goal(trajectory: Any, distro: str) -> dict[str, Any]:
    """Return a moveit_msgs/action/ExecuteTrajectory goal for a computed trajectory."""
    goal = {'trajectory': trajectory}
    if check_distro(distro) == 'jazzy':
        goal['controller_names'] = []
    return goal


def _seconds(duration: dict[str, Any]) -> float:
    return float(duration.get('sec', 0)) + float(duration.get('nanosec', 0)) * 1e-9


def _duration(seconds: float) -> dict[str, int]:
    sec = floor(seconds)
    return {'sec': sec, 'nanosec': round((seconds - sec) * 1e9) % 1_000_000_000}


def retime_factor(velocity_scaling: float, acceleration_scaling: float) -> float:
    """
    Return how much longer a full-speed trajectory must take (>= 1) for the scaling.

    Time scales by 1/v for velocity and 1/sqrt(a) for acceleration; the tip
    speed cap is applied on the checked plan (:mod:`.plan_check`).
    """
    return max(1.0 / velocity_scaling, 1.0 / sqrt(acceleration_scaling))


def retime_trajectory(trajectory: dict[str, Any], factor: float) -> dict[str, Any]:
    """Return a moveit_msgs/RobotTrajectory dict stretched in time by ``factor``."""
    if factor < 1.0:
        raise ValueError('a trajectory is only ever slowed down')
    jt = dict(trajectory.get('joint_trajectory', {}))
    points = []
    for point in jt.get('points', []):
        p = dict(point)
        p['velocities'] = [v / factor for v in point.get('velocities', [])]
        p['accelerations'] = [a / factor ** 2 for a in point.get('accelerations', [])]
        p['time_from_start'] = _duration(_seconds(point.get('time_from_start', {})) * factor)
        points.append(p)
    jt['points'] = points
    return {**trajectory, 'joint_trajectory': jt}


def trajectory_duration(trajectory: dict[str, Any]) -> float:
    """Return the time_from_start (s) of the last point of a RobotTrajectory dict."""
    points = trajectory.get('joint_trajectory', {}).get('points', [])
    return _seconds(points[-1].get('time_from_start', {})) if points else 0.0
