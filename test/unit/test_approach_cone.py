"""The approach cone: the finger axis may not leave the configured cone around straight down."""

from __future__ import annotations

import asyncio

from doubles import RecordingBackend
from mcp_ros_bridge.backends.port import CartesianGoal, MotionLimits, Pose, PoseGoal
from mcp_ros_bridge.capabilities.motion_advice import radians_hint
from mcp_ros_bridge.catalog.loader import load_robot
from mcp_ros_bridge.geometry import approach_angle_deg, rpy_deg_to_quat
from mcp_ros_bridge.safety.envelope import EnvelopedBackend, LimitError
from paths import CONFIG_DIR
import pytest

pytestmark = [pytest.mark.unit]

ROBOT, _ = load_robot(CONFIG_DIR)
LIMITS = MotionLimits(0.2, 0.2, 40.0, 0.25, 60.0)


@pytest.mark.parametrize('rpy,angle', [((180, 0, 0), 0.0), ((180, 0, 90), 0.0),
                                       ((180, 30, 0), 30.0), ((90, 0, 0), 90.0),
                                       ((180, -90, 0), 90.0), ((0, 0, 0), 180.0),
                                       ((3.14159, 0, 1.5708), 176.86)])
def test_approach_angle_of_roll_pitch_yaw(rpy: tuple[float, float, float], angle: float) -> None:
    """Roll 180, pitch 0 is straight down; roll 90 is horizontal; roll 0 points up."""
    assert approach_angle_deg(rpy_deg_to_quat(*rpy)) == pytest.approx(angle, abs=0.01)


@pytest.mark.parametrize('rpy', [(180, 0, 0), (135, 0, 45), (90, 0, 0), (180, 90, 0)])
def test_targets_inside_the_cone_pass(rpy: tuple[float, float, float]) -> None:
    """Down, tilted and horizontal fingers reach the backend."""
    backend = RecordingBackend()
    goal = PoseGoal(Pose((0.5, 0.0, 0.3), rpy_deg_to_quat(*rpy), 'panda_link0'), LIMITS)
    asyncio.run(EnvelopedBackend(backend, ROBOT).move_to_pose(goal))
    assert [c[0] for c in backend.motion_calls] == ['move_to_pose']


@pytest.mark.parametrize('rpy', [(0, 0, 0), (3.14159, 0, 1.5708), (60, 0, 0), (89, 0, 0)])
def test_targets_outside_the_cone_are_refused_and_nothing_moves(
        rpy: tuple[float, float, float]) -> None:
    """Fingers pointing up or above horizontal are refused before the backend sees them."""
    backend = RecordingBackend()
    goal = PoseGoal(Pose((0.5, 0.0, 0.3), rpy_deg_to_quat(*rpy), 'panda_link0'), LIMITS)
    with pytest.raises(LimitError) as info:
        asyncio.run(EnvelopedBackend(backend, ROBOT).move_to_pose(goal))
    assert info.value.details['limit'] == 'approach_cone (target)'
    assert 'Nothing moved' in info.value.advice
    assert backend.motion_calls == []


def test_every_waypoint_is_checked_against_the_cone() -> None:
    """A straight-line path whose orientation points up is refused, naming the waypoint."""
    backend = RecordingBackend()
    up = rpy_deg_to_quat(0, 0, 0)
    goal = CartesianGoal([Pose((0.5, 0.0, 0.3), up, 'panda_link0')], LIMITS)
    with pytest.raises(LimitError) as info:
        asyncio.run(EnvelopedBackend(backend, ROBOT).follow_cartesian_path(goal))
    assert info.value.details['limit'] == 'approach_cone (waypoint 0)'
    assert backend.motion_calls == []


def test_radians_hint_names_the_mistake_and_the_degrees() -> None:
    """Values that look like radians are named with their meaning in degrees."""
    hint = radians_hint({'roll': 3.14159, 'yaw': 1.5708})
    assert 'roll 3.14159 looks like radians: 180 deg' in hint
    assert '"orientation": {"roll": 180.0, "yaw": 90.0}' in hint
    assert radians_hint({'roll': 180.0, 'pitch': 0.0}) == ''
