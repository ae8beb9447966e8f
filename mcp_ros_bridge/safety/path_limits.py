"""
The path check of one motion: the limits every tip sample keeps, folded over its samples.

A limit says how far a tip pose (workspace frame) lies beyond it (0: inside)
and how to word its refusal. A :class:`PathWatch` is made per motion and called
by the backend with the whole planned path, then (the simulation) with single
samples while it runs; it folds the list of limits over the samples in order,
with a :class:`~mcp_ros_bridge.inside.TowardInside` rule per limit: a motion that
starts outside a limit must come closer with every sample, so the envelope never
forbids the way back into itself. Each pass over the motion (its plan, then its
execution) begins with :meth:`PathWatch.restart`. Each limit is allowed a
:class:`Slack`: the tolerance a reached goal gets, so a move that ends within
tolerance never leaves the arm "just outside".

A plan's samples also carry joints and times: its check (``Envelope.check_plan``)
folds the joint margins (:class:`JointMargins`, one rule per joint) and the tip
speed cap (:class:`TipSpeed`) in the same loop. An executing sample (a pose
alone) is checked against the pose limits; the ROS backend checks a plan's
joints with the same ``JointMargins`` (``backends/joint_margins.py``) before it
retimes the plan to the cap.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
import math
from typing import Protocol, TYPE_CHECKING

from mcp_ros_bridge.backends.joint_margins import JointMargins
from mcp_ros_bridge.backends.port import MotionLimits, Pose, PoseGoal
from mcp_ros_bridge.geometry import approach_angle_deg
from mcp_ros_bridge.inside import outside_box, TowardInside
from mcp_ros_bridge.messages import t
from transforms3d.quaternions import qmult, rotate_vector

if TYPE_CHECKING:
    from mcp_ros_bridge.safety.goal_checks import Envelope, LimitError

_GOAL = PoseGoal(Pose((0.0, 0.0, 0.0), (1.0, 0.0, 0.0, 0.0), ''), MotionLimits(1.0, 1.0, 1.0))
# A plan timed to the cap peaks up to ~1 % above it between samples (finite differences of
# a spline); a faster plan was not timed to it.
SPEED_SAMPLING = 1.02


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


class PoseLimit(Protocol):
    """One limit on the tip pose of every path sample."""

    eps: float  # how much the distance may grow from one sample to the next (rounding)

    def beyond(self, pose: Pose) -> float:
        """Return how far ``pose`` lies beyond the limit and its slack (0: inside)."""

    def refusal(self, pose: Pose, where: str, farther_out: bool) -> LimitError:
        """Return the refusal of ``pose`` at ``where`` (``farther_out``: a way back left)."""


def _hint(key: str, farther_out: bool, **values: str) -> str:
    text = t(key, **values)
    return f"{text} {t('path_farther_out')}" if farther_out else text


def _angle(q: tuple[float, float, float, float]) -> float:
    return approach_angle_deg(q) if all(map(math.isfinite, q)) else math.inf


class WorkspaceBox:
    """The workspace box: every tip position inside it."""

    eps = 1e-9

    def __init__(self, envelope: Envelope, slack_m: float) -> None:
        """Check against ``envelope``'s box widened by ``slack_m``."""
        ws = envelope.limits.workspace
        self.envelope, self.lo, self.hi, self.slack_m = envelope, ws.lo, ws.hi, slack_m

    def beyond(self, pose: Pose) -> float:
        """Return the tip's distance outside the box less the slack (m)."""
        return max(0.0, outside_box(pose.position, self.lo, self.hi) - self.slack_m)

    def refusal(self, pose: Pose, where: str, farther_out: bool) -> LimitError:
        """Return the workspace refusal of a path sample."""
        return self.envelope.workspace_error(pose.position, where,
                                             _hint('path_hint', farther_out))


class ApproachCone:
    """The approach cone: every finger axis within it of straight down."""

    eps = 1e-6

    def __init__(self, envelope: Envelope, slack_deg: float) -> None:
        """Check against ``envelope``'s cone widened by ``slack_deg``."""
        self.envelope = envelope
        self.cone_deg, self.slack_deg = envelope.limits.approach_cone_deg, slack_deg

    def beyond(self, pose: Pose) -> float:
        """Return the finger axis's angle outside the cone less the slack (deg)."""
        q = pose.orientation  # _angle inlined: the simulation checks every physics step
        angle = approach_angle_deg(q) if all(map(math.isfinite, q)) else math.inf
        return max(0.0, angle - self.cone_deg - self.slack_deg)

    def refusal(self, pose: Pose, where: str, farther_out: bool) -> LimitError:
        """Return the approach cone refusal of a path sample."""
        angle = _angle(pose.orientation)
        return self.envelope.cone_error(angle, where,
                                        _hint('cone_path', farther_out, angle=f'{angle:.0f}'))


def pose_limits(envelope: Envelope, slack: Slack) -> list[PoseLimit]:
    """Return the limits every path sample keeps, in the order they are checked."""
    return [WorkspaceBox(envelope, slack.position_m), ApproachCone(envelope, slack.angle_deg)]


class TipSpeed:
    """The fingertip's speed between two samples: at most the cap (and the sampling's 2 %)."""

    def __init__(self, envelope: Envelope, cap_mps: float) -> None:
        """Check against ``cap_mps``."""
        self.envelope, self.cap_mps = envelope, cap_mps

    def admit(self, a: Pose, b: Pose, dt: float, where: str) -> None:
        """Refuse the step from ``a`` to ``b`` in ``dt`` seconds if it is faster than the cap."""
        if dt <= 0.0:
            return
        speed = math.dist(a.position, b.position) / dt
        if speed > self.cap_mps * SPEED_SAMPLING:
            from mcp_ros_bridge.safety.goal_checks import LimitError
            raise LimitError(f'max_cartesian_speed_mps ({where})', round(speed, 4),
                             f'<= {self.cap_mps:g}', t('plan_tip_speed_fix'))


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

    def __call__(self, poses: Sequence[Pose], times: Sequence[float],
                 rows: Sequence[Sequence[float]] | None = None, joints: JointMargins | None = None,
                 speed: TipSpeed | None = None) -> None:
        """
        Raise LIMIT_EXCEEDED at the first sample outside that does not come closer.

        A plan's check also gives its joint ``rows`` with their ``joints`` rules and the
        ``speed`` cap, folded in the same loop: each sample's pose, joints, then the step
        that reached it.
        """
        to_ws, fold, n = self.to_workspace, self._fold, len(poses)
        for i, (pose, at_s) in enumerate(zip(poses, times)):
            base = pose
            if to_ws is not None:
                pose = to_frame(pose, to_ws)
            for beyond, admit, limit, rule in fold:
                if not admit(beyond(pose)):
                    raise limit.refusal(pose, self._where(at_s, i, n), rule.started_outside)
            if joints is not None and rows is not None:
                joints.admit(rows[i], at_s, i, n)
            if speed is not None and i:
                speed.admit(poses[i - 1], base, at_s - times[i - 1], self._where(at_s, i, n))

    def _where(self, at_s: float, i: int, n: int) -> str:
        return t('path_sample', label=self.label, at=f'{at_s:.3f}', i=i + 1, n=n)
