"""Turning task result dicts into the port's result types; shared error builders."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mcp_ros_bridge.backends.port import BackendError, GripResult, MotionResult, Pose
import numpy as np

from .kinematics import quat_error


def motion_result(raw: dict[str, Any], pose: Pose, joints: Mapping[str, float],
                  target: Pose | None = None) -> MotionResult:
    """Build a MotionResult; with ``target``, add position and orientation errors."""
    res = MotionResult(raw['status'], raw['message'], pose, dict(joints), raw['duration_s'],
                       raw['fraction'], peak_force_n=raw['peak_force_n'],
                       contact=raw['contact'], details=raw['details'])
    if target is not None:
        res.position_error_m = float(np.linalg.norm(np.subtract(pose.position,
                                                                target.position)))
        res.orientation_error_rad = float(np.linalg.norm(quat_error(
            np.array(target.orientation) / np.linalg.norm(target.orientation),
            np.array(pose.orientation))))
    if not res.message:
        res.message = f'{res.status.lower()} after {res.duration_s:.2f} s'
    return res


def ros_only(what: str) -> BackendError:
    """Return the error for a ROS-only call."""
    return BackendError('UNSUPPORTED', f'{what} needs the ros backend; the sim backend has no '
                        'ROS graph', advice='run with --backend ros against a ROS 2 system')


def grip_result(raw: dict[str, Any]) -> GripResult:
    """Build a GripResult from a gripper task's result dict."""
    keys = ('status', 'message', 'width_m', 'force_n', 'object_held', 'duration_s')
    extra = {k: v for k, v in raw.items() if k not in keys}
    return GripResult(raw['status'], raw['message'], raw['width_m'], raw['force_n'],
                      raw['object_held'], reached_goal=bool(extra.pop('reached_goal', False)),
                      stalled=bool(extra.pop('stalled', False)), duration_s=raw['duration_s'],
                      details=extra)


def path_deviation(trace: np.ndarray, points: np.ndarray) -> float:
    """Return the largest distance of traced TCP points from the planned polyline."""
    if len(trace) == 0 or len(points) < 2:
        return 0.0
    a, b = points[:-1], points[1:]
    ab = b - a
    denom = np.maximum((ab * ab).sum(axis=1), 1e-18)
    worst = 0.0
    for p in trace:
        s = np.clip(((p - a) * ab).sum(axis=1) / denom, 0.0, 1.0)
        worst = max(worst, float(np.linalg.norm(a + s[:, None] * ab - p, axis=1).min()))
    return worst
