"""What a robot.yaml reload changes, what it may not change live, and the robot hash."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from doubles import RecordingBackend
from mcp_ros_bridge.backends.deferred import DeferredBackend
from mcp_ros_bridge.capabilities import KINDS
from mcp_ros_bridge.catalog.loader import load_catalog
from mcp_ros_bridge.server.live_config import (changes_gripper_model, check_live, describe,
                                               fixed_changes, ReloadRefused, robot_changes)
from paths import CONFIG_DIR
import pytest

pytestmark = [pytest.mark.unit]

CATALOG = load_catalog(CONFIG_DIR, kinds=KINDS)
ROBOT = CATALOG.robot


def test_limits_and_gripper_changes_are_listed_old_to_new_and_may_apply_live() -> None:
    """Each changed setting once, by dotted name; none of them needs a restart."""
    new = replace(ROBOT, gripper_mass_kg=0.8, limits=replace(
        ROBOT.limits, approach_cone_deg=30.0, max_cartesian_speed_mps=0.05))
    changes = robot_changes(ROBOT, new)
    assert [c[0] for c in changes] == ['gripper_mass_kg', 'limits.approach_cone_deg',
                                       'limits.max_cartesian_speed_mps']
    assert 'limits.approach_cone_deg 90.0 → 30.0' in describe(changes)
    assert fixed_changes(changes) == [] and changes_gripper_model(changes)
    check_live(changes)
    assert robot_changes(ROBOT, ROBOT) == []


def test_names_and_ros_interfaces_cannot_change_live() -> None:
    """Renamed joints or a ROS topic: refused, naming each setting and the restart."""
    ros = replace(ROBOT.ros, topics={**ROBOT.ros.topics, 'joint_states': replace(
        ROBOT.ros.topics['joint_states'], name='/arm/joint_states')})
    new = replace(ROBOT, arm_joints=('a1',) + ROBOT.arm_joints[1:], ros=ros,
                  limits=replace(ROBOT.limits, approach_cone_deg=30.0))
    changes = robot_changes(ROBOT, new)
    assert fixed_changes(changes) == ['arm_joints', 'ros.topics.joint_states.name']
    with pytest.raises(ReloadRefused) as info:
        check_live(changes)
    assert 'arm_joints, ros.topics.joint_states.name' in str(info.value)
    assert 'restart the server' in str(info.value)


def test_the_robot_hash_follows_every_robot_setting_and_not_the_tools() -> None:
    """robot_hash changes with a limit; content_hash (the tools) does not."""
    narrow = replace(CATALOG, robot=replace(ROBOT, limits=replace(ROBOT.limits,
                                                                  approach_cone_deg=30.0)))
    assert narrow.robot_hash != CATALOG.robot_hash
    assert narrow.content_hash == CATALOG.content_hash
    assert replace(CATALOG).robot_hash == CATALOG.robot_hash


class Configurable(RecordingBackend):
    """A recording backend that keeps each robot.yaml it is given."""

    def __init__(self) -> None:
        """Start with none."""
        super().__init__()
        self.configs: list[Any] = []

    def reconfigure(self, config: Any) -> None:
        """Record the config."""
        self.configs.append(config)


def test_a_backend_still_starting_gets_the_reloaded_config_once_created() -> None:
    """A reload before the deferred backend exists reaches it when created, later ones at once."""
    inner = Configurable()
    deferred = DeferredBackend('sim', lambda: inner)
    narrow = replace(ROBOT, limits=replace(ROBOT.limits, approach_cone_deg=30.0))
    deferred.reconfigure(narrow)
    assert inner.configs == []
    asyncio.run(deferred.start())
    assert inner.configs[0] is narrow
    deferred.reconfigure(ROBOT)
    assert inner.configs[-1] is ROBOT
