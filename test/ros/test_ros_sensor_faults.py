"""
Invalid sensor data over real rclpy and DDS: rejected, counted, and never a safety decision.

The typed MoveIt rig (fake move_group, fake arm, a peer publishing wrench at
1 kHz and joint states at 500 Hz) is driven through RosBackend while the peer
sends what real drivers sometimes send: NaN forces, an effort-only JointState
(``position=[]``, which sensor_msgs allows), a message stamped with simulation
time or an hour ahead, thousands of different name sets. The force guard must
fail closed, stop must keep working, and reads must serve only valid data.
"""

import asyncio
import math
import statistics
import time

import anyio
from mcp import Client
from mcp_ros_bridge.backends.port import BackendError
from mcp_ros_bridge.server.bridge import BridgeServer
from mcp_ros_bridge.server.calls import CallSettings
import pytest
import ros_support

pytestmark = [pytest.mark.ros_moveit, pytest.mark.anyio]
pytest.importorskip('rclpy', reason='rclpy does not import: the ros layer needs it')
moveit_rig = ros_support.import_moveit_rig()
limits, tcp_pose = moveit_rig.limits, moveit_rig.tcp_pose
NAN3 = (math.nan, math.nan, math.nan)


async def until(condition, timeout_s=10.0):
    """Poll ``condition()`` on the loop until it holds; fail after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, f'not true within {timeout_s} s'
        await asyncio.sleep(0.005)


async def executing(fake):
    """Wait until the fake arm runs a trajectory."""
    assert await asyncio.to_thread(fake.executing.wait, 10.0)


def joint_publisher(peer, config):
    """Return a second JointState publisher on the bridge's joint topic (the fault's source)."""
    from rclpy.qos import qos_profile_sensor_data
    from sensor_msgs.msg import JointState
    return peer.node.create_publisher(JointState, config.ros.topics['joint_states'].name,
                                      qos_profile_sensor_data), JointState


def stamped(peer, msg, offset_s=0.0, absolute_s=None):
    """Stamp ``msg`` with the peer's clock plus ``offset_s`` (or at ``absolute_s``)."""
    ns = (int(absolute_s * 1e9) if absolute_s is not None
          else peer.node.get_clock().now().nanoseconds + int(offset_s * 1e9))
    msg.header.stamp.sec, msg.header.stamp.nanosec = divmod(ns, 1_000_000_000)
    return msg


async def send_until_rejected(publisher, make, cache, reason, timeout_s=10.0):
    """Publish ``make()`` until the cache has rejected one for ``reason`` (discovery)."""
    deadline = time.monotonic() + timeout_s
    while cache.rejections.counts().get(reason, 0) == 0:
        assert time.monotonic() < deadline, f'no {reason} rejection within {timeout_s} s'
        publisher.publish(make())
        await asyncio.sleep(0.02)


async def test_nan_wrench_during_a_motion_stops_it_and_reports_the_fault(rig):
    backend, fake, pub, _ = rig
    motion = asyncio.ensure_future(backend.follow_cartesian_path(_long_path(backend, fake)))
    await executing(fake)
    pub.force = NAN3  # the sensor goes blind while the arm moves (into contact, maybe)
    result = await asyncio.wait_for(motion, 20.0)
    assert result.status == 'FAILED', result.message
    assert result.details['code'] == 'SENSOR_FAULT' and result.details['reason'] == 'non_finite'
    assert backend.config.ros.topics['wrench'].name in result.message
    assert 'stop' in fake.events.received and result.details['confirmed_still'] is True


async def test_a_motion_is_refused_on_a_nan_stream_before_anything_moves(rig):
    backend, fake, pub, _ = rig
    pub.force = NAN3
    wrench = backend.parts.wrench
    await until(lambda: wrench.rejections.counts().get('non_finite', 0) > 0)
    with pytest.raises(BackendError) as err:
        await backend.follow_cartesian_path(_long_path(backend, fake))
    assert err.value.code == 'SENSOR_FAULT'
    assert err.value.details['topic'] == backend.config.ros.topics['wrench'].name
    assert err.value.details['rejected']['non_finite'] >= 1
    assert fake.executions == []
    max_age = backend.config.limits.sensor_max_age_s
    await until(lambda: time.monotonic() - wrench.newest()[1] > max_age)
    with pytest.raises(BackendError) as err:
        await backend.wrench_samples(10)  # the stream has no valid recent sample: no NaN data
    assert err.value.code == 'SENSOR_FAULT' and 'Fx is nan' in err.value.message


async def test_an_effort_only_joint_state_mid_motion_leaves_stop_and_reads_working(rig):
    backend, fake, _, peer = rig
    publisher, JointState = joint_publisher(peer, backend.config)
    motion = asyncio.ensure_future(backend.follow_cartesian_path(_long_path(backend, fake)))
    await executing(fake)
    arm = list(backend.config.arm_joints)
    await send_until_rejected(
        publisher, lambda: stamped(peer, JointState(name=arm, effort=[1.0] * len(arm))),
        backend.parts.joints, 'bad_arrays')
    stopped = await backend.stop()
    assert stopped.status == 'STOPPED', stopped.message
    assert (await asyncio.wait_for(motion, 20.0)).status == 'STOPPED'
    joints = await backend.joint_states()
    assert len(joints.positions) >= len(arm) and joints.rejected['bad_arrays'] >= 1
    assert all(math.isfinite(v) for v in joints.positions)


@pytest.mark.parametrize('mode', ['legacy', '2026-07-28'])
async def test_an_effort_only_joint_state_mid_motion_over_mcp(tmp_path, mode):
    """The motion's call ends STOPPED, stop_arm confirms, later reads work: no INTERNAL."""
    catalog = _catalog(tmp_path)
    async with moveit_rig.rigged(config=catalog.robot) as (backend, fake, _, peer):
        fake.duration_s = 20.0
        publisher, JointState = joint_publisher(peer, backend.config)
        arm = list(backend.config.arm_joints)
        bridge = BridgeServer(catalog, backend, CallSettings(motion_rate_per_s=1000.0,
                                                             motion_burst=1000))
        results = {}
        try:
            with anyio.fail_after(60):
                async with Client(bridge.server, mode=mode) as client:
                    async def mover():
                        results['move'] = await client.call_tool('move_arm_to_posture',
                                                                 {'posture': 'ready'})
                    async with anyio.create_task_group() as tg:
                        tg.start_soon(mover)
                        await executing(fake)
                        await send_until_rejected(
                            publisher,
                            lambda: stamped(peer, JointState(name=arm, effort=[1.0] * 7)),
                            backend.parts.joints, 'bad_arrays')
                        stop = await client.call_tool('stop_arm', {})
                    joints = await client.call_tool('get_joint_states', {})
        finally:
            bridge.close()
    assert not stop.is_error, stop.content[0].text
    assert stop.structured_content['stopped_motion'] is True
    assert results['move'].structured_content['status'] == 'STOPPED'
    assert not joints.is_error, joints.content[0].text
    assert joints.structured_content['rejected']['bad_arrays'] >= 1


@pytest.mark.parametrize('when', ['sim_time_5s', 'hour_ahead'])
async def test_a_wrongly_stamped_joint_state_is_rejected_and_stop_still_confirms(rig, when):
    backend, _, _, peer = rig
    publisher, JointState = joint_publisher(peer, backend.config)
    arm = list(backend.config.arm_joints)

    def bad():
        msg = JointState(name=arm, position=[0.0] * len(arm))  # far from where the arm is
        return (stamped(peer, msg, absolute_s=5.0) if when == 'sim_time_5s'
                else stamped(peer, msg, offset_s=3600.0))
    reason = 'other_clock' if when == 'sim_time_5s' else 'future_stamp'
    await send_until_rejected(publisher, bad, backend.parts.joints, reason)
    joints = await backend.joint_states()
    assert joints.positions[:7] == pytest.approx(backend.config.home)  # good data stays
    assert joints.rejected[reason] >= 1
    stop = await backend.stop()
    assert stop.status == 'IDLE', stop.message  # confirmed still, not a 2 s FAILED
    assert stop.details['waited_s'] < 1.5


async def test_many_name_sets_keep_the_cache_bounded_and_reads_flat(rig):
    backend, _, _, peer = rig
    publisher, JointState = joint_publisher(peer, backend.config)
    cache = backend.parts.joints

    async def read_ms():
        times = []
        for _ in range(30):
            start = time.perf_counter()
            await backend.joint_states()
            times.append((time.perf_counter() - start) * 1e3)
        return statistics.median(times)
    before = await read_ms()
    base = cache.count
    for i in range(20_000):
        publisher.publish(stamped(peer, JointState(name=[f'junk_{i}'], position=[0.0])))
        if i % 500 == 0:
            await asyncio.sleep(0)  # let the drain keep up
    await until(lambda: cache.count - base > 300)  # DDS drops some of a burst: enough came
    known = len(backend.config.arm_joints) + len(backend.config.gripper_joints)
    assert len(cache._joints) == known  # only the configured joints are kept
    after = await read_ms()
    assert after < 3 * before + 2.0, (before, after)
    stop = await backend.stop()
    assert stop.status == 'IDLE', stop.message


def _long_path(backend, fake):
    """Return a Cartesian goal whose execution takes 20 s on the fake arm."""
    from mcp_ros_bridge.backends.port import CartesianGoal
    fake.duration_s = 20.0
    return CartesianGoal([tcp_pose(backend.config, moveit_rig.REACHED)], limits(timeout_s=30.0))


def _catalog(tmp_path):
    """Write the shipped config with a fresh rig's MoveIt names to ``tmp_path``; load it."""
    raw = moveit_rig.tagged_yaml(moveit_rig.new_tag())
    return moveit_rig.ros_catalog(tmp_path, raw)


async def test_a_joint_state_stamped_just_ahead_does_not_hold_off_the_real_ones(rig):
    """A forged 7.7 rad stamped 0.24 s ahead (inside the tolerance): the next real sample wins."""
    backend, _, _, peer = rig
    publisher, JointState = joint_publisher(peer, backend.config)
    cache, arm = backend.parts.joints, list(backend.config.arm_joints)
    forged = asyncio.Event()
    loop = asyncio.get_running_loop()
    store = cache._store

    def watched(stamp, names, pos, vel, eff):
        store(stamp, names, pos, vel, eff)
        if pos and pos[0] == 7.7:
            loop.call_soon_threadsafe(forged.set)
    cache._store = watched
    try:
        while not forged.is_set():  # until discovery lets one through
            publisher.publish(stamped(peer, JointState(name=arm, position=[7.7] * len(arm)),
                                      offset_s=0.24))
            await asyncio.sleep(0.02)
        after = cache.count
        await until(lambda: cache.count - after >= 5)  # real samples (500 Hz) came since
        joints = await backend.joint_states()
    finally:
        cache._store = store
    assert joints.positions[0] != 7.7, 'the forged sample was served as fresh'
    assert joints.positions[:7] == pytest.approx(backend.config.home, abs=1e-3)
