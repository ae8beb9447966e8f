"""
Typed MoveIt end to end: the bridge against move_group fakes that behave like MoveIt 2 Jazzy.

Runs where the generated ``moveit_msgs`` and ``control_msgs`` import
(``.ci/build_ros_interfaces``); in CI a missing build is a failure, not a
skip. The fakes (fake_move_group.py) reproduce what the real servers do,
including what makes naive clients wrong: SUCCESS without motion for an
unknown link, an ExecuteTrajectory cancel that stops nothing.
"""

import asyncio
import time

from mcp_ros_bridge.backends.port import (BackendError, CartesianGoal, JointGoal, MotionLimits,
                                          Pose, PoseGoal)
import pytest
import ros_support

pytestmark = [pytest.mark.ros_moveit, pytest.mark.anyio]
pytest.importorskip('rclpy', reason='rclpy does not import: the ros layer needs it')
moveit_rig = ros_support.import_moveit_rig()
limits, tcp_pose = moveit_rig.limits, moveit_rig.tcp_pose
REACHED = moveit_rig.REACHED
DOWN_AT = Pose((0.4, 0.1, 0.4), (0.0, 1.0, 0.0, 0.0), 'panda_link0')


async def test_pose_goal_names_the_real_link_and_reports_the_measured_error(rig):
    backend, fake, _, _ = rig
    target = tcp_pose(backend.config, REACHED)
    reports = []

    async def progress(fraction, message):
        reports.append(message)

    result = await backend.move_to_pose(PoseGoal(target, limits()), progress)
    assert result.status == 'SUCCEEDED', result.message
    request = fake.goals[-1].request
    assert request.goal_constraints[0].position_constraints[0].link_name == 'panda_hand'
    assert request.max_velocity_scaling_factor == pytest.approx(0.2)
    assert result.position_error_m < 0.001
    assert result.final_pose.position == pytest.approx(target.position, abs=1e-3)
    assert 'executing' in reports


async def test_success_not_where_it_was_sent_is_a_failure_with_the_error(rig):
    backend, fake, _, _ = rig
    target = tcp_pose(backend.config, REACHED)
    fake.solution = [q + 0.1 for q in REACHED]  # the controller ended elsewhere
    result = await backend.move_to_pose(PoseGoal(target, limits()))
    assert result.status == 'FAILED' and result.details['code'] == 'GOAL_NOT_REACHED'
    assert result.position_error_m > 0.02
    assert 'mm' in result.message


async def test_no_ik_solution_is_a_planning_error_and_nothing_moves(rig):
    backend, fake, _, _ = rig
    fake.code = -31
    before = fake.arm.positions
    with pytest.raises(BackendError, match='NO_IK_SOLUTION') as err:
        await backend.move_to_pose(PoseGoal(tcp_pose(backend.config, REACHED), limits()))
    assert 'out of reach' in err.value.advice
    assert fake.arm.positions == before


async def test_ompl_timeout_while_planning_is_a_planning_error(rig):
    backend, fake, _, _ = rig
    fake.code = -6
    with pytest.raises(BackendError, match='TIMED_OUT') as err:
        await backend.move_to_joints(JointGoal({'panda_joint1': 0.2}, limits()))
    assert 'planning ran out of time' in err.value.advice


async def test_unknown_group_is_a_configuration_error(rig):
    backend, fake, _, _ = rig
    fake.group = 'manipulator'  # MoveIt's SRDF has no panda_arm
    with pytest.raises(BackendError, match='INVALID_GROUP_NAME') as err:
        await backend.move_to_joints(JointGoal({'panda_joint1': 0.2}, limits()))
    assert 'moveit.group' in err.value.advice


async def test_pose_goal_for_a_link_moveit_lacks_is_refused_before_sending():
    async with moveit_rig.rigged(tcp=None) as (backend, fake, _, _):
        assert backend.config.ros.tcp is None  # panda_hand_tcp asked of MoveIt as is
        with pytest.raises(BackendError, match='INVALID_LINK_NAME') as err:
            await backend.move_to_pose(PoseGoal(DOWN_AT, limits()))
        assert 'ros.tcp' in err.value.advice
        assert fake.goals == []


async def test_start_check_refuses_an_unknown_tip_and_passes_the_shipped_one(rig):
    backend, _, _, _ = rig
    assert await backend.ready(5.0) == []
    async with moveit_rig.rigged(tcp=None) as (plain, _, _, _):
        with pytest.raises(BackendError, match='INVALID_LINK_NAME'):
            await plain.ready(5.0)


async def test_joint_goal_execution_failure_is_a_failed_motion(rig):
    backend, fake, _, _ = rig
    fake.exec_code = -4
    result = await backend.move_to_joints(JointGoal({'panda_joint1': 0.3}, limits()))
    assert result.status == 'FAILED' and result.details['code'] == 'CONTROL_FAILED'


async def wait_executing(fake):
    """Wait until the fake arm runs a trajectory."""
    assert await asyncio.to_thread(fake.executing.wait, 10.0)


async def still_within(backend, seconds):
    """Return how long joint states took to show every arm joint still, up to ``seconds``."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        joints = await backend.joint_states()
        if max(abs(v) for v in joints.velocities) < 0.01:
            return time.monotonic() - start
        await asyncio.sleep(0.005)
    return None


def long_path(backend, fake):
    """Return a Cartesian goal whose execution takes 20 s on the fake arm."""
    fake.duration_s = 20.0
    end = tcp_pose(backend.config, REACHED)
    return CartesianGoal([end], limits(timeout_s=30.0))


async def test_stop_halts_a_cartesian_execution_that_ignores_cancel(rig):
    backend, fake, _, _ = rig
    motion = asyncio.ensure_future(backend.follow_cartesian_path(long_path(backend, fake)))
    await wait_executing(fake)
    stopped = await backend.stop()
    assert stopped.status == 'STOPPED', stopped.message
    # The cancel was sent too. The server sees it only if it lands before the stop event
    # has ended the goal, which a busy machine does not promise: count what was sent.
    assert stopped.details['cancelled_goals'] == 1
    assert await still_within(backend, 0.2) is not None
    result = await motion
    assert result.status == 'STOPPED'
    # what actually halted it: the execution ignores the cancel, so it ended on the stop event
    # (which a loaded machine may deliver after the arm, not yet moving, already looked still)
    assert 'stop' in fake.events.received
    assert stopped.details['waited_s'] < 2.0


async def test_force_guard_halts_a_cartesian_execution(rig):
    backend, fake, pub, _ = rig
    motion = asyncio.ensure_future(backend.follow_cartesian_path(long_path(backend, fake)))
    await wait_executing(fake)
    pub.force = (0.0, 0.0, 80.0)
    result = await motion
    assert result.status == 'CONTACT_ABORT' and result.peak_force_n >= 80.0
    assert 'stop' in fake.events.received
    assert result.details['confirmed_still'] is True
    assert await still_within(backend, 0.2) is not None


async def test_stop_with_nothing_running_is_idle_and_confirmed(rig):
    backend, _, _, _ = rig
    result = await backend.stop()
    assert result.status == 'IDLE' and 'still' in result.message


async def test_zero_scaling_never_reaches_move_group(rig):
    backend, fake, _, _ = rig
    bad = PoseGoal(tcp_pose(backend.config, REACHED), MotionLimits(0.0, 0.2, 40.0))
    with pytest.raises(BackendError, match='INVALID_GOAL'):
        await backend.move_to_pose(bad)
    assert fake.goals == []
