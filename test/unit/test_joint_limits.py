"""Joint targets: the published bounds and the envelope agree on limits less the margin."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from doubles import RecordingBackend
from mcp_ros_bridge.backends.port import JointGoal, MotionLimits
from mcp_ros_bridge.capabilities import KINDS
from mcp_ros_bridge.catalog.loader import load_catalog
from mcp_ros_bridge.safety.envelope import EnvelopedBackend, LimitError
from paths import CONFIG_DIR
import pytest

pytestmark = [pytest.mark.unit]

CATALOG = load_catalog(CONFIG_DIR, kinds=KINDS)
ROBOT = CATALOG.robot
MARGIN = ROBOT.limits.joint_limit_margin_rad
LIMITS = MotionLimits(0.2, 0.2, 40.0, 0.25, 60.0)


def goal(values: list[float]) -> JointGoal:
    """Return a joint goal for the arm."""
    return JointGoal(dict(zip(ROBOT.arm_joints, values)), LIMITS)


def test_published_joint_bounds_are_limits_less_margin() -> None:
    """move_arm_joints publishes each joint's bounds from robot.yaml, less the margin."""
    items = CATALOG.get('move_arm_joints').input_schema['properties']['positions']['prefixItems']
    assert MARGIN > 0
    for item, (lo, hi) in zip(items, ROBOT.arm_position_limits, strict=True):
        assert item['minimum'] == pytest.approx(lo + MARGIN)
        assert item['maximum'] == pytest.approx(hi - MARGIN)


def test_envelope_rejects_a_joint_inside_the_margin() -> None:
    """A target between the published bound and the hard limit never reaches the robot."""
    backend = RecordingBackend()
    guarded = EnvelopedBackend(backend, ROBOT)
    hi = ROBOT.arm_position_limits[4][1]
    target = list(ROBOT.home)
    target[4] = hi - MARGIN / 2
    with pytest.raises(LimitError) as err:
        asyncio.run(guarded.move_to_joints(goal(target)))
    assert 'panda_joint5' in str(err.value) and str(round(hi - MARGIN, 6)) in str(err.value)
    assert backend.motion_calls == []


def test_envelope_clamps_a_joint_with_the_clamp_policy() -> None:
    """With policy clamp the target is moved inside and the result says so."""
    robot = replace(ROBOT, limits=replace(ROBOT.limits, policies={'joint_limits': 'clamp'}))
    backend = RecordingBackend()
    target = list(ROBOT.home)
    target[0] = ROBOT.arm_position_limits[0][1]
    result = asyncio.run(EnvelopedBackend(backend, robot).move_to_joints(goal(target)))
    sent = backend.motion_calls[0][1].positions['panda_joint1']
    assert sent == pytest.approx(ROBOT.arm_position_limits[0][1] - MARGIN)
    assert any('panda_joint1' in note for note in result.details['adjustments'])
