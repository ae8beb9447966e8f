"""Turning arm task runs into the port's result type; shared error builders."""

from __future__ import annotations

from collections.abc import Mapping

from mcp_ros_bridge.backends.port import BackendError, MotionResult, Pose
from mcp_ros_bridge.messages import t
import numpy as np

from .kinematics import quat_error
from .motion import ArmRun


def motion_result(run: ArmRun, pose: Pose, joints: Mapping[str, float],
                  target: Pose | None = None) -> MotionResult:
    """Build a MotionResult; with ``target``, include position and orientation errors."""
    position_error = orientation_error = None
    if target is not None:
        position_error = float(np.linalg.norm(np.subtract(pose.position, target.position)))
        orientation_error = float(np.linalg.norm(quat_error(
            np.array(target.orientation) / np.linalg.norm(target.orientation),
            np.array(pose.orientation))))
    message = run.message or t('sim_run_ended', status=run.status.value,
                               duration=f'{run.duration_s:.2f}')
    details = dict(run.details)
    if len(run.trace) > 1:  # the fingertip's travelled path, sampled while it ran
        details['path_length_m'] = float(np.linalg.norm(np.diff(run.trace, axis=0),
                                                        axis=1).sum())
    return MotionResult(run.status, message, final_pose=pose, joint_positions=dict(joints),
                        duration_s=run.duration_s, fraction=run.fraction,
                        position_error_m=position_error,
                        orientation_error_rad=orientation_error,
                        peak_force_n=run.peak_force_n, contact=run.contact, details=details)


def ros_only(what: str) -> BackendError:
    """Return the error for a ROS-only call."""
    return BackendError('UNSUPPORTED', t('sim_ros_only', what=what),
                        advice=t('sim_ros_only_fix'))


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
