"""
What a reload changes in ``robot.yaml``, and what it may not change while serving.

A reload applies every setting it read or none: :func:`robot_changes` lists
each changed setting (old → new) for the log, :func:`fixed_changes` the ones
only a restart may change (names the running robot and its backend were built
with: frames, groups, joints, every ROS interface), which refuse the reload.
"""

from __future__ import annotations

import logging
from typing import Any

from mcp_ros_bridge.backends.port import RobotBackend
from mcp_ros_bridge.capabilities.memory import RobotMemory
from mcp_ros_bridge.catalog.loader import robot_fields
from mcp_ros_bridge.catalog.robot import RobotConfig
from mcp_ros_bridge.messages import t

FIXED = ('robot', 'base_frame', 'end_effector', 'ft_frame', 'group', 'gripper_group',
         'arm_joints', 'gripper_joints', 'ros')
GRIPPER_MODEL = ('gripper_mass_kg', 'gripper_com_m')  # what the F/T tare was taken against

Change = tuple[str, Any, Any]
log = logging.getLogger('mcp_ros_bridge.server')


class ReloadRefused(Exception):
    """A reload that would change a setting that cannot change live; nothing was applied."""


def robot_changes(old: RobotConfig, new: RobotConfig) -> list[Change]:
    """Return ``(setting, old, new)`` for every setting of robot.yaml that differs."""
    a, b = robot_fields(old), robot_fields(new)
    return [(k, a.get(k), b.get(k)) for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]


def fixed_changes(changes: list[Change]) -> list[str]:
    """Return the changed settings only a restart may change."""
    return [k for k, _, _ in changes if k.split('.')[0] in FIXED]


def changes_gripper_model(changes: list[Change]) -> bool:
    """Return whether the gripper model below the F/T sensor changed (a tare is then void)."""
    return any(k in GRIPPER_MODEL for k, _, _ in changes)


def carry_over(old: RobotConfig, new: RobotConfig, backend: RobotBackend,
               memory: RobotMemory) -> None:
    """Give ``backend`` the new robot.yaml; drop kept state it voids (a tare, new gripper)."""
    backend.reconfigure(new)
    if memory.reloaded(changes_gripper_model(robot_changes(old, new))):
        log.warning('%s', t('reload_tare_cleared'))


def describe(changes: list[Change]) -> str:
    """Return the changes as one log text: ``setting old → new; ...``."""
    return '; '.join(t('reload_change', setting=k, old=_shown(a), new=_shown(b))
                     for k, a, b in changes)


def check_live(changes: list[Change]) -> None:
    """Raise :class:`ReloadRefused` naming the settings that cannot change while serving."""
    fixed = fixed_changes(changes)
    if fixed:
        raise ReloadRefused(t('reload_fixed', settings=', '.join(fixed)))


def _shown(value: Any) -> str:
    return str(list(value)) if isinstance(value, tuple) else str(value)
