"""
Plans on ROS: a MoveIt plan checked and held as a :class:`Plan`, run later as planned.

MoveGroup (plan only) or compute_cartesian_path makes the trajectory; it is
checked (:meth:`.MoveItInterface.check`) and kept with its samples. Running it
hands that trajectory to ExecuteTrajectory, then reads where the arm ended and
verifies it against the goal. A plan from a given start (a job's later step)
sends that start's arm joints to MoveIt as a diff of its current state; it runs
only once the arm is there (``STALE_PLAN``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from mcp_ros_bridge.backends.port import (BackendError, CartesianGoal, JointGoal, MotionGoal,
                                          MotionResult, Plan, PoseGoal,
                                          ProgressFn, RobotState, START_TOLERANCE_RAD)
from mcp_ros_bridge.backends.ros import verify
from mcp_ros_bridge.messages import t

if TYPE_CHECKING:
    from mcp_ros_bridge.backends.ros.backend import RosBackend


async def make_plan(b: RosBackend, goal: MotionGoal, start: RobotState | None,
                    progress: ProgressFn | None = None) -> Plan:
    """Plan and check ``goal`` from ``start`` (None: where the arm is); nothing moves."""
    from mcp_ros_bridge.backends.ros.moveit import CheckedPath
    moveit, arm = b.parts.moveit, b.config.arm_joints
    await moveit.check_link(goal.link if not isinstance(goal, JointGoal) else '')
    joints: dict[str, float] | None = None
    if start is not None:
        joints = {n: start.joints[n] for n in arm if n in start.joints}
        if len(joints) != len(arm):
            raise BackendError('INVALID_GOAL', t('ros_plan_start_joints',
                                                 missing=[n for n in arm if n not in joints]))
        first = RobotState(joints, start.held)
    else:
        try:
            now = await b.joint_states()
            at = dict(zip(now.names, now.positions))  # the arm's only: the fingers may move
            first = RobotState({n: at[n] for n in arm if n in at})  # no object names on ROS
        except BackendError:  # run at once it needs no start; kept, it cannot run (STALE_PLAN)
            first = RobotState({})
    planned = await (moveit.plan_path(goal, progress, start=joints)
                     if isinstance(goal, CartesianGoal)
                     else moveit.plan_move(goal, progress, joints))
    if isinstance(planned, MotionResult):  # PARTIAL, or stopped while planning
        return Plan(goal, first, first, (), (), (), planned.status, planned.message,
                    planned.fraction, dict(planned.details))
    assert isinstance(planned, CheckedPath)
    end = RobotState(dict(zip(b.config.arm_joints, planned.rows[-1])), first.held) \
        if planned.rows else first
    return Plan(goal, first, end, planned.times, planned.rows, planned.poses,
                fraction=planned.fraction, details=planned.details, trajectory=planned)


async def run_plan(b: RosBackend, plan: Plan, progress: ProgressFn | None,
                   fresh: bool = False) -> MotionResult:
    """
    Run ``plan``; ``fresh``: planned just now (a stop since planning began ends it).

    A plan kept for later must still start where the arm is (STALE_PLAN).
    """
    from mcp_ros_bridge.backends.ros.moveit import CheckedPath
    goal, path = plan.goal, plan.trajectory
    if not plan.executable or not isinstance(path, CheckedPath):
        return MotionResult(plan.status, plan.message, fraction=plan.fraction,
                            details=dict(plan.details))
    if not fresh:
        joints = await b.joint_states()
        now = dict(zip(joints.names, joints.positions))
        off = max((abs(now[n] - v) for n, v in plan.start.joints.items() if n in now),
                  default=0.0)
        if off > START_TOLERANCE_RAD or not plan.start.joints:
            raise BackendError('STALE_PLAN', t('plan_stale', off=f'{off:.3f}',
                                               tol=START_TOLERANCE_RAD),
                               advice=t('plan_stale_fix'),
                               details={'joint_offset_rad': round(off, 4)})
    result = await b.parts.moveit.run(path, goal.limits, progress,
                                      path.stops if fresh else None)
    result = await b._finish(replace(result, fraction=path.fraction)
                             if isinstance(goal, CartesianGoal) else result)
    base = b.config.base_frame
    if isinstance(goal, PoseGoal):
        target = replace(goal.target, frame_id=goal.target.frame_id or base)
        return verify.check_pose(result, target, goal.position_tolerance_m,
                                 goal.orientation_tolerance_rad)
    if isinstance(goal, JointGoal):
        return verify.check_joints(result, goal.positions, goal.tolerance_rad)
    if result.fraction < 1.0 or not goal.waypoints:
        return result
    last = goal.waypoints[-1]
    return verify.check_pose(result, replace(last, frame_id=last.frame_id or base),
                             goal.max_step_m, 0.01)
