"""
The guarded move on ROS: a Cartesian line through MoveIt, stopped by the wrist sensor.

The line is computed by ``compute_cartesian_path`` without MoveIt's collision
check (the move is meant to end in contact: a planning scene holding the table
would end it just short of it); the envelope checks every sample, the arm links
are checked against the planning scene (below), and the
:class:`~.contact_guard.ContactGuard` trips at the sensor rate on the force
change since the start, then the plain guard's halt path stops the arm
(``/trajectory_execution_event`` "stop", confirmed from joint states). Where
it touched is where the tip came to rest: ROS measures no contact point. The
contact's ``force_n`` is the sample that tripped the guard; ``peak_force_n``
the largest force change the guard saw while the move ran (the impact).

MoveIt's own collision checks cover the hand too (a group's check covers every
link the group moves), so before the line runs :mod:`.line_check` checks its
states with ``check_state_validity`` and refuses contacts of links other than
``moveit.hand_links``; without that setting only the force guard protects the arm.

A push (``push_object``) runs the same line; the wrist sensor cannot tell the
pushed object's force from any other, so the push cap is the threshold of the
whole force change, and a stop is reported as the cap (``cause`` ``push_cap``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, TYPE_CHECKING

from mcp_ros_bridge.backends.port import (CartesianGoal, GuardedGoal, MotionResult,
                                          MotionStatus, Pose, ProgressFn)
from mcp_ros_bridge.backends.ros.line_check import check_arm_clear
from mcp_ros_bridge.messages import t

if TYPE_CHECKING:
    from mcp_ros_bridge.backends.ros.backend import RosBackend


def _along(pose: Pose | None, start: Pose, unit: tuple[float, float, float]) -> float:
    if pose is None:
        return 0.0
    return sum((a - b) * u for a, b, u in zip(pose.position, start.position, unit))


async def move_until_contact(b: RosBackend, goal: GuardedGoal,
                             progress: ProgressFn | None) -> MotionResult:
    """Compute and run the guarded line; report the contact from the pose at rest."""
    frame = goal.frame or b.config.base_frame
    start = await b.end_effector_pose(frame, goal.link)
    unit = goal.direction
    end = tuple(p + d * goal.max_distance_m for p, d in zip(start.position, unit))
    speed = min(goal.speed_mps, goal.limits.max_cartesian_speed_mps or goal.speed_mps)
    limits = replace(goal.limits, max_cartesian_speed_mps=speed)
    threshold = goal.force_threshold_n
    if goal.push_object:  # one sensor for every contact: the cap trips the guard
        threshold = goal.push_force_cap_n
        limits = replace(limits, contact_threshold_n=threshold)
    line = CartesianGoal([Pose(end, start.orientation, frame)],  # type: ignore[arg-type]
                         limits, link=goal.link,
                         max_step_m=goal.max_step_m, min_fraction=0.01, avoid_collisions=False)
    moveit = b.parts.moveit

    async def arm_clear(plan: dict[str, Any]) -> None:
        await check_arm_clear(moveit, plan)
    result = await b._finish(await moveit.follow_path(line, progress, arm_clear))
    travelled = round(_along(result.final_pose, start, unit), 5)
    details = {**result.details, 'travelled_m': travelled}
    if result.fraction < 1.0:
        details['path_limited_by'] = t('ros_guarded_partial', fraction=f'{result.fraction:.0%}')
    if result.status is MotionStatus.CONTACT_ABORT and result.final_pose is not None:
        tip = dict(zip('xyz', (round(v, 5) for v in result.final_pose.position)))
        tripped = dict(result.contact or {}).get('trip_n') or result.peak_force_n or 0.0
        contact: dict[str, Any] = {
            'force_n': round(float(tripped), 2), 'tip_m': tip,
            'point_m': tip, 'point_source': 'tip', 'travelled_m': travelled}
        if goal.push_object:
            contact['cause'] = 'push_cap'
        return replace(result, contact=contact, details=details,
                       message=t('ros_guarded_contact', force=f'{contact["force_n"]:.1f}',
                                 threshold=f'{threshold:g}'))
    if result.succeeded:
        return replace(result, details=details,
                       message=t('sim_guarded_no_contact', travelled=f'{travelled:.3f}'))
    return replace(result, details=details)
