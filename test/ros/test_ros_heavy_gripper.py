"""
A heavy gripper on a 100 Hz F/T sensor over real rclpy: windows in seconds, a contact-force guard.

A 3 kg gripper reads 29.4 N at rest, more than a 25 N contact limit. The force
guard subtracts its weight for the sensor's orientation (MoveIt's compute_fk
on the joint states), so the motion runs; a 26 N push up against the fingers
(the raw reading falls to 3.4 N) trips it. read_ft_sensor and tare_ft_sensor
windows are seconds: the same span of samples at 100 Hz and at 1 kHz.
"""

import asyncio

from doubles import grasp_goal
import fake_gripper
from mcp_ros_bridge.backends.port import JointGoal, MotionLimits
from mcp_ros_bridge.capabilities.base import CallContext
from mcp_ros_bridge.capabilities.sensing import run_read_wrench
from mcp_ros_bridge.capabilities.tare import run_tare
from mcp_ros_bridge.catalog.robot import RobotConfig
import numpy as np
import pytest
import ros_support
from transforms3d.quaternions import quat2mat

pytestmark = [pytest.mark.ros_moveit, pytest.mark.anyio]
pytest.importorskip('rclpy', reason='rclpy does not import: the ros layer needs it')
moveit_rig = ros_support.import_moveit_rig()
fake_moveit = pytest.importorskip('fake_moveit')
pytest.importorskip('control_msgs.action')

MASS_KG, LIMIT_N = 3.0, 25.0
AXES = ['Fx', 'Fy', 'Fz', 'Mx', 'My', 'Mz']


def heavy_config(mass_kg=MASS_KG, knuckle=False):
    """Return a config with a heavy gripper whose F/T frame is panda_hand (the fake knows it)."""
    raw = moveit_rig.tagged_yaml(moveit_rig.new_tag())
    raw['frames']['ft_sensor'] = 'panda_hand'
    raw['gripper'].update(mass_kg=mass_kg, com_m=[0.0, 0.0, 0.0])
    if knuckle:  # a 2F-85 that holds a 3 kg catalog object
        raw['joints']['gripper'] = [fake_gripper.KNUCKLE]
        raw['gripper'].update(max_width_m=fake_gripper.STROKE_M, command={
            'open': 0.0, 'closed': 0.8, 'unit': 'rad', 'joint': fake_gripper.KNUCKLE})
        raw['objects']['anvil'] = {'colour': 'grey', 'shape': 'box',
                                   'size_m': [0.04, 0.04, 0.04], 'mass_kg': 3.0}
    return RobotConfig.from_dict(raw)


def weight_in_hand(q, mass_kg=MASS_KG):
    """Return the weight (N) of ``mass_kg`` as the sensor in panda_hand reads it at ``q``."""
    rot = quat2mat(fake_moveit.fk(q, 'panda_hand')[1])
    return tuple(float(v) for v in rot.T @ np.array([0.0, 0.0, -9.81 * mass_kg]))


def limits():
    """Return motion limits with a 25 N contact limit."""
    return MotionLimits(0.2, 0.2, contact_force_limit_n=LIMIT_N, max_cartesian_speed_mps=0.25,
                        timeout_s=30.0)


async def test_the_gripper_weight_does_not_trip_the_guard_a_contact_does():
    config = heavy_config()
    weight = weight_in_hand(config.home)
    assert np.linalg.norm(weight) > LIMIT_N  # raw, the gripper alone would trip a raw guard
    sensors = {'wrench_hz': 100.0, 'joints_hz': 100.0, 'force': weight}
    async with moveit_rig.rigged(config, sensors) as (backend, fake, pub, _):
        turned = await backend.move_to_joints(JointGoal({'panda_joint1': 0.6}, limits()))
        assert turned.status == 'SUCCEEDED', turned.message
        assert turned.details['force_compensation'] == 'gripper_gravity'
        assert turned.peak_force_n < 1.0  # the contact force: the weight is subtracted
        fake.duration_s = 5.0
        motion = asyncio.ensure_future(backend.move_to_joints(
            JointGoal({'panda_joint1': -0.6}, limits())))
        assert await asyncio.to_thread(fake.executing.wait, 10.0)
        push = np.asarray(weight) * (1.0 - 26.0 / np.linalg.norm(weight))  # 26 N up
        pub.force = tuple(float(v) for v in push)
        result = await motion
    assert np.linalg.norm(push) < 5.0  # what a raw guard would have seen
    assert result.status == 'CONTACT_ABORT', result.message
    assert result.peak_force_n == pytest.approx(26.0, abs=1.0)
    assert "net of the gripper's weight" in result.message


@pytest.mark.parametrize('hz', [100.0, 1000.0])
async def test_windows_in_seconds_span_the_same_time_at_any_rate(hz):
    config = heavy_config()
    sensors = {'wrench_hz': hz, 'joints_hz': min(hz, 500.0), 'force': weight_in_hand(config.home)}
    async with moveit_rig.rigged(config, sensors) as (backend, _, pub, _):
        await asyncio.to_thread(ros_support.wait_until,
                                lambda: pub.published['wrench'] > 0.5 * hz, 10.0)
        ctx = CallContext(backend, config, {})
        read = await run_read_wrench(ctx, {'filter': 'moving_average', 'axes': AXES,
                                           'window_s': 0.1, 'subtract_gripper_weight': True})
        tare = await run_tare(ctx, {'window_s': 0.2, 'clear': False})
    s = read.structured
    assert s['window_s'] <= 0.1 and 0.5 * 0.1 * hz <= s['samples_used'] <= 0.1 * hz + 1
    assert s['compensation'] == 'gripper_gravity' and abs(s['held_mass_g']) < 1.0
    assert 0.5 * 0.2 * hz <= tare.structured['samples_used'] <= 0.2 * hz + 1


async def test_a_held_object_is_weighed_at_the_start_and_does_not_trip_the_guard():
    """0.5 kg gripper + a 3 kg object: 34 N raw, 29 N net of the gripper, ~0 N of contact."""
    config = heavy_config(0.5, knuckle=True)
    sensors = {'wrench_hz': 100.0, 'joints_hz': 100.0, 'force': weight_in_hand(config.home, 0.5)}
    async with moveit_rig.rigged(config, sensors) as (backend, _, pub, peer):
        fake_gripper.KnuckleGripper(peer, config.ros.actions['gripper'], pub, 0.04,
                                    len(config.arm_joints))
        assert (await backend.grasp(grasp_goal(20.0))).status == 'HOLDING'
        pub.force = weight_in_hand(config.home, 3.5)  # lifted: the object hangs in the fingers
        sent = pub.published['wrench']
        await asyncio.to_thread(ros_support.wait_until,  # 0.3 s of the new load at 100 Hz
                                lambda: pub.published['wrench'] > sent + 30, 10.0)
        moved = await backend.move_to_joints(JointGoal({'panda_joint1': 0.6}, limits()))
    assert moved.status == 'SUCCEEDED', moved.message
    assert moved.details['held_mass_kg'] == pytest.approx(3.0, abs=0.05)
    assert moved.peak_force_n < 1.0
