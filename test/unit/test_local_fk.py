"""
The ROS backend's local FK (backends/ros/local_fk.py) against computations that share none of it.

A planar arm's closed form, and MuJoCo's own URDF importer and kinematics for an
arm with tilted origins, unnormalised axes, continuous and prismatic joints and
a fixed mount; then the cases it must leave to compute_fk, and the policy of
backends/ros/kinematics.py: a model is trusted once it agreed with compute_fk,
dropped when it does not, and the TCP offset is applied as on the compute_fk path.
"""

import asyncio
import math

from mcp_ros_bridge.backends.port import Pose
from mcp_ros_bridge.backends.ros import tcp
from mcp_ros_bridge.backends.ros.kinematics import Kinematics, turn_between
from mcp_ros_bridge.backends.ros.local_fk import UrdfKinematics
from mcp_ros_bridge.catalog.description import parse_urdf
from mcp_ros_bridge.catalog.robot import RobotConfig
import numpy as np
import pytest
from transforms3d.quaternions import mat2quat, quat2mat
import yaml

INERTIAL = ('<inertial><mass value="1"/>'
            '<inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>')


def _urdf(links, joints, extra=''):
    body = ''.join(f'<link name="{n}">{INERTIAL}</link>' for n in links)
    return f'<robot name="t">{extra}{body}{"".join(joints)}</robot>'


def _joint(name, kind, parent, child, xyz='0 0 0', rpy='0 0 0', axis='0 0 1', more=''):
    limit = '' if kind in ('fixed', 'continuous') else \
        '<limit lower="-3" upper="3" velocity="1" effort="1"/>'
    return (f'<joint name="{name}" type="{kind}"><parent link="{parent}"/><child link="{child}"/>'
            f'<origin xyz="{xyz}" rpy="{rpy}"/><axis xyz="{axis}"/>{limit}{more}</joint>')


PLANAR = _urdf(['base', 'l1', 'l2', 'tip'], [
    _joint('j1', 'revolute', 'base', 'l1'),
    _joint('j2', 'revolute', 'l1', 'l2', xyz='0.4 0 0'),
    _joint('j3', 'prismatic', 'l2', 'tip', xyz='0.3 0 0', axis='1 0 0')])


def test_a_planar_arm_matches_its_closed_form():
    model = UrdfKinematics(parse_urdf(PLANAR), ['j1', 'j2', 'j3'])
    rows = [(0.3, -1.1, 0.05), (2.5, 0.7, 0.0), (-1.0, 2.0, 0.12)]
    found = model.transforms('base', 'tip', rows)
    for (a, b, d), m in zip(rows, found):
        reach = 0.3 + d
        expected = (0.4 * math.cos(a) + reach * math.cos(a + b),
                    0.4 * math.sin(a) + reach * math.sin(a + b), 0.0)
        assert m[:3, 3] == pytest.approx(expected, abs=1e-12)
        turn = a + b
        assert m[:3, :3] == pytest.approx(np.array([[math.cos(turn), -math.sin(turn), 0],
                                                    [math.sin(turn), math.cos(turn), 0],
                                                    [0, 0, 1]]), abs=1e-12)


# Tilted origins, unnormalised and skewed axes, a continuous and a prismatic joint, a fixed
# mount above the arm and a fixed flange; a side branch (a sensor on link 2) for frames.
ARM_LINKS = ['world', 'mount', 'l1', 'l2', 'l3', 'l4', 'flange', 'sensor']
ARM = _urdf(ARM_LINKS, [
    _joint('mount_joint', 'fixed', 'world', 'mount', xyz='0.1 -0.2 0.05', rpy='0 0 0.7'),
    _joint('a1', 'revolute', 'mount', 'l1', xyz='0 0 0.3', rpy='0.1 -0.2 0.3', axis='0 0 2'),
    _joint('a2', 'continuous', 'l1', 'l2', xyz='0.05 0 0.1', rpy='-1.2 0.4 0', axis='0 1 1'),
    _joint('a3', 'prismatic', 'l2', 'l3', xyz='0 0.2 0', rpy='0 0.5 -0.3', axis='1 2 -1'),
    _joint('a4', 'revolute', 'l3', 'l4', xyz='0.1 0.1 0.1', rpy='2.0 -1.0 0.5',
           axis='0.3 -0.5 0.8'),
    _joint('flange_joint', 'fixed', 'l4', 'flange', xyz='0 0 0.08', rpy='3.1 0 -0.4'),
    _joint('sensor_joint', 'fixed', 'l2', 'sensor', xyz='0.02 0.03 0.04', rpy='0.3 0.2 0.1')],
    extra='<mujoco><compiler fusestatic="false" discardvisual="true"/></mujoco>')
ARM_JOINTS = ['a1', 'a2', 'a3', 'a4']


def _mujoco_poses(rows):
    """Return {link: [(position, rotation)] per row} from MuJoCo's URDF import and FK."""
    mujoco = pytest.importorskip('mujoco')
    m = mujoco.MjModel.from_xml_string(ARM)
    d = mujoco.MjData(m)
    out = {name: [] for name in ARM_LINKS[1:]}
    for row in rows:
        for name, value in zip(ARM_JOINTS, row):
            d.qpos[m.jnt_qposadr[mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_JOINT, name)]] = value
        mujoco.mj_kinematics(m, d)
        for name, poses in out.items():
            body = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_BODY, name)
            poses.append((d.xpos[body].copy(), d.xmat[body].reshape(3, 3).copy()))
    return out


ROWS = [(0.0, 0.0, 0.0, 0.0), (0.4, -2.9, 0.07, 1.3), (-2.2, 5.5, -0.11, -0.6),
        (1.0, 1.0, 0.2, 3.0)]


@pytest.mark.parametrize('link', ['l1', 'l2', 'l3', 'flange', 'sensor'])
def test_every_link_matches_mujocos_import_of_the_same_urdf(link):
    expected = _mujoco_poses(ROWS)
    model = UrdfKinematics(parse_urdf(ARM), ARM_JOINTS)
    found = model.transforms('world', link, ROWS)
    assert found is not None
    for m, (position, rotation) in zip(found, expected[link]):
        assert m[:3, 3] == pytest.approx(position, abs=1e-9)
        assert m[:3, :3] == pytest.approx(rotation, abs=1e-9)


def test_a_pose_in_another_link_frame_is_relative_to_that_link():
    expected = _mujoco_poses(ROWS)
    model = UrdfKinematics(parse_urdf(ARM), ARM_JOINTS)
    for frame in ('mount', 'sensor', 'l3'):
        found = model.transforms(frame, 'flange', ROWS)
        for k, m in enumerate(found):
            (pf, rf), (pl, rl) = expected[frame][k], expected['flange'][k]
            assert m[:3, 3] == pytest.approx(rf.T @ (pl - pf), abs=1e-9)
            assert m[:3, :3] == pytest.approx(rf.T @ rl, abs=1e-9)


def test_paths_through_joints_the_row_does_not_hold_have_no_answer():
    mimic = ARM.replace('</robot>', _joint('m', 'revolute', 'l4', 'mimicked', more=(
        '<mimic joint="a4" multiplier="2"/>')) + '<link name="mimicked"/></robot>')
    model = UrdfKinematics(parse_urdf(mimic), ARM_JOINTS)
    assert model.transforms('world', 'mimicked', ROWS) is None  # a mimic joint
    assert model.transforms('world', 'flange', ROWS) is not None
    short = UrdfKinematics(parse_urdf(ARM), ['a1', 'a2', 'a3'])  # a4 is no arm joint here
    assert short.transforms('world', 'flange', [r[:3] for r in ROWS]) is None
    assert short.transforms('world', 'sensor', [r[:3] for r in ROWS]) is not None
    assert model.transforms('world', 'no_such_link', ROWS) is None
    assert model.transforms('tf_only_frame', 'flange', ROWS) is None
    # joints above both links cancel: a row need not hold them
    assert short.transforms('l3', 'l2', [r[:3] for r in ROWS]) is not None


def _panda_config(**description):
    with open('config/robot.yaml', encoding='utf-8') as f:
        raw = yaml.safe_load(f)
    raw['frames'].update(base='world', end_effector='tcp')
    raw['joints'].update(arm=ARM_JOINTS, postures={'home': [0.0] * 4},
                         position_limits=[[-3, 3]] * 4, units=['rad', 'rad', 'm', 'rad'])
    raw['ros']['tcp'] = {'parent_link': 'flange', 'offset_xyz': [0.01, -0.02, 0.1]}
    if description:
        raw['description'] = description
    return RobotConfig.from_dict(raw)


class _MoveIt:
    """compute_fk as MoveIt answers it: the parent link's pose, the TCP offset added after."""

    def __init__(self, config, error_m=0.0):
        self.config, self.error_m, self.rows = config, error_m, []
        self.model = UrdfKinematics(parse_urdf(ARM), ARM_JOINTS)

    async def __call__(self, frame, link, names, positions):
        self.rows.append(list(positions))
        m = self.model.transforms(frame, tcp.moveit_link(self.config, link), [positions])[0]
        return tcp.from_parent(self.config, link, Pose(
            tuple(m[:3, 3] + (self.error_m, 0.0, 0.0)), tuple(mat2quat(m[:3, :3])), frame))


def test_the_tcp_offset_is_the_compute_fk_paths_and_the_model_is_checked_once(tmp_path):
    path = tmp_path / 'arm.urdf'
    path.write_text(ARM)
    config = _panda_config(urdf=str(path))
    moveit = _MoveIt(config)
    kin = Kinematics(config, moveit)
    assert kin.source == 'file'
    poses = asyncio.run(kin.poses('world', '', ROWS))
    again = asyncio.run(kin.pose('world', 'tcp', ARM_JOINTS, ROWS[1], stamp=5.0))
    assert moveit.rows == [list(ROWS[0])]  # one comparison, then the model answers
    expected = _mujoco_poses(ROWS)['flange']
    for pose, (position, rotation) in zip(poses, expected):
        tip = position + rotation @ np.array([0.01, -0.02, 0.1])  # the offset, in the flange
        assert pose.position == pytest.approx(tip, abs=1e-9) and pose.frame_id == 'world'
        assert quat2mat(pose.orientation) == pytest.approx(rotation, abs=1e-9)
    assert again.position == pytest.approx(poses[1].position, abs=1e-12)
    assert again.stamp == 5.0
    assert quat2mat(again.orientation) == pytest.approx(expected[1][1], abs=1e-9)


def test_a_model_that_disagrees_with_moveit_is_dropped(tmp_path):
    path = tmp_path / 'arm.urdf'
    path.write_text(ARM)
    config = _panda_config(urdf=str(path))
    moveit = _MoveIt(config, error_m=1e-4)  # MoveIt's robot is not this URDF's
    kin = Kinematics(config, moveit)
    poses = asyncio.run(kin.poses('world', '', ROWS))
    assert kin.model is None and kin.source == ''
    assert len(moveit.rows) == 1 + len(ROWS)  # compared once, then every row asked
    answer = asyncio.run(moveit('world', '', ARM_JOINTS, list(ROWS[2])))
    assert poses[2].position == pytest.approx(answer.position, abs=1e-12)  # MoveIt's own


def test_the_turn_between_quaternions_is_exact_for_small_and_flipped_ones():
    assert turn_between((1, 0, 0, 0), (1, 0, 0, 0)) == 0.0
    small = (math.cos(5e-8), math.sin(5e-8), 0.0, 0.0)  # 1e-7 rad about x
    assert turn_between((1, 0, 0, 0), small) == pytest.approx(1e-7, rel=1e-6)
    assert turn_between((1, 0, 0, 0), tuple(-v for v in small)) == pytest.approx(1e-7, rel=1e-6)
    assert turn_between((1, 0, 0, 0), (0, 0, 0, 1)) == pytest.approx(math.pi)


def test_the_topics_urdf_replaces_none_and_a_bad_one_is_ignored():
    config = _panda_config()
    moveit = _MoveIt(config)
    kin = Kinematics(config, moveit)
    assert kin.model is None
    asyncio.run(kin.poses('world', '', ROWS[:2]))
    assert len(moveit.rows) == 2  # no model: compute_fk for each row
    kin.take_description('<robot name="broken"><link name="a"/>')
    assert kin.model is None
    kin.take_description(ARM)
    assert kin.source == 'topic'
    answer = asyncio.run(moveit('world', '', ARM_JOINTS, list(ROWS[0])))
    assert kin.compare('world', '', ROWS[0], answer)
    asyncio.run(kin.poses('world', '', ROWS))
    assert len(moveit.rows) == 3  # trusted from the comparison on: no request
    kin.reconfigure(_panda_config())
    assert kin.source == 'topic'  # a reload keeps the running robot's own URDF
