"""
A gripper commanded in its own joint's terms: the Robotiq 2F-85 knuckle (0 rad open, 0.8 closed).

robot.yaml's ``gripper.command`` maps the finger gap the tools speak (m) to the
knuckle angle the GripperCommand action takes, and the knuckle angle in
/joint_states back to a gap: a grasp closes, a release opens, and every result
reports the gap in metres, over real rclpy against :mod:`fake_gripper`.
"""

from doubles import grasp_goal
import fake_gripper
from mcp_ros_bridge.backends.port import ReleaseGoal
from mcp_ros_bridge.capabilities.base import CallContext
from mcp_ros_bridge.capabilities.sensing import run_read_joints
from mcp_ros_bridge.catalog.robot import RobotConfig
import pytest
import ros_support

pytestmark = [pytest.mark.ros_moveit]
pytest.importorskip('rclpy', reason='rclpy does not import: the ros layer needs it')
pytest.importorskip('control_msgs.action')
moveit_rig = ros_support.import_moveit_rig()

ROBOTIQ = {'open': 0.0, 'closed': 0.8, 'unit': 'rad', 'joint': fake_gripper.KNUCKLE}


def robotiq_config():
    """Return a config whose gripper is a 2F-85 on its knuckle joint."""
    raw = moveit_rig.tagged_yaml(moveit_rig.new_tag())
    raw['joints']['gripper'] = [fake_gripper.KNUCKLE]
    raw['gripper'].update(max_width_m=fake_gripper.STROKE_M, command=ROBOTIQ)
    return RobotConfig.from_dict(raw)


def _gripper(backend, pub, peer, width_m):
    index = len(backend.config.arm_joints)
    return fake_gripper.KnuckleGripper(peer, backend.config.ros.actions['gripper'], pub,
                                       width_m, index)


@pytest.mark.anyio
async def test_grasp_closes_and_release_opens_a_knuckle_gripper():
    async with moveit_rig.rigged(robotiq_config()) as (backend, _, pub, peer):
        fake = _gripper(backend, pub, peer, 0.04)
        grip = await backend.grasp(grasp_goal(20.0))
        assert fake.goals[-1].position == pytest.approx(0.8)  # closed is 0.8 rad, not 0 m
        assert grip.status == 'HOLDING' and grip.object_held
        assert grip.width_m == pytest.approx(0.04, abs=1e-3)  # the gap in m, not the angle
        assert grip.details['width_source'] == 'joint_states'
        state = await backend.gripper_state()
        assert state.status == 'HOLDING' and state.width_m == pytest.approx(0.04, abs=1e-3)
        opened = await backend.release(ReleaseGoal(width_m=0.085, speed_mps=0.05, timeout_s=10.0))
        assert fake.goals[-1].position == pytest.approx(0.0)  # open is 0 rad
        assert opened.status == 'OPEN' and opened.width_m == pytest.approx(0.085, abs=1e-3)
        fake.object_width_m = 0.0
        empty = await backend.grasp(grasp_goal(20.0))
        assert empty.status == 'EMPTY' and empty.width_m == pytest.approx(0.0, abs=1e-3)
        half = await backend.release(ReleaseGoal(width_m=0.0425, speed_mps=0.05,
                                                 timeout_s=10.0))
        assert fake.goals[-1].position == pytest.approx(0.4)
        assert half.status == 'OPEN' and half.width_m == pytest.approx(0.0425, abs=1e-3)
        joints = await run_read_joints(CallContext(backend, backend.config, {}),
                                       {'include_gripper': True})
    knuckle = joints.structured['joints'][-1]
    assert (knuckle['name'], knuckle['unit']) == (fake_gripper.KNUCKLE, 'rad')
    assert knuckle['position'] == pytest.approx(0.4, abs=1e-4)
    assert 'Gripper joints (rad)' in joints.text and '(m)' not in joints.text


def test_panda_fingers_keep_their_metre_travel():
    """Without gripper.command the Panda hand is commanded as before: one finger's travel."""
    config = RobotConfig.from_dict(moveit_rig.tagged_yaml(moveit_rig.new_tag()))
    mapping = config.gripper_command
    assert (mapping.opened, mapping.closed, mapping.unit, mapping.joint) == (
        0.04, 0.0, 'm', 'panda_finger_joint1')


def test_parallel_gripper_goal_and_result_speak_the_knuckle():
    """ParallelGripperCommand: the knuckle's name, angle, speed (rad/s) and effort scale."""
    from dataclasses import replace
    from mcp_ros_bridge.backends.ros import gripper_goals
    config = robotiq_config()
    mapping = replace(config.gripper_command, max_effort=1.0)  # a 0..1 effort controller
    config = replace(config, gripper_command=mapping,
                     ros=replace(config.ros, gripper_interface='parallel_gripper_command'))
    goal = gripper_goals.build_gripper_goal(config, 0.0425, 15.0, speed_mps=0.0425)
    assert goal['command']['name'] == [fake_gripper.KNUCKLE]
    assert goal['command']['position'] == [pytest.approx(0.4)]
    assert goal['command']['velocity'] == [pytest.approx(0.4)]  # half the stroke per second
    assert goal['command']['effort'] == [pytest.approx(15.0 / config.gripper_max_force_n)]
    read = gripper_goals.read_gripper_result(config, {'state': {'position': [0.8], 'effort': [1]}})
    assert read.width_m == pytest.approx(0.0)
