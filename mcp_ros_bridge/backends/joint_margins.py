"""
The joint margins of a path: every arm joint within its limits less the safety margin.

One :class:`~mcp_ros_bridge.inside.TowardInside` rule per joint, so a joint
that starts outside its margin (where the arm is) may only come closer. The
envelope folds it over a plan's rows beside the pose limits
(``safety/path_limits.py``); the ROS backend checks MoveIt's plans with it.
"""

from __future__ import annotations

from collections.abc import Sequence

from mcp_ros_bridge.backends.port import BackendError
from mcp_ros_bridge.catalog.robot import RobotConfig
from mcp_ros_bridge.inside import outside_interval, TowardInside
from mcp_ros_bridge.messages import t


class JointMargins:
    """Every arm joint within its position limits less the margin, unless on its way in."""

    def __init__(self, robot: RobotConfig) -> None:
        """Check ``robot``'s arm joints (``joints.arm`` order) with a fresh rule per joint."""
        self.bounds = [(name, lo + m, hi - m) for name, (lo, hi), m in zip(
            robot.arm_joints, robot.arm_position_limits, robot.joint_margins)]
        self.rules = [TowardInside() for _ in self.bounds]

    def admit(self, row: Sequence[float], at_s: float, k: int, n: int) -> None:
        """Refuse sample ``k`` of ``n`` (LIMIT_EXCEEDED) where a joint breaks its rule."""
        for (name, lo, hi), rule, q in zip(self.bounds, self.rules, row):
            if not rule.admit(outside_interval(float(q), lo, hi)):
                raise BackendError(
                    'LIMIT_EXCEEDED', t('plan_joint_limit', name=name, q=float(q), t=at_s,
                                        k=k + 1, n=n, lo=lo, hi=hi),
                    advice=t('plan_joint_limit_fix'),
                    details={'limit': 'joint_limits', 'joint': name, 'value': float(q)})

    def check(self, times: Sequence[float], rows: Sequence[Sequence[float]]) -> None:
        """Fold the rules over a whole path's joint rows (the first: where the arm is)."""
        for k, (at_s, row) in enumerate(zip(times, rows)):
            self.admit(row, at_s, k, len(rows))
