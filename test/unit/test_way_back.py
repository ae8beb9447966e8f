"""The way back into the envelope: a path that starts outside a limit may only come closer."""

from __future__ import annotations

from dataclasses import replace
import math

from mcp_ros_bridge.backends.joint_margins import JointMargins
from mcp_ros_bridge.backends.port import BackendError, MotionLimits, Pose, PoseGoal
from mcp_ros_bridge.catalog.loader import load_robot
from mcp_ros_bridge.catalog.robot import Workspace
from mcp_ros_bridge.geometry import rpy_deg_to_quat
from mcp_ros_bridge.inside import outside_box, outside_interval, TowardInside
from mcp_ros_bridge.messages import t
from mcp_ros_bridge.safety.envelope import Envelope, LimitError
from mcp_ros_bridge.safety.path_limits import PathWatch, Slack
from paths import CONFIG_DIR
import pytest

pytestmark = [pytest.mark.unit]

ROBOT, _ = load_robot(CONFIG_DIR)
NARROW = replace(ROBOT, limits=replace(ROBOT.limits, approach_cone_deg=30.0))
SLACK_DEG = Slack().angle_deg


def tilted(*angles: float, z: float = 0.3) -> list[Pose]:
    """Return tip poses at (0.4, 0, z) whose fingers are ``angles`` deg from straight down."""
    return [Pose((0.4, 0.0, z), rpy_deg_to_quat(180.0, a, 0.0), 'panda_link0') for a in angles]


def at_heights(*zs: float) -> list[Pose]:
    """Return fingers-down tip poses at (0.4, 0, z)."""
    return [Pose((0.4, 0.0, z), (0.0, 1.0, 0.0, 0.0), 'panda_link0') for z in zs]


def times(n: int) -> list[float]:
    """Return n sample times 0.1 s apart."""
    return [0.1 * k for k in range(n)]


def watch(robot=NARROW) -> PathWatch:
    """Return a fresh path watch of one motion."""
    return PathWatch(Envelope(robot))


def test_distances_outside_an_interval_and_a_box() -> None:
    """0 inside, the gap outside, the Euclidean gap to a box, inf for what is not finite."""
    assert outside_interval(0.5, 0.0, 1.0) == 0.0
    assert outside_interval(-0.25, 0.0, 1.0) == 0.25 and outside_interval(1.5, 0.0, 1.0) == 0.5
    assert outside_interval(math.nan, 0.0, 1.0) == math.inf
    assert outside_box((2.0, 0.5, -2.0), (0, 0, 0), (1, 1, 1)) == pytest.approx(math.sqrt(5))
    assert outside_box((0.5, math.inf, 0.5), (0, 0, 0), (1, 1, 1)) == math.inf


def test_the_rule_admits_only_samples_that_come_closer_and_stay_inside() -> None:
    """Never farther than the closest so far; once at 0 always 0; restart from the start."""
    rule = TowardInside()
    assert [rule.admit(d) for d in (3.0, 2.0, 2.0, 0.5, 0.0, 0.0)] == [True] * 6
    assert rule.admit(1e-3) is False
    rule.restart()
    assert rule.admit(2.5) and rule.admit(0.0) and not rule.admit(0.1)
    assert TowardInside().admit(math.inf) is False


def test_cone_a_path_from_outside_that_comes_closer_passes() -> None:
    """Fingers 60 deg from down with a 30 deg cone: turning back down sample by sample is fine."""
    watch()(tilted(60, 55, 40, 30, 10, 0), times(6))


@pytest.mark.parametrize('angles,refused', [((60, 65), 2), ((60, 40, 45), 3),
                                            ((60, 20, 35), 3), ((10, 40), 2)])
def test_cone_a_path_that_goes_farther_out_is_refused(angles: tuple[float, ...],
                                                      refused: int) -> None:
    """Farther out than before, or out again once inside: refused at that sample."""
    with pytest.raises(LimitError) as info:
        watch()(tilted(*angles), times(len(angles)))
    assert info.value.details['limit'].startswith('approach_cone (planned path')
    assert f'sample {refused} of {len(angles)}' in info.value.details['limit']
    assert (t('path_farther_out') in info.value.advice) == (angles[0] > 30)


def test_cone_samples_get_the_goal_tolerance_a_reached_target_gets() -> None:
    """A sample within the orientation tolerance beyond the cone passes; one past it does not."""
    watch()(tilted(0, 30 + 0.9 * SLACK_DEG, 30), times(3))
    with pytest.raises(LimitError):
        watch()(tilted(0, 30 + 1.1 * SLACK_DEG), times(2))


def test_workspace_a_path_from_below_the_floor_must_rise() -> None:
    """Starting 5 cm below the box floor: rising passes, sinking further is refused."""
    watch()(at_heights(-0.05, -0.03, 0.0, 0.2), times(4))
    with pytest.raises(LimitError) as info:
        watch()(at_heights(-0.05, -0.04, -0.06), times(3))
    assert info.value.details['limit'].startswith('workspace (planned path at t=0.200 s')
    assert t('path_farther_out') in info.value.advice


def test_workspace_a_path_from_inside_still_may_not_leave() -> None:
    """Inside the box is where it stays: the rule does not widen the box."""
    low = replace(ROBOT, limits=replace(ROBOT.limits, workspace=Workspace(
        'panda_link0', (-0.855, -0.855, 0.1), (0.855, 0.855, 1.19))))
    with pytest.raises(LimitError):
        watch(low)(at_heights(0.3, 0.05), times(2))


def test_the_execution_after_the_plan_is_checked_from_the_start_again() -> None:
    """Plan, restart, then single samples while running: outside start, coming closer."""
    check = watch()
    check(tilted(60, 40, 20, 0), times(4))
    check.restart()  # the backend, as execution begins (port.new_pass)
    check(tilted(58), [0.01])
    check(tilted(50), [0.05])
    with pytest.raises(LimitError):
        check(tilted(52), [0.06])


def _rows(j4: list[float]) -> list[list[float]]:
    return [[*ROBOT.home[:3], q, *ROBOT.home[4:]] for q in j4]


def test_joint_margin_a_joint_outside_the_margin_may_come_back() -> None:
    """panda_joint4 just past its margin (max -0.0898): back in passes, further out refused."""
    hi = ROBOT.arm_position_limits[3][1] - ROBOT.limits.joint_limit_margin_rad
    start = hi + 0.01
    JointMargins(ROBOT).check(times(4), _rows([start, start, hi - 0.1, -1.0]))
    with pytest.raises(BackendError) as info:
        JointMargins(ROBOT).check(times(3), _rows([start, start - 0.005, start + 0.001]))
    assert info.value.details['joint'] == 'panda_joint4'
    with pytest.raises(BackendError):
        JointMargins(ROBOT).check(times(2), _rows([-1.0, hi + 0.001]))


def test_the_slack_is_the_goal_tolerance_capped_at_the_default() -> None:
    """A goal with a looser tolerance does not widen the envelope beyond the default slack."""
    loose = PoseGoal(tilted(0)[0], MotionLimits(0.2, 0.2, 40.0), position_tolerance_m=0.05,
                     orientation_tolerance_rad=0.5)
    tight = replace(loose, position_tolerance_m=1e-4, orientation_tolerance_rad=1e-3)
    assert Slack.of(loose) == Slack()
    assert Slack.of(tight) == Slack(1e-4, math.degrees(1e-3))
