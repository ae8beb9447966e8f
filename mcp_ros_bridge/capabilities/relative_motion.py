"""Moves agents ask for by intent: a straight relative move, and named postures."""

from __future__ import annotations

import math
from typing import Any

from mcp_ros_bridge.backends.port import CartesianGoal, JointGoal, Pose
from mcp_ros_bridge.capabilities.base import CallContext, Outcome
from mcp_ros_bridge.capabilities.motion import arm_motion, run_motion
from mcp_ros_bridge.catalog.bindings import PathBinding
from mcp_ros_bridge.messages import t
from transforms3d.quaternions import rotate_vector


async def run_relative_move(ctx: CallContext, args: dict[str, Any]) -> Outcome:
    """Move the fingertip in a straight line by an offset (m) in the base or tool frame."""
    offset = args['offset']
    delta = tuple(float(offset[k]) for k in ('x', 'y', 'z'))
    path = ctx.bound(PathBinding)
    frame = path.frame
    current = await ctx.backend.end_effector_pose(frame, ctx.robot.end_effector)
    if args['frame'] == 'tool':
        delta = tuple(float(v) for v in rotate_vector(delta, current.orientation))
    target = tuple(p + d for p, d in zip(current.position, delta))
    length = math.dist(current.position, target)

    def goal(limits: Any) -> CartesianGoal:
        return CartesianGoal([Pose(target, current.orientation, frame)],  # type: ignore[arg-type]
                             limits, link=ctx.robot.end_effector,
                             max_step_m=path.max_step_m)
    return await run_motion(ctx, args, t('motion_relative'), goal, length, target=target)


async def run_move_to_posture(ctx: CallContext, args: dict[str, Any]) -> Outcome:
    """Move the arm joints to a posture named in robot.yaml."""
    name = args['posture']
    positions = dict(zip(ctx.robot.arm_joints, ctx.robot.postures[name]))

    def goal(limits: Any) -> JointGoal:
        return JointGoal(positions, limits)
    return await run_motion(ctx, args, t('motion_posture', name=repr(name)), goal)


KINDS = [
    arm_motion('relative_move', run_relative_move, {'offset', 'frame'}, 'path'),
    arm_motion('move_to_posture', run_move_to_posture, {'posture'}),
]
