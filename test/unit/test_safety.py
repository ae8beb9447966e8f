"""The safety layer on its own: envelope, arbiter and token bucket."""

from __future__ import annotations

import asyncio
from dataclasses import replace
import math
from typing import Any

from doubles import grasp_goal, RecordingBackend
from hypothesis import given, HealthCheck, settings, strategies as st
from mcp_ros_bridge.backends.port import (BackendError, CartesianGoal, JointGoal,
                                          MotionLimits, Pose, PoseGoal)
from mcp_ros_bridge.capabilities.motion import motion_outcome
from mcp_ros_bridge.catalog.loader import load_robot
from mcp_ros_bridge.catalog.robot import RobotConfig
from mcp_ros_bridge.safety.arbiter import BusyError, MotionArbiter
from mcp_ros_bridge.safety.envelope import EnvelopedBackend, LimitError
from mcp_ros_bridge.safety.ratelimit import RateLimiter, TokenBucket
from paths import CONFIG_DIR
import pytest

pytestmark = [pytest.mark.unit]

ROBOT, _ = load_robot(CONFIG_DIR)
WS = ROBOT.limits.workspace
CAP_V = ROBOT.limits.max_velocity_scaling
CAP_A = ROBOT.limits.max_acceleration_scaling
DOWN = (0.0, 1.0, 0.0, 0.0)  # (w, x, y, z): fingers down


def limits(vel: float = 0.2, acc: float = 0.2) -> MotionLimits:
    """Return motion limits with the given scaling factors."""
    return MotionLimits(vel, acc, 40.0, 0.25, 60.0)


def pose_goal(x: float = 0.5, y: float = 0.0, z: float = 0.3, frame: str = 'panda_link0',
              vel: float = 0.2, acc: float = 0.2, q: tuple[float, ...] = DOWN) -> PoseGoal:
    """Return a pose goal for the fingertip (fingers down in panda_link0 by default)."""
    return PoseGoal(Pose((x, y, z), q, frame), limits(vel, acc),  # type: ignore[arg-type]
                    link='panda_hand_tcp')


def with_policies(**policies: str) -> RobotConfig:
    """Return the shipped robot with per-limit policies."""
    return replace(ROBOT, limits=replace(ROBOT.limits, policies=policies))


def run(coro: Any) -> Any:
    """Run one coroutine on a fresh event loop (for the hypothesis property)."""
    return asyncio.run(coro)


# --- Envelope: reject ---------------------------------------------------------------------


@pytest.mark.parametrize('x,y,z', [(0.9, 0.0, 0.3), (0.5, -0.86, 0.3), (0.5, 0.0, -0.01),
                                   (0.5, 0.0, 1.2)])
def test_workspace_rejection_names_limit_value_and_range(x: float, y: float, z: float) -> None:
    """A target outside the box is refused: the limit, the value and the box are named."""
    backend = RecordingBackend()
    with pytest.raises(LimitError) as info:
        run(EnvelopedBackend(backend, ROBOT).move_to_pose(pose_goal(x, y, z)))
    err = info.value
    assert err.code == 'LIMIT_EXCEEDED'
    assert err.details['limit'] == 'workspace (target)'
    assert err.details['value'] == (x, y, z)
    assert 'x in [-0.855, 0.855]' in err.message and 'z in [0.0, 1.19]' in err.message
    assert 'panda_link0' in err.message and str((x, y, z)) in err.message
    assert backend.motion_calls == []


@pytest.mark.parametrize('vel,acc,limit', [(0.0, 0.2, 'velocity_scaling'),
                                           (0.51, 0.2, 'velocity_scaling'),
                                           (-0.1, 0.2, 'velocity_scaling'),
                                           (math.nan, 0.2, 'velocity_scaling'),
                                           (0.2, 0.0, 'acceleration_scaling'),
                                           (0.2, math.inf, 'acceleration_scaling')])
def test_scaling_rejection_names_limit_value_and_range(vel: float, acc: float,
                                                       limit: str) -> None:
    """Scaling outside (0, cap] is refused (0 would mean full speed in MoveIt)."""
    backend = RecordingBackend()
    for call in (lambda e: e.move_to_pose(pose_goal(vel=vel, acc=acc)),
                 lambda e: e.move_to_joints(JointGoal(dict(zip(ROBOT.arm_joints, ROBOT.home)),
                                                      limits(vel, acc)))):
        with pytest.raises(LimitError) as info:
            run(call(EnvelopedBackend(backend, ROBOT)))
        assert info.value.details['limit'] == limit
        assert info.value.details['allowed'] == '(0.0, 0.5]'
        assert f'{limit} is {vel if limit[0] == "v" else acc}' in info.value.message
    assert backend.motion_calls == []


def test_cartesian_waypoint_rejection_names_the_waypoint() -> None:
    """Every waypoint is checked; the failing one is named."""
    backend = RecordingBackend()
    goal = CartesianGoal([Pose((0.5, 0.0, 0.3), DOWN, 'panda_link0'),
                          Pose((0.5, 0.0, -0.2), DOWN, 'panda_link0')], limits())
    with pytest.raises(LimitError) as info:
        run(EnvelopedBackend(backend, ROBOT).follow_cartesian_path(goal))
    assert info.value.details['limit'] == 'workspace (waypoint 1)'
    assert backend.motion_calls == []


@pytest.mark.parametrize('force', [4.0, 30.5, math.nan])
def test_grip_force_rejection(force: float) -> None:
    """Grip force outside the gripper's range is refused."""
    backend = RecordingBackend()
    with pytest.raises(LimitError) as info:
        run(EnvelopedBackend(backend, ROBOT).grasp(grasp_goal(force)))
    assert info.value.details['limit'] == 'gripper_force'
    assert info.value.details['allowed'] == '[5.0, 30.0]'
    assert backend.motion_calls == []


# --- Envelope: clamp ----------------------------------------------------------------------


def test_clamp_policy_adjusts_and_reports() -> None:
    """With policy clamp the goal is adjusted and the adjustments reported in the result."""
    backend = RecordingBackend()
    robot = with_policies(workspace='clamp', velocity_scaling='clamp',
                          acceleration_scaling='clamp', gripper_force='clamp')
    env = EnvelopedBackend(backend, robot)
    result = run(env.move_to_pose(pose_goal(x=0.95, z=-0.05, vel=0.9, acc=0.0)))
    goal = backend.motion_calls[-1][1]
    assert goal.target.position == (0.855, 0.0, 0.0)
    assert goal.limits.velocity_scaling == CAP_V
    assert 0 < goal.limits.acceleration_scaling <= CAP_A
    notes = result.details['adjustments']
    assert len(notes) == 3
    assert any(n.startswith('target clamped from (0.95, 0.0, -0.05) to (0.855, 0.0, 0.0)')
               for n in notes)
    assert 'velocity_scaling clamped from 0.9 to 0.5' in notes
    # ... and reported in the tool's structured result.
    outcome = motion_outcome('Move to pose', result, goal.limits)
    assert outcome.structured['adjustments'] == notes
    grip = run(env.grasp(grasp_goal(45.0)))
    assert backend.calls[-1][1].force_n == 30.0
    assert grip.details['adjustments'] == ['gripper_force clamped from 45.0 to 30.0']


def test_clamp_never_clamps_non_finite_values() -> None:
    """Refuse NaN even under the clamp policy: it cannot be clamped into range."""
    backend = RecordingBackend()
    env = EnvelopedBackend(backend, with_policies(workspace='clamp', velocity_scaling='clamp'))
    for goal in (pose_goal(x=math.nan), pose_goal(vel=math.nan)):
        with pytest.raises(LimitError):
            run(env.move_to_pose(goal))
    assert backend.motion_calls == []


def test_policy_is_per_limit() -> None:
    """Clamping velocity does not clamp the workspace."""
    backend = RecordingBackend()
    env = EnvelopedBackend(backend, with_policies(velocity_scaling='clamp'))
    run(env.move_to_pose(pose_goal(vel=0.8)))
    with pytest.raises(LimitError):
        run(env.move_to_pose(pose_goal(x=0.9)))
    assert len(backend.motion_calls) == 1


# --- Envelope: frames and sensors ---------------------------------------------------------


def test_pose_in_another_frame_is_transformed_before_the_box_check() -> None:
    """
    A pose in the tool frame is expressed in the workspace frame first.

    The double places panda_hand_tcp at (0.307, 0, 0.487) pointing down (180° about x), so
    (0, 0, 0.1) in the tool frame is (0.307, 0, 0.387) in panda_link0, and (0, 0, 0.6)
    — inside the box as raw numbers — is 0.113 m below the table.
    """
    backend = RecordingBackend()
    env = EnvelopedBackend(backend, ROBOT)
    same = (1.0, 0.0, 0.0, 0.0)  # the tool's own orientation: fingers stay down
    run(env.move_to_pose(pose_goal(0.0, 0.0, 0.1, frame='panda_hand_tcp', q=same)))
    assert ('end_effector_pose', ('panda_link0', 'panda_hand_tcp')) in backend.calls
    goal = backend.motion_calls[-1][1]
    assert goal.target.frame_id == 'panda_link0'
    assert goal.target.position == pytest.approx((0.307, 0.0, 0.387), abs=1e-9)
    with pytest.raises(LimitError) as info:
        run(env.move_to_pose(pose_goal(0.0, 0.0, 0.6, frame='panda_hand_tcp', q=same)))
    assert info.value.details['value'] == pytest.approx((0.307, 0.0, -0.113), abs=1e-4)
    assert len(backend.motion_calls) == 1


def test_stale_ft_data_refuses_grasp() -> None:
    """Force control refuses when the newest F/T sample is older than the max age."""
    backend = RecordingBackend()
    backend.wrench_age = ROBOT.limits.sensor_max_age_s + 0.01
    with pytest.raises(BackendError) as info:
        run(EnvelopedBackend(backend, ROBOT).grasp(grasp_goal(15.0)))
    assert info.value.code == 'SENSOR_STALE'
    assert '0.510 s old' in info.value.message
    assert backend.motion_calls == []
    backend.wrench_age = 0.001
    run(EnvelopedBackend(backend, ROBOT).grasp(grasp_goal(15.0)))
    assert [c[0] for c in backend.motion_calls] == ['grasp']


# --- Property: whatever arrives, what reaches the backend is inside the envelope -----------

_floats = st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                    st.floats(-2.0, 2.0), st.sampled_from([0.0, -0.0, 1e-300, 0.5, 1e308]))
_scaling = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.floats(-0.1, 1.0),
                     st.sampled_from([0.0, 5e-324, CAP_V, 0.5000001]))
_frames = st.sampled_from(['panda_link0', '', 'panda_hand_tcp'])
_policy = st.sampled_from(['reject', 'clamp'])


def _in_envelope(goal_limits: MotionLimits, points: list[tuple[float, float, float]]) -> None:
    assert 0.0 < goal_limits.velocity_scaling <= CAP_V
    assert 0.0 < goal_limits.acceleration_scaling <= CAP_A
    for p in points:
        assert all(math.isfinite(v) for v in p), p
        assert WS.contains(p), p


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(xyz=st.tuples(_floats, _floats, _floats), frame=_frames, vel=_scaling, acc=_scaling,
       policy=_policy, kind=st.sampled_from(['pose', 'path', 'joints']))
def test_any_accepted_motion_lies_inside_the_envelope(xyz: tuple[float, float, float],
                                                      frame: str, vel: float, acc: float,
                                                      policy: str, kind: str) -> None:
    """For ANY accepted motion the goal sent on is in the box with scaling in (0, cap]."""
    backend = RecordingBackend()
    robot = with_policies(workspace=policy, velocity_scaling=policy,
                          acceleration_scaling=policy)
    env = EnvelopedBackend(backend, robot)
    lim = limits(vel, acc)
    if kind == 'pose':
        call = env.move_to_pose(PoseGoal(Pose(xyz, DOWN, frame), lim))
    elif kind == 'path':
        call = env.follow_cartesian_path(CartesianGoal(
            [Pose((0.4, 0.0, 0.3), DOWN, 'panda_link0'), Pose(xyz, DOWN, frame)], lim))
    else:
        call = env.move_to_joints(JointGoal(dict(zip(ROBOT.arm_joints, ROBOT.home)), lim))
    try:
        run(call)
    except LimitError:
        assert backend.motion_calls == []
        return
    assert len(backend.motion_calls) == 1
    name, goal = backend.motion_calls[0]
    if name == 'move_to_pose':
        _in_envelope(goal.limits, [goal.target.position])
        assert goal.target.frame_id in ('', WS.frame)
    elif name == 'follow_cartesian_path':
        _in_envelope(goal.limits, [w.position for w in goal.waypoints])
        assert goal.min_fraction >= ROBOT.limits.min_cartesian_fraction
    else:
        _in_envelope(goal.limits, [])
    if policy == 'reject':
        # Nothing is changed silently: an accepted goal is the one that was asked for.
        assert goal.limits.velocity_scaling == vel and goal.limits.acceleration_scaling == acc


# --- Arbiter ------------------------------------------------------------------------------


@pytest.mark.anyio
async def test_arbiter_one_motion_at_a_time() -> None:
    """A second hold raises BusyError naming the running tool; release frees the arm."""
    arbiter = MotionArbiter()
    assert await arbiter.wait_idle(0)
    with arbiter.hold('move_arm_to_pose', 7) as running:
        assert arbiter.running is running and running.session == 7
        assert running.task is asyncio.current_task()
        with pytest.raises(BusyError) as info, arbiter.hold('move_arm_joints'):
            pass  # pragma: no cover - never entered
        assert 'move_arm_to_pose' in str(info.value) and 'stop_arm' in str(info.value)
        assert info.value.running is running
        assert not await arbiter.wait_idle(0)
    assert arbiter.running is None
    assert await arbiter.wait_idle(0)


@pytest.mark.anyio
async def test_arbiter_releases_on_error_and_wakes_waiters() -> None:
    """The arm is released when the motion raises; wait_idle waiters wake up."""
    arbiter = MotionArbiter()
    entered = asyncio.Event()
    fail = asyncio.Event()

    async def motion() -> None:
        with arbiter.hold('plan_trajectory'):
            entered.set()
            await fail.wait()
            raise RuntimeError('boom')

    task = asyncio.create_task(motion())
    await asyncio.wait_for(entered.wait(), 5)
    waiter = asyncio.create_task(arbiter.wait_idle(5))
    fail.set()
    with pytest.raises(RuntimeError):
        await asyncio.wait_for(task, 5)
    assert await asyncio.wait_for(waiter, 5) is True
    assert arbiter.running is None


# --- Token bucket and rate limiter --------------------------------------------------------


class FakeClock:
    """A clock the test advances by hand."""

    def __init__(self) -> None:
        """Start at t = 100 s."""
        self.now = 100.0

    def __call__(self) -> float:
        """Return the current time."""
        return self.now


def test_token_bucket_burst_then_refill() -> None:
    """Burst tokens at once, then one per 1/rate seconds; never more than the burst."""
    clock = FakeClock()
    bucket = TokenBucket(rate_per_s=2.0, burst=2, clock=clock)
    assert [bucket.take(), bucket.take()] == [0.0, 0.0]
    assert bucket.take() == pytest.approx(0.5)
    clock.now += 0.25
    assert bucket.take() == pytest.approx(0.25)
    clock.now += 0.25
    assert bucket.take() == 0.0
    assert bucket.take() == pytest.approx(0.5)
    clock.now += 3600
    assert [bucket.take(), bucket.take()] == [0.0, 0.0]
    assert bucket.take() > 0


def test_token_bucket_zero_rate_never_refills() -> None:
    """With rate 0 an empty bucket reports an infinite wait."""
    clock = FakeClock()
    bucket = TokenBucket(rate_per_s=0.0, burst=1, clock=clock)
    assert bucket.take() == 0.0
    clock.now += 1e6
    assert bucket.take() == math.inf


def test_rate_limiter_per_session() -> None:
    """Each session has its own bucket; a rate of 0 or less disables limiting."""
    limiter = RateLimiter(rate_per_s=0.001, burst=1)
    assert limiter.take('a') == 0.0 and limiter.take('a') > 0
    assert limiter.take('b') == 0.0
    off = RateLimiter(rate_per_s=0.0, burst=1)
    assert all(off.take('a') == 0.0 for _ in range(10))
    small = RateLimiter(rate_per_s=0.001, burst=1, max_sessions=2)
    for s in ('a', 'b', 'c'):
        small.take(s)
    assert len(small._buckets) == 2
