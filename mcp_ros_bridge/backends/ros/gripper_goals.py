"""
Pure builders and interpretation for ros2_control gripper actions.

``control_msgs/action/GripperCommand`` takes one joint position and a maximum
effort; ``ParallelGripperCommand`` takes a JointState. ``robot.yaml``'s
``gripper.command`` (:mod:`mcp_ros_bridge.catalog.gripper_command`) converts the
total finger gap (what the port speaks, m) into the commanded joint position
(m or rad, open and closed in either order) and the joint's position back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, get_args

from mcp_ros_bridge.backends.port import GripperState, GripStatus
from mcp_ros_bridge.catalog.robot import RobotConfig
from mcp_ros_bridge.catalog.schemas import GripperInterface

INTERFACES: tuple[GripperInterface, ...] = get_args(GripperInterface)
CLOSED_EPS_M = 0.002
LOST_NARROWING_M = 0.005  # the gap closing this much below the grasp's: the object left


def interface(config: RobotConfig) -> GripperInterface:
    """Return the configured gripper interface name."""
    return config.ros.gripper_interface


def action_type(config: RobotConfig) -> str:
    """Return the interface type of the configured gripper action."""
    if interface(config) == 'gripper_command':
        return 'control_msgs/action/GripperCommand'
    return 'control_msgs/action/ParallelGripperCommand'


def build_gripper_goal(config: RobotConfig, width_m: float, max_effort_n: float,
                       speed_mps: float | None = None) -> dict[str, Any]:
    """Return the goal dict for the configured gripper interface."""
    mapping = config.gripper_command
    position = mapping.position(width_m)
    effort = mapping.effort(max_effort_n, config.gripper_max_force_n)
    if interface(config) == 'gripper_command':
        return {'command': {'position': position, 'max_effort': effort}}
    command: dict[str, Any] = {'name': [mapping.joint], 'position': [position],
                               'effort': [effort]}
    if speed_mps is not None:
        command['velocity'] = [mapping.rate(speed_mps)]
    return {'command': command}


@dataclass(frozen=True)
class GripOutcome:
    """What a gripper result says, in total finger gap (m) and force (N)."""

    width_m: float
    force_n: float
    stalled: bool  # the controller's flag: the fingers stopped moving before the goal
    reached_goal: bool  # the controller's flag: within its goal tolerance (0.01 per finger)


@dataclass(frozen=True)
class Hold:
    """The newest grasp that took hold: finger gap (m) and commanded effort (N)."""

    width_m: float
    effort_n: float


def grip_state(hold: Hold | None, width_m: float, force: tuple[float, str]) -> GripperState:
    """
    Return the gripper state from the finger gap; slip is the gap's change since the grasp.

    Without a tactile sensor the finger gap is what a parallel gripper can watch:
    an object that turns or is pulled out changes it, one that slides straight
    along the pads does not. A gap narrowed by ``LOST_NARROWING_M`` (or closed)
    means the object left the fingers.
    """
    force_n, source = force
    if hold is None:
        status = GripStatus.EMPTY if width_m <= CLOSED_EPS_M else GripStatus.OPEN
        return GripperState(status, width_m, force_n if source == 'measured' else 0.0, source)
    lost = width_m <= max(CLOSED_EPS_M, hold.width_m - LOST_NARROWING_M)
    return GripperState(GripStatus.LOST if lost else GripStatus.HOLDING, width_m, force_n,
                        source, slip_m=abs(width_m - hold.width_m), slip_method='finger_gap')


def read_gripper_result(config: RobotConfig, result: dict[str, Any]) -> GripOutcome:
    """Interpret a GripperCommand or ParallelGripperCommand result dict."""
    mapping = config.gripper_command
    if 'state' in result:
        state = result['state']
        position = (state.get('position') or [0.0])[0]
        effort = (state.get('effort') or [0.0])[0]
    else:
        position, effort = result.get('position', 0.0), result.get('effort', 0.0)
    return GripOutcome(width_m=mapping.gap_m(position), force_n=abs(float(effort)),
                       stalled=bool(result.get('stalled', False)),
                       reached_goal=bool(result.get('reached_goal', False)))
