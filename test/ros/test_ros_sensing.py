"""
Joint-state and wrench ingestion through RosBackend on real rclpy and DDS.

A peer node publishes WrenchStamped at 1 kHz and JointState at 500 Hz; the
backend must serve fresh values, and refuse with SENSOR_STALE (naming the
topic and the age) once the publisher stops or when stamps are old.
"""

import asyncio

from mcp_ros_bridge.backends.port import BackendError
from mcp_ros_bridge.backends.ros import RosBackend
import pytest
import ros_support

pytestmark = [pytest.mark.ros, pytest.mark.anyio]
pytest.importorskip('rclpy', reason='rclpy does not import: the ros layer needs it')


async def _started(config):
    backend = RosBackend(config, node_name='bridge_under_test')
    await backend.start()
    return backend


async def _never(timeout_s):
    """Wait on an event that is never set: time passes, deterministically bounded."""
    await asyncio.wait({asyncio.ensure_future(asyncio.Event().wait())}, timeout=timeout_s)


async def test_fresh_wrench_and_joint_states_at_sensor_rates(peer):
    config = ros_support.robot_config()
    pub = ros_support.SensorPublisher(peer, config, force=(1.0, 2.0, 3.0))
    backend = await _started(config)
    try:
        assert await backend.wait_for_sensors(5.0) == []
        await _never(0.3)  # let the ring buffer fill at the publisher's rate
        wrench = await backend.wrench_samples(100)
        joints = await backend.joint_states()
        assert len(wrench.samples) == 100
        assert wrench.samples[-1][:3] == (1.0, 2.0, 3.0)
        assert wrench.frame_id == config.ft_frame
        assert wrench.age_s < 0.1
        assert list(wrench.stamps) == sorted(wrench.stamps)
        assert wrench.rate_hz > 300.0
        assert joints.names[:7] == config.arm_joints
        assert joints.positions[:7] == pytest.approx(config.home)
        assert 'panda_finger_joint1' in joints.names
        assert joints.age_s < 0.1
        assert pub.published['wrench'] > 150
    finally:
        await backend.close()


async def test_stale_after_publisher_stops_names_topic_and_age(peer):
    config = ros_support.robot_config()
    pub = ros_support.SensorPublisher(peer, config)
    backend = await _started(config)
    try:
        assert await backend.wait_for_sensors(5.0) == []
        await backend.wrench_samples(1)
        pub.stop()
        await _never(config.limits.sensor_max_age_s + 0.15)
        with pytest.raises(BackendError) as err:
            await backend.wrench_samples(10)
        assert err.value.code == 'SENSOR_STALE'
        assert config.ros.topics['wrench'].name in err.value.message
        assert err.value.details['age_s'] > config.limits.sensor_max_age_s
        with pytest.raises(BackendError, match='SENSOR_STALE.*joint_states'):
            await backend.joint_states()
    finally:
        await backend.close()


async def test_old_header_stamps_are_refused_even_when_messages_flow(peer):
    config = ros_support.robot_config()
    ros_support.SensorPublisher(peer, config, stamp_offset_s=2.0)
    backend = await _started(config)
    try:
        assert await backend.wait_for_sensors(5.0) == []
        with pytest.raises(BackendError) as err:
            await backend.wrench_samples(1)
        assert err.value.code == 'SENSOR_STALE'
        assert err.value.details['age_s'] >= 1.9
    finally:
        await backend.close()


async def test_silent_topic_is_an_error_naming_the_topic():
    config = ros_support.robot_config()
    backend = await _started(config)
    try:
        topics = config.ros.topics
        silent = await backend.wait_for_sensors(0.2)
        assert silent == [topics['joint_states'].name, topics['wrench'].name]
        with pytest.raises(BackendError, match='no message received on /t.*/wrench'):
            await backend.wrench_samples(1)
        with pytest.raises(BackendError, match='SENSOR_STALE'):
            await backend.end_effector_pose('panda_link0')
    finally:
        await backend.close()


async def test_calls_before_start_and_after_close_are_unavailable():
    backend = RosBackend(ros_support.robot_config())
    with pytest.raises(BackendError, match='UNAVAILABLE'):
        await backend.joint_states()
    await backend.start()
    await backend.close()
    await backend.close()  # idempotent
    with pytest.raises(BackendError, match='UNAVAILABLE'):
        await backend.wrench_samples(1)
    assert (await backend.stop()).status == 'IDLE'
