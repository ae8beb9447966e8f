"""
Another arm on the ROS backend: a UR5 (example-robot-data, via init) over MCP, real rclpy.

The move_group fakes (test/ros/fake_move_group.py) take the UR5's kinematics from
its URDF and answer with its six joints; move_arm_joints and move_arm_to_pose go
through a BridgeServer on a RosBackend in both protocol generations, and the
results name the UR5's joints and its tool0 pose.
"""

from __future__ import annotations

import os

from mcp_ros_bridge.capabilities import KINDS
from mcp_ros_bridge.catalog.description import parse_urdf
from mcp_ros_bridge.catalog.init_config import write_config
from mcp_ros_bridge.catalog.loader import load_catalog
from mcp_ros_bridge.geometry import quat_to_rpy_deg
import numpy as np
import pytest
from robot_data import arm_files
from transforms3d.quaternions import quat2mat
import yaml

import fake_gripper  # noqa: I100 - on the path robot_data sets
import ros_support

_call, _text = ros_support.call_tool_once, ros_support.result_text

pytestmark = [pytest.mark.robots, pytest.mark.ros_moveit, pytest.mark.anyio]
pytest.importorskip('rclpy', reason='rclpy does not import: the ros layer needs it')
moveit_rig = ros_support.import_moveit_rig()
fake_moveit = pytest.importorskip('fake_moveit')
pytest.importorskip('control_msgs.action')
MODES = ('legacy', '2026-07-28')
TOOL_DOWN = [0.3, -1.4, 1.6, -1.77, -1.57, 0.3]  # tool0 pointing down, in front of the base
START = [0.0, -1.2, 1.4, -1.77, -1.57, 0.0]  # where the rig's arm starts (tool0 down)


def _ur5(tmp_path, gripper=None):
    """Return (catalog, kinematics) of a UR5 config from init, with this rig's ROS names."""
    urdf, srdf, _ = arm_files('ur5')
    out = str(tmp_path / 'ur5')
    write_config(out, urdf, srdf)
    path = os.path.join(out, 'robot.yaml')
    with open(path, encoding='utf-8') as f:
        raw = yaml.safe_load(f)
    raw['joints']['postures'] = {'home': START}  # the SRDF's home is stretched out flat
    if gripper is not None:  # e.g. a Robotiq 2F-85 on tool0 (no part of the UR5's URDF)
        raw['joints']['gripper'] = [gripper['joint']]
        raw['gripper'].update(max_width_m=fake_gripper.STROKE_M, command=gripper)
    tag = moveit_rig.new_tag()
    raw['ros'] = {
        'tcp': raw['ros']['tcp'],  # the tool point init declares, kept
        'topics': {'joint_states': {'name': f'{tag}/joint_states', 'qos': 'sensor_data'},
                   'wrench': {'name': f'{tag}/wrench', 'qos': 'sensor_data'},
                   'trajectory_execution_event': {'name': f'{tag}/execution_event'}},
        'actions': {'move_group': f'{tag}/move_action',
                    'execute_trajectory': f'{tag}/execute_trajectory',
                    'gripper': f'{tag}/gripper_cmd'},
        'services': {'fk': f'{tag}/compute_fk', 'cartesian_path': f'{tag}/compute_cartesian_path',
                     'state_validity': f'{tag}/check_state_validity'}}
    with open(path, 'w', encoding='utf-8') as f:
        yaml.safe_dump(raw, f)
    catalog = load_catalog(out, kinds=KINDS).for_backend('ros')
    with open(urdf, encoding='utf-8') as f:
        described = parse_urdf(f.read())
    robot = catalog.robot
    return catalog, fake_moveit.UrdfKinematics(described, robot.base_frame, robot.arm_joints)


@pytest.mark.parametrize('mode', MODES)
async def test_ur5_moves_to_joints_and_to_a_pose_over_mcp(tmp_path, mode):
    catalog, kinematics = _ur5(tmp_path)
    robot = catalog.robot
    assert len(robot.arm_joints) == 6 and robot.arm_joints[0] == 'shoulder_pan_joint'
    tcp = robot.ros.tcp  # init declares the TCP: MoveIt is asked about its parent link
    assert tcp is not None and robot.end_effector == 'tcp' and tcp.parent_link == 'tool0'
    position, quat = kinematics.fk(TOOL_DOWN, tcp.parent_link)
    position = np.add(position, quat2mat(quat) @ np.array(tcp.offset_xyz))  # rpy 0: same turn
    assert tcp.rpy == (0.0, 0.0, 0.0)
    async with moveit_rig.rigged(config=robot, kinematics=kinematics,
                                 solution=TOOL_DOWN) as (backend, fake, _, _):
        target = [round(v + 0.1, 4) for v in robot.home]
        joints = await _call(catalog, backend, mode, 'move_arm_joints', {'positions': target})
        assert not joints.is_error, _text(joints)
        assert joints.structured_content['status'] == 'SUCCEEDED'
        sent = fake.goals[-1].request.goal_constraints[0].joint_constraints
        assert [c.joint_name for c in sent] == list(robot.arm_joints)
        assert fake.arm.positions == pytest.approx(target, abs=1e-6)
        reached = joints.structured_content['joint_positions_rad']
        assert list(reached) == list(robot.arm_joints)
        assert list(reached.values()) == pytest.approx(target, abs=1e-4)
        rpy = quat_to_rpy_deg(quat)
        pose = {'position': dict(zip('xyz', (round(float(v), 4) for v in position))),
                'orientation': dict(zip(('roll', 'pitch', 'yaw'), (round(v, 3) for v in rpy)))}
        moved = await _call(catalog, backend, mode, 'move_arm_to_pose', pose)
        # the local FK from description.urdf agreed with the fakes' compute_fk and answered
        kinematics_used = backend.parts.moveit.kinematics
        assert kinematics_used.source == 'file' and kinematics_used.model is not None
        assert len(fake.fk_requests) <= 3, fake.fk_requests
    assert not moved.is_error, _text(moved)
    s = moved.structured_content
    assert s['status'] == 'SUCCEEDED', _text(moved)
    assert fake.arm.positions == pytest.approx(TOOL_DOWN, abs=1e-6)
    assert s['final_pose']['frame'] == robot.base_frame
    assert [s['final_pose']['position_m'][a] for a in 'xyz'] == pytest.approx(
        [float(v) for v in position], abs=1e-3)
    assert 'panda' not in _text(moved) + _text(joints)


@pytest.mark.parametrize('mode', MODES)
async def test_ur5_with_a_robotiq_2f85_grasps_and_releases_over_mcp(tmp_path, mode):
    """Issue 19's cell: grasp closes the knuckle (0.8 rad), release opens it (0 rad), gaps in m."""
    robotiq = {'open': 0.0, 'closed': 0.8, 'unit': 'rad', 'joint': fake_gripper.KNUCKLE}
    catalog, kinematics = _ur5(tmp_path, robotiq)
    async with moveit_rig.rigged(config=catalog.robot, kinematics=kinematics) as (
            backend, _, pub, peer):
        fake = fake_gripper.KnuckleGripper(peer, catalog.robot.ros.actions['gripper'], pub,
                                           0.03, len(catalog.robot.arm_joints))
        grasp = await _call(catalog, backend, mode, 'grasp_object_force_control',
                            {'force_n': 20.0})
        assert fake.goals[-1].position == pytest.approx(0.8)
        release = await _call(catalog, backend, mode, 'release_object', {})
        assert fake.goals[-1].position == pytest.approx(0.0)
        joints = await _call(catalog, backend, mode, 'get_joint_states', {})
    assert not grasp.is_error, _text(grasp)
    g = grasp.structured_content
    assert g['status'] == 'HOLDING' and g['width_m'] == pytest.approx(0.03, abs=1e-3)
    assert 'finger gap 30' in _text(grasp)
    r = release.structured_content
    assert r['status'] == 'OPEN' and r['width_m'] == pytest.approx(0.085, abs=1e-3)
    knuckle = joints.structured_content['joints'][-1]
    assert (knuckle['name'], knuckle['unit']) == (fake_gripper.KNUCKLE, 'rad')
