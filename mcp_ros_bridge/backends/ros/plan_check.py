"""
Plan, check, execute: the checks a planned MoveIt trajectory passes before it may run.

MoveIt 2 Jazzy enforces neither a Cartesian tip speed (move_group and the
Cartesian path service ignore ``max_cartesian_speed``) nor the workspace box on
the path (``workspace_parameters`` bounds only mobile-base joints in OMPL). So
every sample of a plan is checked: its joints (``path_limits.JointMargins``),
the envelope's per-pose check on the tip pose (FK), and the tip speed, which a
uniform retiming (here) brings under the cap. Pure functions over
RobotTrajectory dicts; no ROS import.
"""

from __future__ import annotations

from collections.abc import Sequence
import math
from typing import Any

from mcp_ros_bridge.backends.port import BackendError, Pose
from mcp_ros_bridge.catalog.robot import RobotConfig
from mcp_ros_bridge.messages import t

SPEED_MARGIN = 1.02  # retime a little below the cap, not onto it


def seconds(duration: dict[str, Any]) -> float:
    """Return a builtin_interfaces/Duration dict in seconds."""
    return float(duration.get('sec', 0)) + float(duration.get('nanosec', 0)) * 1e-9


def samples(config: RobotConfig, trajectory: dict[str, Any]
            ) -> tuple[list[float], list[list[float]]]:
    """Return (times, arm joint rows in robot.yaml order) of a RobotTrajectory dict."""
    jt = trajectory.get('joint_trajectory', {})
    names = list(jt.get('joint_names', []))
    missing = [n for n in config.arm_joints if n not in names]
    points = jt.get('points', [])
    if missing and points:
        raise BackendError('INVALID_MOTION_PLAN', t('plan_missing_joints', missing=missing),
                           advice=t('plan_missing_joints_fix'))
    index = [names.index(n) for n in config.arm_joints] if points else []
    times = [seconds(p.get('time_from_start', {})) for p in points]
    rows = [[float(p['positions'][i]) for i in index] for p in points]
    return times, rows


def peak_tip_speed(poses: Sequence[Pose], times: Sequence[float]) -> float:
    """Return the highest tip speed (m/s) between consecutive samples."""
    peak = 0.0
    for a, b, ta, tb in zip(poses, poses[1:], times, times[1:]):
        if tb > ta:
            peak = max(peak, math.dist(a.position, b.position) / (tb - ta))
    return peak


def speed_factor(peak_mps: float, cap_mps: float | None) -> float:
    """Return how much slower the plan must run to keep the tip under ``cap_mps`` (>= 1)."""
    if not cap_mps or peak_mps <= cap_mps:
        return 1.0
    return peak_mps / cap_mps * SPEED_MARGIN
