"""
The path check of one motion: every tip sample inside the envelope, or on its way back in.

A :class:`PathWatch` is made per motion and called by the backend with the
whole planned path, then (the simulation) with single samples while it runs.
It folds the limits of :mod:`.limits` over the samples in order. A motion that
starts outside a limit must come closer with every sample (:class:`TowardInside`):
the envelope never forbids the way back into itself. Each pass over the motion
(its plan, then its execution) begins with :meth:`PathWatch.restart`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from mcp_ros_bridge.backends.port import Pose
from mcp_ros_bridge.inside import TowardInside
from mcp_ros_bridge.messages import t
from mcp_ros_bridge.safety.limits import pose_limits, Slack
from transforms3d.quaternions import qmult, rotate_vector

if TYPE_CHECKING:
    from mcp_ros_bridge.safety.goal_checks import Envelope

__all__ = ['PathWatch', 'Slack', 'to_frame']


def to_frame(pose: Pose, frame_pose: Pose) -> Pose:
    """Express ``pose`` (given in frame F) in the frame ``frame_pose`` is given in."""
    p = rotate_vector(pose.position, frame_pose.orientation)
    pos = tuple(float(a + b) for a, b in zip(p, frame_pose.position))
    q = tuple(float(v) for v in qmult(frame_pose.orientation, pose.orientation))
    return Pose(pos, q, frame_pose.frame_id, pose.stamp)  # type: ignore[arg-type]


class PathWatch:
    """Checks the tip samples of one motion, in order, against the envelope's limits."""

    def __init__(self, envelope: Envelope, to_workspace: Pose | None = None,
                 slack: Slack | None = None, label: str = 'planned path') -> None:
        """Check in the workspace frame (``to_workspace``: the base in it) with ``slack``."""
        self.envelope, self.to_workspace = envelope, to_workspace
        self.slack, self.label = slack or Slack(), label
        self.limits = pose_limits(envelope, self.slack)
        self.rules = [TowardInside(limit.eps) for limit in self.limits]
        # bound methods once: the simulation calls this every physics step
        self._fold = [(limit.beyond, rule.admit, limit, rule)
                      for limit, rule in zip(self.limits, self.rules)]

    def restart(self) -> None:
        """Begin another pass over the same motion (its execution after its plan)."""
        for rule in self.rules:
            rule.restart()

    def __call__(self, poses: Sequence[Pose], times: Sequence[float]) -> None:
        """Raise LIMIT_EXCEEDED at the first sample outside that does not come closer."""
        to_ws, fold = self.to_workspace, self._fold
        for i, (pose, at_s) in enumerate(zip(poses, times)):
            if to_ws is not None:
                pose = to_frame(pose, to_ws)
            for beyond, admit, limit, rule in fold:
                if not admit(beyond(pose)):
                    where = t('path_sample', label=self.label, at=f'{at_s:.3f}', i=i + 1,
                              n=len(poses))
                    raise limit.refusal(pose, where, rule.started_outside)
