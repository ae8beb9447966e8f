"""
The pure checks of goals against a robot's limits (no backend): targets, joints, scaling, gripper.

Each limit's policy is ``reject`` (default: a LIMIT_EXCEEDED error, nothing
moves) or ``clamp`` (the value is adjusted and the adjustment noted).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
import math
from typing import Any

from mcp_ros_bridge.backends.joint_margins import JointMargins
from mcp_ros_bridge.backends.port import (BackendError, GraspGoal, MotionLimits, PathCheck, Plan,
                                          Pose, ReleaseGoal)
from mcp_ros_bridge.catalog.robot import RobotConfig
from mcp_ros_bridge.geometry import approach_angle_deg
from mcp_ros_bridge.messages import t
from mcp_ros_bridge.safety.path_limits import PathWatch, Slack, TipSpeed


class LimitError(BackendError):
    """A value outside a configured limit; names the limit, value and allowed range."""

    def __init__(self, limit: str, value: Any, allowed: str, hint: str = '') -> None:
        """Build a LIMIT_EXCEEDED error."""
        super().__init__('LIMIT_EXCEEDED', t('limit_is', limit=limit, value=value,
                                             allowed=allowed),
                         advice=hint or t('advice_LIMIT_EXCEEDED'),
                         details={'limit': limit, 'value': value, 'allowed': allowed})


class Envelope:
    """Pure checks of goals against the robot's limits."""

    def __init__(self, robot: RobotConfig) -> None:
        """Keep the robot's limits."""
        self.robot = robot
        self.limits = robot.limits

    def _bounded(self, limit: str, value: float, lo: float, hi: float, lo_open: bool,
                 notes: list[str], label: str = '') -> float:
        ok_lo = value > lo if lo_open else value >= lo
        if math.isfinite(value) and ok_lo and value <= hi:
            return value
        label = label or limit
        allowed = f"{'(' if lo_open else '['}{round(lo, 6)}, {round(hi, 6)}]"
        if self.limits.policy_for(limit) == 'clamp' and math.isfinite(value):
            clamped = min(max(value, lo if not lo_open else min(hi, max(lo, 0.01))), hi)
            notes.append(t('clamped', label=label, value=value, clamped=clamped))
            return clamped
        raise LimitError(label, value, allowed)

    def motion_limits(self, lim: MotionLimits, notes: list[str],
                      path_check: PathCheck | None = None) -> MotionLimits:
        """Return limits with scaling in (0, cap], speed cap, force guard and path check."""
        L = self.limits
        vel = self._bounded('velocity_scaling', lim.velocity_scaling, 0.0,
                            L.max_velocity_scaling, True, notes)
        acc = self._bounded('acceleration_scaling', lim.acceleration_scaling, 0.0,
                            L.max_acceleration_scaling, True, notes)
        speed = L.max_cartesian_speed_mps
        if lim.max_cartesian_speed_mps is not None:
            speed = min(speed, lim.max_cartesian_speed_mps)
        force = min(lim.contact_force_limit_n, L.contact_force_limit_n)
        if not force > 0:
            force = L.contact_force_limit_n
        return MotionLimits(vel, acc, force, speed, min(lim.timeout_s, L.motion_timeout_s),
                            path_check)

    def pose(self, pose: Pose, notes: list[str], label: str = 'target', *,
             adjustable: bool = True, cone_slack_deg: float = 0.0) -> Pose:
        """
        Check one tip pose in the workspace frame: the check for targets and waypoints.

        With the ``clamp`` policy and ``adjustable`` a target is moved into
        the box and the adjustment noted.
        """
        p = pose.position
        ws = self.limits.workspace
        if ws.contains(p) and all(math.isfinite(v) for v in p):
            self.orientation(pose.orientation, label, path=not adjustable,
                             slack_deg=cone_slack_deg)
            return pose
        shown = tuple(round(v, 5) for v in p)
        if (adjustable and self.limits.policy_for('workspace') == 'clamp'
                and all(map(math.isfinite, p))):
            c = (min(max(p[0], ws.lo[0]), ws.hi[0]), min(max(p[1], ws.lo[1]), ws.hi[1]),
                 min(max(p[2], ws.lo[2]), ws.hi[2]))
            self.orientation(pose.orientation, label, slack_deg=cone_slack_deg)
            notes.append(t('clamped', label=label, value=shown,
                           clamped=tuple(round(v, 4) for v in c)))
            return replace(pose, position=c)
        hint = t('workspace_point_hint' if adjustable else 'path_hint')
        raise self.workspace_error(p, label, hint)

    def workspace_error(self, p: Sequence[float], label: str, hint: str) -> LimitError:
        """Return the refusal of tip position ``p`` (workspace frame) outside the box."""
        ws = self.limits.workspace
        allowed = t('workspace_allowed', x0=ws.lo[0], x1=ws.hi[0], y0=ws.lo[1], y1=ws.hi[1],
                    z0=ws.lo[2], z1=ws.hi[2], frame=ws.frame)
        return LimitError(f'workspace ({label})', tuple(round(v, 5) for v in p), allowed, hint)

    def path(self, poses: Sequence[Pose], times: Sequence[float], *,
             to_workspace: Pose | None = None, label: str = 'planned path') -> None:
        """Check a whole path in one pass (see :class:`PathWatch`)."""
        PathWatch(self, to_workspace, label=label)(poses, times)

    def check_plan(self, plan: Plan, to_workspace: Pose | None = None,
                   slack: Slack | None = None) -> None:
        """
        Refuse ``plan`` (LIMIT_EXCEEDED) unless its samples pass one fresh pass.

        Each sample's tip pose (workspace box, approach cone), its arm joints
        (the limits less the margin) and the tip's speed from the sample before
        (the plan's cap, else the robot's).
        """
        cap = plan.goal.limits.max_cartesian_speed_mps or self.limits.max_cartesian_speed_mps
        PathWatch(self, to_workspace, slack)(plan.tip_poses, plan.times, plan.positions,
                                             JointMargins(self.robot), TipSpeed(self, cap))

    def orientation(self, q: tuple[float, float, float, float], label: str = 'target', *,
                    path: bool = False, slack_deg: float = 0.0) -> None:
        """Refuse a finger axis outside the cone around the workspace frame's -z; never clamped."""
        cone = self.limits.approach_cone_deg
        angle = approach_angle_deg(q) if all(map(math.isfinite, q)) else math.inf
        if angle <= cone + slack_deg + 1e-6:
            return
        raise self.cone_error(angle, label, t('cone_path' if path else 'cone_target',
                                              angle=f'{angle:.0f}'))

    def cone_error(self, angle: float, label: str, hint: str) -> LimitError:
        """Return the refusal of a finger axis ``angle`` degrees from straight down."""
        return LimitError(f'approach_cone ({label})', round(angle, 1),
                          t('cone_allowed', cone=f'{self.limits.approach_cone_deg:g}'), hint)

    def joints(self, positions: Mapping[str, float], notes: list[str]) -> dict[str, float]:
        """Check joint targets against the position limits less the margin; refuse others."""
        r = self.robot
        bounds = dict(zip(r.arm_joints, r.arm_position_limits))
        margins = dict(zip(r.arm_joints, r.joint_margins))
        unknown = sorted(set(positions) - set(bounds))
        if unknown:
            raise BackendError('INVALID_GOAL', t('joints_unknown', unknown=unknown),
                               advice=t('joints_unknown_fix', joints=list(r.arm_joints)))
        out = {}
        for name, value in positions.items():
            lo, hi = bounds[name][0] + margins[name], bounds[name][1] - margins[name]
            out[name] = self._bounded('joint_limits', value, lo, hi, False, notes,
                                      label=f'joint_limits ({name})')
        return out

    def grasp(self, goal: GraspGoal, notes: list[str]) -> GraspGoal:
        """Check the grip force against the gripper's range."""
        r = self.robot
        force = self._bounded('gripper_force', goal.force_n, r.gripper_min_force_n,
                              r.gripper_max_force_n, False, notes)
        return replace(goal, force_n=force)

    def release(self, goal: ReleaseGoal, notes: list[str]) -> ReleaseGoal:
        """Check the opening width against the gripper's stroke."""
        width = self._bounded('gripper_width', goal.width_m, 0.0,
                              self.robot.gripper_max_width_m, False, notes)
        return replace(goal, width_m=width)
