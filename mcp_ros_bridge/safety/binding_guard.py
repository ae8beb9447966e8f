"""
Declared ROS services and actions through the envelope: what no limit can check is refused.

A declared action or service carries an opaque goal: the envelope cannot see
its path. Actions of MoveIt and ros2_control (``moveit_msgs``, ``control_msgs``)
command the arm or gripper and would bypass the workspace, cone, speed and force
checks, so they are refused; so are the services that execute a trajectory,
switch controllers or replace the planning scene the plan checks rely on.
Everything else passes with its timeout bounded by the motion timeout.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TypeVar

from mcp_ros_bridge.backends.port import BackendError
from mcp_ros_bridge.catalog.bindings import ActionBinding, ServiceBinding
from mcp_ros_bridge.messages import t

UNCHECKED_ACTION_PACKAGES = ('moveit_msgs/', 'control_msgs/')
"""Interface packages whose actions command motion (the port's typed goals do it checked)."""

UNCHECKED_SERVICES = frozenset({
    'moveit_msgs/srv/ExecuteKnownTrajectory', 'moveit_msgs/srv/ApplyPlanningScene',
    'controller_manager_msgs/srv/SwitchController',
})
"""Services that move the arm or change what the plan checks see."""

_Bound = TypeVar('_Bound', ActionBinding, ServiceBinding)


def unchecked(binding: ActionBinding | ServiceBinding) -> bool:
    """Return whether ``binding`` commands motion the envelope cannot check."""
    if isinstance(binding, ActionBinding):
        return binding.interface_type.startswith(UNCHECKED_ACTION_PACKAGES)
    return binding.interface_type in UNCHECKED_SERVICES


def checked_binding(binding: _Bound, name: str, motion_timeout_s: float) -> _Bound:
    """Return ``binding`` with its timeout bounded; REJECTED when no check could see its goal."""
    if unchecked(binding):
        raise BackendError('REJECTED', t('binding_unchecked', name=name,
                                         type=binding.interface_type),
                           advice=t('binding_unchecked_fix'),
                           details={'interface': name, 'type': binding.interface_type})
    if binding.timeout_s <= motion_timeout_s:
        return binding
    return replace(binding, timeout_s=motion_timeout_s)
