"""
The guarded line's collision check on ROS: only the hand may touch, the arm links stay clear.

MoveIt's collision checks cover the whole robot (a group's cover every link it
moves, the hand too), so the line is computed without them and its states are
checked here with ``check_state_validity``: its answer names every contact by
link, and a contact of a robot link outside ``moveit.hand_links`` (the hand and
fingers; an attached, held object counts as the hand's) refuses the line before
anything moves. The states are checked in order up to the first one where the
hand touches something (the force guard stops the move there), evenly spaced
(``line_contacts.MAX_STATES`` per line: an obstacle thinner than their spacing can
pass unseen). Without ``hand_links`` the line is not checked (the wrist force guard
stops any touch).
"""

from __future__ import annotations

from typing import Any, TYPE_CHECKING

from mcp_ros_bridge.backends.port import BackendError
from mcp_ros_bridge.backends.ros.actions import call_service
from mcp_ros_bridge.backends.ros.line_contacts import arm_contacts, spread
from mcp_ros_bridge.backends.ros.messages import build_message
from mcp_ros_bridge.backends.ros.plan_check import samples
from mcp_ros_bridge.messages import t

if TYPE_CHECKING:
    from mcp_ros_bridge.backends.ros.moveit import MoveItInterface


async def check_arm_clear(moveit: MoveItInterface, plan: dict[str, Any]) -> None:
    """Refuse ``plan`` (nothing moved) when a state along it has an arm link in contact."""
    config = moveit.config
    hand = frozenset(config.hand_links)
    if not hand:
        return
    _, rows = samples(config, plan)
    cls, client, name = moveit._service('state_validity', 'moveit_msgs/srv/GetStateValidity')
    names = list(config.arm_joints)
    for k in spread(len(rows)):
        request = {'robot_state': {'joint_state': {'name': names, 'position': rows[k]}},
                   'group_name': config.group}
        response = await call_service(client, build_message(cls.Request, request), name=name,
                                      timeout_s=config.ros.fk_timeout_s)
        if response.valid:
            continue
        pairs = arm_contacts(response.contacts, hand)
        if not pairs:
            return  # the hand touches here first: the guard stops the move about here
        at = k / max(1, len(rows) - 1)
        raise BackendError('PLANNING_FAILED',
                           t('ros_guarded_arm_collides', pairs=', '.join(sorted(set(pairs))),
                             at=f'{at:.0%}'),
                           advice=t('ros_guarded_arm_collides_fix'),
                           details={'contacts': sorted(set(pairs)), 'at_fraction': at})
