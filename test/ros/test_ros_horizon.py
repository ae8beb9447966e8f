"""
Motions handed to MoveIt in segments of at most ``ros.execution_horizon_s``, over real DDS.

The move_group fake refuses a trajectory pushed while another runs or that does
not start at the current joints, as trajectory_execution_manager.cpp does: a
bridge that chained segments wrongly fails here. Stop, timeouts and results
hold across the seams.
"""

import asyncio

from fake_moveit import points_of
from mcp_ros_bridge.backends.port import JointGoal
import pytest
import ros_support

pytestmark = [pytest.mark.ros_moveit, pytest.mark.anyio]
pytest.importorskip('rclpy', reason='rclpy does not import: the ros layer needs it')
moveit_rig = ros_support.import_moveit_rig()
limits = moveit_rig.limits
TARGET = {f'panda_joint{i + 1}': q for i, q in enumerate(moveit_rig.REACHED)}
HORIZON_S = 1.0  # the shipped default


@pytest.fixture
async def rig():
    """
    Return the MoveIt rig with the shipped sensor max age (the seams here, not staleness).

    The rig's default 0.2 s is exceeded now and then by a loaded machine starving the
    process's sensor threads: the guard then fails closed (SENSOR_STALE), as it should.
    """
    shipped = ros_support.shipped_limit('sensor_max_age_s')
    async with moveit_rig.rigged(max_age_s=shipped) as parts:
        yield parts


def joint_goal(timeout_s=30.0):
    """Return a joint goal to REACHED (the fake plans it in ``fake.duration_s``)."""
    return JointGoal(TARGET, limits(timeout_s=timeout_s))


async def test_long_motion_goes_in_segments_and_reaches_its_goal(rig):
    backend, fake, _, _ = rig
    fake.duration_s = 4.0
    reports = []

    async def progress(fraction, message):
        reports.append((fraction, message))

    result = await backend.move_to_joints(joint_goal(), progress)
    assert result.status == 'SUCCEEDED', result.message
    assert fake.refused == [] and len(fake.executions) == result.details['segments'] > 3
    for execution in fake.executions:
        msg = points_of(execution.trajectory)
        assert msg[-1][0] <= HORIZON_S + 1e-6
    assert result.details['max_joint_error_rad'] < 0.01  # verified where it ended
    fractions = [f for f, _ in reports]
    assert fractions == sorted(fractions) and any('part 2 of' in m for _, m in reports)


async def test_stop_that_races_a_seam_halts_the_segment_it_raced(rig):
    """A stop while the next segment is on its way: that segment is halted once it runs."""
    backend, fake, _, _ = rig
    fake.duration_s, fake.hold_goal = 4.0, 1
    motion = asyncio.ensure_future(backend.move_to_joints(joint_goal()))
    assert await asyncio.to_thread(fake.goal_held.wait, 10.0)  # segment 2 not yet accepted
    stopped = await backend.stop()
    assert stopped.status == 'STOPPED', stopped.message
    await asyncio.to_thread(ros_support.wait_until, lambda: 'stop' in fake.events.received, 10.0)
    stops_before = fake.events.received.count('stop')  # the stop's own has arrived
    fake.release_goal.set()
    result = await motion
    assert result.status == 'STOPPED', result.message
    assert len(fake.executions) == 2  # nothing after the raced segment
    assert fake.events.received.count('stop') > stops_before  # sent once it ran
    end = points_of(fake.executions[1].trajectory)[-1][1]
    assert max(abs(a - b) for a, b in zip(fake.arm.positions, end)) > 0.01  # cut short


async def test_stop_dropped_before_the_raced_segment_starts_is_sent_again(rig):
    """
    Halt again: MoveIt drops a "stop" arriving between MONITOR and the execution's start.

    The raced segment here starts only after the bridge's halt arrived, and its
    controller takes 40 joint-state ticks (80 ms) to move: the halt alone would be
    lost, the arm at rest would look stopped, and the segment would run to its end.
    """
    backend, fake, pub, _ = rig
    fake.duration_s, fake.hold_goal = 4.0, 1
    motion = asyncio.ensure_future(backend.move_to_joints(joint_goal()))
    assert await asyncio.to_thread(fake.goal_held.wait, 10.0)
    assert (await backend.stop()).status == 'STOPPED'
    await asyncio.to_thread(ros_support.wait_until, lambda: 'stop' in fake.events.received, 10.0)
    stops = fake.events.received.count('stop')

    def start_after_the_halt():
        ros_support.wait_until(lambda: fake.events.received.count('stop') > stops, 10.0)
        ticks = pub.published['joints']
        ros_support.wait_until(lambda: pub.published['joints'] >= ticks + 40, 10.0)
    fake.before_start = start_after_the_halt
    fake.release_goal.set()
    result = await motion
    assert result.status == 'STOPPED', result.message
    assert len(fake.executions) == 2
    end = points_of(fake.executions[1].trajectory)[-1][1]
    assert max(abs(a - b) for a, b in zip(fake.arm.positions, end)) > 0.01  # cut short


async def test_timeout_ends_the_motion_within_a_segment(rig):
    backend, fake, _, _ = rig
    fake.duration_s = 8.0
    result = await backend.move_to_joints(joint_goal(timeout_s=1.5))
    assert result.status == 'TIMED_OUT', result.message
    assert 'stop' in fake.events.received and result.details['confirmed_still'] is True
    sent = len(fake.executions)
    assert 1 <= sent <= 3
    assert await asyncio.to_thread(ros_support.wait_until, lambda: not fake._busy, 10.0) is None
    assert len(fake.executions) == sent  # nothing more was handed over


async def test_horizon_zero_hands_over_the_whole_trajectory():
    async with moveit_rig.rigged(execution_horizon_s=0.0) as (backend, fake, _, _):
        fake.duration_s = 2.0
        result = await backend.move_to_joints(joint_goal())
    assert result.status == 'SUCCEEDED', result.message
    assert len(fake.executions) == 1 and 'segments' not in result.details
    assert points_of(fake.executions[0].trajectory)[-1][0] >= 2.0
