"""
One sample of the robot for the console: joints, tip pose, wrist force interval, gripper; limits.

A read that fails is reported, not hidden: ``reachable`` is False when the
joint states cannot be read, and each failed part names its error, so the page
never shows old data as live.
"""

from __future__ import annotations

import asyncio
from typing import Any

from mcp_ros_bridge.backends.port import BackendError, RobotBackend
from mcp_ros_bridge.catalog.robot import RobotConfig
from mcp_ros_bridge.messages import t
from mcp_ros_bridge.server.console.force_view import ForceView

READ_BOUND_S = 1.0


def _error(exc: BaseException) -> str:
    if isinstance(exc, BackendError):
        return f'{exc.code}: {exc.message}'
    if isinstance(exc, asyncio.TimeoutError):
        return t('console_no_answer', seconds=f'{READ_BOUND_S:g}')
    return type(exc).__name__


async def _read(aw: Any) -> Any:
    try:
        return await asyncio.wait_for(aw, READ_BOUND_S)
    except Exception as exc:  # noqa: BLE001 - reported on the page as an error
        return exc


async def sample(backend: RobotBackend, robot: RobotConfig,
                 forces: ForceView) -> dict[str, Any]:
    """Read the robot once (every part bounded); return the page's ``state`` event."""
    joints, pose, force, gripper = await asyncio.gather(
        _read(backend.joint_states()),
        _read(backend.end_effector_pose(robot.base_frame, robot.end_effector)),
        _read(forces.interval(backend, robot)), _read(backend.gripper_state()))
    state: dict[str, Any] = {'reachable': not isinstance(joints, BaseException), 'errors': {}}
    if isinstance(joints, BaseException):
        state['errors']['joints'] = _error(joints)
    else:
        limits = joint_limits(robot)
        state['joints'] = [{'name': n, 'position': round(p, 4), 'velocity': round(v, 4),
                            **limits.get(n, {'unit': 'm'})}  # gripper joints: m, no limit
                           for n, p, v in zip(joints.names, joints.positions,
                                              joints.velocities)]
    if isinstance(pose, BaseException):
        state['errors']['tip'] = _error(pose)
    else:
        state['tip'] = {'frame': pose.frame_id, 'position_m': [round(v, 4) for v in pose.position],
                        'orientation_wxyz': [round(v, 4) for v in pose.orientation],
                        'stamp': round(pose.stamp, 4)}  # the backend's time of the pose (s)
    if isinstance(force, BaseException):
        state['errors']['wrench'] = _error(force)
    else:
        state['force'] = force
    if isinstance(gripper, BaseException):
        state['errors']['gripper'] = _error(gripper)
    else:
        state['gripper'] = {'status': str(gripper.status), 'width_m': round(gripper.width_m, 4),
                            'force_n': round(gripper.force_n, 2), 'object': gripper.object_name}
    return state


def joint_limits(robot: RobotConfig) -> dict[str, dict[str, Any]]:
    """Return each arm joint's unit ('rad' or 'm') and position limits, for the limit bars."""
    units = robot.arm_units or ('rad',) * len(robot.arm_joints)
    return {n: {'unit': u, 'limits': [lo, hi]}
            for n, u, (lo, hi) in zip(robot.arm_joints, units, robot.arm_position_limits)}


def envelope(robot: RobotConfig) -> dict[str, Any]:
    """Return the limits every motion runs in (robot.yaml, enforced by safety/envelope.py)."""
    lim = robot.limits
    return {'workspace_m': {'frame': lim.workspace.frame, 'min': list(lim.workspace.lo),
                            'max': list(lim.workspace.hi)},
            'max_velocity_scaling': lim.max_velocity_scaling,
            'max_cartesian_speed_mps': lim.max_cartesian_speed_mps,
            'contact_force_limit_n': lim.contact_force_limit_n,
            'approach_cone_deg': lim.approach_cone_deg}
