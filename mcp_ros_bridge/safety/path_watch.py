"""
The path check of one motion: every tip sample inside the envelope, or on its way back in.

A :class:`PathWatch` is made per motion and called by the backend with the
whole planned path, then (the simulation) with single samples while it runs.
Samples are allowed the goal's tolerance beyond the workspace box and the
approach cone, the same tolerance a reached target gets, so a move that ends
within tolerance never leaves the arm "just outside". A motion that starts
outside a limit must come closer with every sample (:class:`TowardInside`):
the envelope never forbids the way back into itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
import math
from typing import TYPE_CHECKING

from mcp_ros_bridge.backends.port import MotionLimits, Pose, PoseGoal
from mcp_ros_bridge.geometry import approach_angle_deg
from mcp_ros_bridge.inside import outside_box, TowardInside
from mcp_ros_bridge.messages import t
from transforms3d.quaternions import qmult, rotate_vector

if TYPE_CHECKING:
    from mcp_ros_bridge.safety.goal_checks import Envelope

_GOAL = PoseGoal(Pose((0.0, 0.0, 0.0), (1.0, 0.0, 0.0, 0.0), ''), MotionLimits(1.0, 1.0, 1.0))


@dataclass(frozen=True)
class Slack:
    """How far a path sample may lie beyond the box (m) and the cone (deg): a goal's tolerance."""

    position_m: float = _GOAL.position_tolerance_m  # the defaults of a pose goal
    angle_deg: float = math.degrees(_GOAL.orientation_tolerance_rad)

    @classmethod
    def of(cls, goal: PoseGoal) -> Slack:
        """Return a pose goal's tolerances as slack, never more than the defaults."""
        most = cls()
        return cls(min(goal.position_tolerance_m, most.position_m),
                   min(math.degrees(goal.orientation_tolerance_rad), most.angle_deg))


def to_frame(pose: Pose, frame_pose: Pose) -> Pose:
    """Express ``pose`` (given in frame F) in the frame ``frame_pose`` is given in."""
    p = rotate_vector(pose.position, frame_pose.orientation)
    pos = tuple(float(a + b) for a, b in zip(p, frame_pose.position))
    q = tuple(float(v) for v in qmult(frame_pose.orientation, pose.orientation))
    return Pose(pos, q, frame_pose.frame_id, pose.stamp)  # type: ignore[arg-type]


class PathWatch:
    """Checks the tip samples of one motion, in order, against the envelope."""

    def __init__(self, envelope: Envelope, to_workspace: Pose | None = None,
                 slack: Slack | None = None, label: str = 'planned path') -> None:
        """Check in the workspace frame (``to_workspace``: the base in it) with ``slack``."""
        self.envelope, self.to_workspace = envelope, to_workspace
        self.slack, self.label = slack or Slack(), label
        self.box, self.cone = TowardInside(1e-9), TowardInside(1e-6)
        self._last_t: float | None = None

    def __call__(self, poses: Sequence[Pose], times: Sequence[float]) -> None:
        """Raise LIMIT_EXCEEDED at the first sample outside that does not come closer."""
        if times and self._last_t is not None and times[0] < self._last_t:
            self.box.restart()  # the execution after the plan: a new pass from the start
            self.cone.restart()
        limits, slack = self.envelope.limits, self.slack
        ws = limits.workspace
        for i, (pose, at_s) in enumerate(zip(poses, times)):
            self._last_t = at_s
            if self.to_workspace is not None:
                pose = to_frame(pose, self.to_workspace)
            q = pose.orientation
            angle = approach_angle_deg(q) if all(map(math.isfinite, q)) else math.inf
            beyond_box = max(0.0, outside_box(pose.position, ws.lo, ws.hi) - slack.position_m)
            beyond_cone = max(0.0, angle - limits.approach_cone_deg - slack.angle_deg)
            if not self.box.admit(beyond_box):
                raise self.envelope.workspace_error(
                    pose.position, self._where(at_s, i, len(poses)),
                    self._hint(self.box, 'path_hint'))
            if not self.cone.admit(beyond_cone):
                raise self.envelope.cone_error(
                    angle, self._where(at_s, i, len(poses)),
                    self._hint(self.cone, 'cone_path', angle=f'{angle:.0f}'))

    def _where(self, at_s: float, i: int, n: int) -> str:
        return t('path_sample', label=self.label, at=f'{at_s:.3f}', i=i + 1, n=n)

    @staticmethod
    def _hint(rule: TowardInside, key: str, **values: str) -> str:
        text = t(key, **values)
        return f"{text} {t('path_farther_out')}" if rule.started_outside else text
