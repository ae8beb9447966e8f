"""
Simulation time as Gazebo gives it, over real rclpy and DDS.

A peer publishes ``/clock`` from 100 s at half real time, plus joint states and
wrench stamped with that simulation time. With ``use_sim_time`` the bridge
reads fresh values and its force guard trips on contact; with the clocks mixed
up either way (sim stamps + wall-clock node, wall stamps + sim-time node, sim
time without ``/clock``) reads and guarded motions are refused with
CLOCK_MISMATCH saying which clock is which and how to fix it.
"""

import asyncio

from mcp_ros_bridge.backends.port import BackendError, MotionLimits
from mcp_ros_bridge.backends.ros import RosBackend
import pytest
import ros_support

pytestmark = [pytest.mark.ros, pytest.mark.anyio]
pytest.importorskip('rclpy', reason='rclpy does not import: the ros layer needs it')
pytest.importorskip('rosgraph_msgs.msg', reason='rosgraph_msgs (the /clock type) is missing')
LIMITS = MotionLimits(velocity_scaling=0.1, acceleration_scaling=0.1,
                      contact_force_limit_n=20.0, timeout_s=10.0)


@pytest.fixture
def peer():
    """Return a started peer node; close it after the test."""
    node = ros_support.Peer('gazebo')
    yield node
    node.close()


async def _started(config, use_sim_time):
    backend = RosBackend(config, node_name='bridge_sim_time', use_sim_time=use_sim_time)
    await backend.start()
    assert await backend.wait_for_sensors(10.0) == []
    return backend


async def _until(check, timeout_s=10.0):
    """Poll ``check()`` on the event loop until it returns a value; fail after ``timeout_s``."""
    async def poll():
        while True:
            try:
                return await check()
            except BackendError as exc:
                if exc.code != 'CLOCK_MISMATCH' or 'no message has arrived' not in exc.message:
                    raise
            await asyncio.sleep(0.01)  # /clock not seen yet: poll again
    return await asyncio.wait_for(poll(), timeout_s)


async def test_sim_stamps_with_use_sim_time_read_fresh_and_guard_trips_on_contact(peer):
    config = ros_support.robot_config(max_age_s=0.2)
    clock = ros_support.SimClock(peer, start_s=100.0, rtf=0.5)
    pub = ros_support.SensorPublisher(peer, config, force=(0.0, 0.0, 5.0), now_ns=clock.now_ns)
    backend = await _started(config, use_sim_time=True)
    try:
        joints = await _until(backend.joint_states)
        wrench = await backend.wrench_samples(50)
        assert 90.0 < backend.runtime.now_s() < 1e6  # the node runs on simulation time
        assert joints.age_s < 0.2 and wrench.age_s < 0.2
        assert 90.0 < wrench.stamps[-1] < 1e6
        assert joints.positions[:7] == pytest.approx(config.home)
        async with backend._guard(LIMITS) as guard:  # the guard every MoveIt motion runs under
            pub.force = (0.0, 0.0, 45.0)  # contact
            await asyncio.wait_for(guard.event.wait(), 10.0)
        assert guard.contact and not guard.stale
        assert guard.peak_n == pytest.approx(45.0)
    finally:
        await backend.close()


async def test_sim_stamps_on_a_wall_clock_node_say_use_sim_time_and_refuse_motion(peer):
    config = ros_support.robot_config()
    clock = ros_support.SimClock(peer)
    ros_support.SensorPublisher(peer, config, now_ns=clock.now_ns)
    backend = await _started(config, use_sim_time=False)
    try:
        for read in (backend.joint_states(), backend.wrench_samples(1)):
            with pytest.raises(BackendError) as err:
                await read
            assert err.value.code == 'CLOCK_MISMATCH'
            assert 'simulation time' in err.value.message
            assert 'use_sim_time is false' in err.value.message
            assert 'use_sim_time:=true' in err.value.advice
            assert 'driver is running' not in err.value.advice
        with pytest.raises(BackendError, match='CLOCK_MISMATCH'):
            backend._guard(LIMITS)  # refused before any goal is sent
    finally:
        await backend.close()


async def test_wall_stamps_on_a_sim_time_node_name_both_clocks(peer):
    config = ros_support.robot_config()
    ros_support.SimClock(peer)
    ros_support.SensorPublisher(peer, config)  # stamps with the peer's wall clock
    backend = await _started(config, use_sim_time=True)
    try:
        with pytest.raises(BackendError) as err:
            await _until(lambda: backend.wrench_samples(1))
        assert err.value.code == 'CLOCK_MISMATCH'
        assert 'wall-clock time' in err.value.message
        assert 'simulation time from /clock' in err.value.message
        assert err.value.details['stamp_s'] > 1e9 > err.value.details['node_time_s']
        with pytest.raises(BackendError, match='CLOCK_MISMATCH'):
            backend._guard(LIMITS)
    finally:
        await backend.close()


async def test_use_sim_time_without_clock_says_no_clock_arrived(peer):
    config = ros_support.robot_config()
    ros_support.SensorPublisher(peer, config)
    backend = await _started(config, use_sim_time=True)
    try:
        with pytest.raises(BackendError) as err:
            await backend.joint_states()
        assert err.value.code == 'CLOCK_MISMATCH'
        assert 'no message has arrived on /clock' in err.value.message
        assert 'ros_gz_bridge' in err.value.advice
    finally:
        await backend.close()
