"""What robot.yaml's description: reads, and what it refuses."""

from __future__ import annotations

import os
import shutil

from mcp_ros_bridge.capabilities import KINDS
from mcp_ros_bridge.catalog.description import DescriptionError, parse_srdf, parse_urdf
from mcp_ros_bridge.catalog.loader import ConfigError, load_catalog
import pytest
from robot_data import arm_files

pytestmark = [pytest.mark.robots]

URDF = """<robot name="two"><link name="base"/><link name="a"/><link name="tip"/>
<joint name="j1" type="revolute"><parent link="base"/><child link="a"/>
  <origin xyz="0 0 0.3"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" velocity="2" effort="9"/>
</joint>
<joint name="j2" type="revolute"><parent link="a"/><child link="tip"/>
  <origin xyz="0.4 0 0"/><axis xyz="0 1 0"/><limit lower="-2" upper="2" velocity="2" effort="9"/>
</joint></robot>"""


def test_urdf_errors_name_the_element_and_the_fix():
    with pytest.raises(DescriptionError, match='xacro'):
        parse_urdf('<robot xmlns:xacro="x"><xacro:macro', 'arm.urdf.xacro')
    with pytest.raises(DescriptionError, match="joint 'j1'.*lower below upper"):
        parse_urdf(URDF.replace('lower="-1"', 'lower="1"'))
    with pytest.raises(DescriptionError, match="names link 'nope'"):
        parse_urdf(URDF.replace('<child link="tip"/>', '<child link="nope"/>'))
    with pytest.raises(DescriptionError, match='over'):
        parse_urdf('<robot>' + ' ' * (9 * 1024 * 1024) + '</robot>')


def test_an_entity_bomb_is_refused():
    bomb = ('<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa">'
            + ''.join(f'<!ENTITY {c} "{("&" + p + ";") * 10}">'
                      for p, c in zip('abcdefgh', 'bcdefghi')) + ']><robot name="&i;"/>')
    with pytest.raises(DescriptionError):
        parse_urdf(bomb)


def _config(tmp_path, robot_yaml_extra: str = '', joints: str = '') -> str:
    shutil.copy(os.path.join(os.path.dirname(__file__), '..', '..', 'config', 'robot.yaml'),
                tmp_path / 'robot.yaml')
    (tmp_path / 'arm.urdf').write_text(URDF)
    text = (tmp_path / 'robot.yaml').read_text()
    start, end = text.index('joints:'), text.index('ros:')
    text = (text[:start] + 'description: {urdf: arm.urdf}\n' + robot_yaml_extra
            + (joints or 'joints:\n  postures: {home: [0.0, 0.5]}\n') + '\n' + text[end:])
    text = text.replace('group: panda_arm', 'group: arm')
    (tmp_path / 'robot.yaml').write_text(text)
    return str(tmp_path)


def test_joints_and_limits_come_from_the_description(tmp_path):
    robot = load_catalog(_config(tmp_path), kinds=KINDS).robot
    assert robot.arm_joints == ('j1', 'j2')
    assert robot.arm_position_limits == ((-1.0, 1.0), (-2.0, 2.0))


def test_robot_yaml_may_narrow_a_limit_but_not_widen_it(tmp_path):
    narrow = 'joints:\n  position_limits: [[-0.5, 0.5], [-2, 2]]\n  postures: {home: [0, 0.5]}\n'
    robot = load_catalog(_config(tmp_path, joints=narrow), kinds=KINDS).robot
    assert robot.arm_position_limits[0] == (-0.5, 0.5)
    wide = narrow.replace('[-0.5, 0.5]', '[-1.5, 0.5]')
    with pytest.raises(ConfigError, match=r'j1 limits \[-1.5, 0.5\] are wider than the '
                                          r"description's \[-1.0, 1.0\]"):
        load_catalog(_config(tmp_path, joints=wide), kinds=KINDS)


def test_other_arm_joints_than_the_description_are_refused(tmp_path):
    joints = 'joints:\n  arm: [j2, j1]\n  postures: {home: [0, 0.5]}\n'
    with pytest.raises(ConfigError, match="differs from the description's arm"):
        load_catalog(_config(tmp_path, joints=joints), kinds=KINDS)


def test_a_posture_outside_the_limits_is_refused(tmp_path):
    with pytest.raises(ConfigError, match="posture 'home' is outside the limits"):
        load_catalog(_config(tmp_path, joints='joints:\n  postures: {home: [0, 1.999]}\n'),
                     kinds=KINDS)


def test_srdf_groups_states_and_effectors_of_a_real_arm():
    urdf_path, srdf_path, _ = arm_files('panda')
    with open(srdf_path, encoding='utf-8') as f:
        srdf = parse_srdf(f.read())
    assert {g.name for g in srdf.groups} >= {'arm', 'hand'}
    from mcp_ros_bridge.catalog.arm_model import arm_model
    with open(urdf_path, encoding='utf-8') as f:
        model = arm_model(parse_urdf(f.read()), srdf)
    assert model.group == 'arm' and model.tip_link == 'panda_hand_tcp'
    fingers = [j.name for j in model.gripper_joints]
    assert fingers == ['panda_finger_joint1', 'panda_finger_joint2']
    assert model.postures['default'][1] == pytest.approx(-0.785398)
