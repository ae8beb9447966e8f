"""The path limits one by one, their fold over a motion, and the check of a Plan value."""

from __future__ import annotations

import asyncio
from dataclasses import replace
import math
from typing import Any

from doubles import RecordingBackend
from mcp_ros_bridge.backends.port import (BackendError, JointGoal, MotionLimits, Plan, Pose,
                                          RobotState)
from mcp_ros_bridge.catalog.loader import load_robot
from mcp_ros_bridge.catalog.robot import Workspace
from mcp_ros_bridge.geometry import rpy_deg_to_quat
from mcp_ros_bridge.messages import t
from mcp_ros_bridge.safety.envelope import Envelope, EnvelopedBackend, LimitError
from mcp_ros_bridge.safety.path_limits import (ApproachCone, PathWatch, pose_limits, Slack,
                                               WorkspaceBox)
from paths import CONFIG_DIR
import pytest

pytestmark = [pytest.mark.unit]

ROBOT, _ = load_robot(CONFIG_DIR)
LOW = replace(ROBOT, limits=replace(ROBOT.limits, approach_cone_deg=30.0, workspace=Workspace(
    'panda_link0', (-0.8, -0.8, 0.0), (0.8, 0.8, 0.4))))
ENV = Envelope(LOW)
DOWN = (0.0, 1.0, 0.0, 0.0)


def at(z: float, tilt_deg: float = 0.0) -> Pose:
    """Return a tip pose at height ``z`` above (0.4, 0), fingers ``tilt_deg`` from down."""
    return Pose((0.4, 0.0, z), rpy_deg_to_quat(180.0, tilt_deg, 0.0), 'panda_link0')


def test_the_box_is_the_distance_outside_it_less_the_slack() -> None:
    """0 inside and within the slack, the gap beyond it, inf when not finite; the box refusal."""
    box = WorkspaceBox(ENV, 0.001)
    assert box.beyond(at(0.2)) == 0.0 and box.beyond(at(0.4005)) == 0.0
    assert box.beyond(at(0.45)) == pytest.approx(0.049)
    assert box.beyond(Pose((math.nan, 0.0, 0.2), DOWN, '')) == math.inf
    error = box.refusal(at(0.45), 'here', farther_out=True)
    assert isinstance(error, LimitError) and error.details['limit'] == 'workspace (here)'
    assert error.advice == f"{t('path_hint')} {t('path_farther_out')}"
    assert box.refusal(at(0.45), 'here', farther_out=False).advice == t('path_hint')


def test_the_cone_is_the_angle_outside_it_less_the_slack() -> None:
    """0 within cone and slack, the degrees beyond it otherwise; the refusal names the angle."""
    cone = ApproachCone(ENV, 0.5)
    assert cone.beyond(at(0.2, 10.0)) == 0.0 and cone.beyond(at(0.2, 30.4)) == 0.0
    assert cone.beyond(at(0.2, 40.0)) == pytest.approx(9.5)
    assert cone.beyond(Pose((0.4, 0.0, 0.2), (math.nan, 0.0, 0.0, 0.0), '')) == math.inf
    error = cone.refusal(at(0.2, 40.0), 'here', farther_out=False)
    assert error.details['limit'] == 'approach_cone (here)' and error.details['value'] == 40.0
    assert error.advice == t('cone_path', angle='40')


def test_the_limits_of_a_path_sample_are_the_box_then_the_cone() -> None:
    """The fold checks the box first, each with the slack's share."""
    box, cone = pose_limits(ENV, Slack(0.002, 0.3))
    assert isinstance(box, WorkspaceBox) and box.slack_m == 0.002
    assert isinstance(cone, ApproachCone) and cone.slack_deg == 0.3


@pytest.mark.parametrize('path', [[at(0.5), at(0.45), at(0.41), at(0.3)],
                                  [at(0.2, 60), at(0.2, 45), at(0.2, 30), at(0.2, 5)],
                                  [at(0.5, 50), at(0.45, 40), at(0.3, 0)]])
def test_a_path_starting_outside_that_comes_closer_is_admitted(path: list[Pose]) -> None:
    """Above the box, outside the cone, or both: every sample closer passes."""
    PathWatch(ENV)(path, [0.1 * k for k in range(len(path))])


@pytest.mark.parametrize('path,limit', [([at(0.5), at(0.45), at(0.47)], 'workspace'),
                                        ([at(0.2, 60), at(0.2, 62)], 'approach_cone'),
                                        ([at(0.5, 50), at(0.45, 40), at(0.44, 45)],
                                         'approach_cone')])
def test_a_path_that_goes_farther_out_is_refused(path: list[Pose], limit: str) -> None:
    """A sample farther out than the closest before: refused at it, naming the limit."""
    with pytest.raises(LimitError) as info:
        PathWatch(ENV)(path, [0.1 * k for k in range(len(path))])
    assert info.value.details['limit'].startswith(f'{limit} (planned path')
    assert f'sample {len(path)} of {len(path)}' in info.value.details['limit']
    assert t('path_farther_out') in info.value.advice


def test_a_new_pass_starts_from_the_first_sample_again() -> None:
    """Without a restart the watch goes on from the closest sample; with one, from the start."""
    watch = PathWatch(ENV)
    watch([at(0.5), at(0.42)], [0.0, 0.1])
    with pytest.raises(LimitError):
        watch([at(0.48)], [0.0])
    watch.restart()
    watch([at(0.5)], [0.0])


def _plan(goal: JointGoal, *poses: Pose, step_s: float = 1.0,
          rows: list[list[float]] | None = None) -> Plan:
    """Return a plan through ``poses``, ``step_s`` apart, its joints at home (or ``rows``)."""
    state = RobotState(dict(zip(ROBOT.arm_joints, ROBOT.home)))
    times = tuple(step_s * k for k in range(len(poses)))
    return Plan(goal, state, state, times, rows or [ROBOT.home] * len(poses), poses)


def test_check_plan_refuses_a_plan_value_outside_a_limit() -> None:
    """The pure check of a whole Plan: inside passes; a sample out and farther is refused."""
    goal = JointGoal({}, MotionLimits(0.2, 0.2, 40.0))
    ENV.check_plan(_plan(goal, at(0.2), at(0.3)))
    ENV.check_plan(_plan(goal, at(0.2, 40), at(0.2, 20)))  # on the way back into the cone
    with pytest.raises(LimitError) as info:
        ENV.check_plan(_plan(goal, at(0.2), at(0.45)))
    assert info.value.details['limit'] == 'workspace (planned path at t=1.000 s, sample 2 of 2)'


def test_check_plan_folds_the_joint_margins_over_the_plan_rows() -> None:
    """A sample past a joint's limit less the margin is refused, naming the joint and time."""
    goal = JointGoal({}, MotionLimits(0.2, 0.2, 40.0))
    hi = ROBOT.arm_position_limits[3][1] - ROBOT.limits.joint_limit_margin_rad
    rows = [list(ROBOT.home), [*ROBOT.home[:3], hi + 0.01, *ROBOT.home[4:]]]
    with pytest.raises(BackendError) as info:
        ENV.check_plan(_plan(goal, at(0.2), at(0.2), rows=rows))
    assert info.value.code == 'LIMIT_EXCEEDED'
    assert info.value.details == {'limit': 'joint_limits', 'joint': 'panda_joint4',
                                  'value': pytest.approx(hi + 0.01)}
    assert 't=1.000 s (sample 2 of 2)' in info.value.message
    inside = [list(ROBOT.home), [*ROBOT.home[:3], hi - 0.01, *ROBOT.home[4:]]]
    ENV.check_plan(_plan(goal, at(0.2), at(0.2), rows=inside))


@pytest.mark.parametrize('cap', [None, 0.1])
def test_check_plan_refuses_a_tip_faster_than_the_cap(cap: float | None) -> None:
    """The step between two samples at most the plan's cap (else the robot's), plus 2 %."""
    goal = JointGoal({}, MotionLimits(0.2, 0.2, 40.0, max_cartesian_speed_mps=cap))
    limit = cap or LOW.limits.max_cartesian_speed_mps
    step = 0.1 / limit  # 10 cm at the cap
    ENV.check_plan(_plan(goal, at(0.2), at(0.3), step_s=step))
    ENV.check_plan(_plan(goal, at(0.2), at(0.3), step_s=step / 1.019))  # the sampling's share
    with pytest.raises(LimitError) as info:
        ENV.check_plan(_plan(goal, at(0.2), at(0.2), at(0.3), step_s=step / 1.05))
    assert info.value.details['limit'] == (
        f'max_cartesian_speed_mps (planned path at t={2 * step / 1.05:.3f} s, sample 3 of 3)')
    assert info.value.details['value'] == pytest.approx(limit * 1.05, rel=1e-3)
    assert info.value.details['allowed'] == f'<= {limit:g}'


class _Unchecked(RecordingBackend):
    """A backend whose plan leaves the box and never runs the goal's path check."""

    async def plan(self, goal: Any, start: Any = None) -> Plan:
        self.calls.append(('plan', goal))
        return _plan(goal, at(0.2), at(0.45))


def test_a_plan_whose_samples_the_backend_never_checked_is_refused_and_not_run() -> None:
    """The envelope checks the returned Plan: a backend that skips the check runs nothing."""
    backend = _Unchecked()
    env = EnvelopedBackend(backend, LOW)
    goal = JointGoal(dict(zip(ROBOT.arm_joints, ROBOT.home)), MotionLimits(0.2, 0.2, 40.0))
    with pytest.raises(LimitError) as info:
        asyncio.run(env.plan(goal))
    assert info.value.details['limit'].startswith('workspace (planned path')
    assert [name for name, _ in backend.calls].count('plan') == 1
    assert backend.motion_calls == []
