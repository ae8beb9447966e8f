"""The envelope of a guarded move: the line is cut at the workspace box, refused without room."""

from __future__ import annotations

import asyncio

from doubles import RecordingBackend
from mcp_ros_bridge.backends.port import GuardedGoal, MotionLimits, Pose
from mcp_ros_bridge.catalog.loader import load_robot
from mcp_ros_bridge.safety.envelope import EnvelopedBackend, LimitError
from mcp_ros_bridge.safety.guarded_envelope import room_along
from paths import CONFIG_DIR
import pytest

pytestmark = [pytest.mark.unit]

ROBOT, _ = load_robot(CONFIG_DIR)
LIMITS = MotionLimits(0.2, 0.2, 40.0, 0.25, 60.0)
DOWN = (0.0, 0.0, -1.0)


class TipAt(RecordingBackend):
    """The recording double with its fingertip (pointing down) at ``z``."""

    def __init__(self, z: float) -> None:
        super().__init__()
        self.z = z

    async def end_effector_pose(self, frame: str, link: str = '') -> Pose:
        return Pose((0.4, 0.0, self.z), (0.0, 1.0, 0.0, 0.0), frame)


def goal(distance: float, force: float = 5.0, speed: float = 0.005) -> GuardedGoal:
    return GuardedGoal(DOWN, distance, speed, force, LIMITS)


def test_room_along_a_direction_inside_a_box() -> None:
    lo, hi = (-1.0, -1.0, 0.0), (1.0, 1.0, 1.0)
    assert room_along((0.0, 0.0, 0.3), DOWN, lo, hi) == pytest.approx(0.3)
    assert room_along((0.5, 0.0, 0.3), (0.6, 0.0, 0.8), lo, hi) == pytest.approx(0.5 / 0.6)
    assert room_along((0.0, 0.0, -0.1), DOWN, lo, hi) < 0  # outside and going further out


def test_a_guarded_line_past_the_floor_is_cut_there_and_says_so() -> None:
    inner = TipAt(0.2)
    result = asyncio.run(EnvelopedBackend(inner, ROBOT).move_until_contact(goal(0.3)))
    sent = inner.calls[-1][1]
    assert sent.max_distance_m == pytest.approx(0.2)  # the workspace floor is z = 0
    assert sent.limits.contact_threshold_n == 5.0 and sent.limits.path_check is not None
    assert sent.limits.max_cartesian_speed_mps == pytest.approx(0.005)
    assert result.details['path_limited_by'] == 'workspace'


def test_no_room_or_a_threshold_over_the_limit_is_refused_before_anything_moves() -> None:
    inner = TipAt(0.0005)
    with pytest.raises(LimitError, match='workspace') as err:
        asyncio.run(EnvelopedBackend(inner, ROBOT).move_until_contact(goal(0.1)))
    assert 'CONTACT' in err.value.advice
    with pytest.raises(LimitError, match='contact_force_n'):
        asyncio.run(EnvelopedBackend(TipAt(0.2), ROBOT).move_until_contact(goal(0.1, 80.0)))
    # faster than the impact bound (below the Cartesian speed cap): refused in code too
    assert ROBOT.limits.max_guarded_speed_mps < 0.05 < ROBOT.limits.max_cartesian_speed_mps
    with pytest.raises(LimitError, match='speed_mps'):
        asyncio.run(EnvelopedBackend(inner, ROBOT).move_until_contact(goal(0.1, speed=0.05)))
    assert inner.motion_calls == []
