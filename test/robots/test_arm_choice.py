"""
Which chain ``mcp-ros-bridge init`` makes the arm, on every manipulator example-robot-data ships.

For each arm init writes the config (with the chain choice the robot needs; the CLI
itself, as a user runs it, for the arms of the defects below); it lints with 0 errors
and gives the tools/list serve would (in this process: a CLI start per arm costs minutes).
The arm never holds a hand joint (mimic, jaw, finger, gripper) or a wheel; a prismatic
joint keeps its unit (m) and a margin in metres. On main the SO-101's jaw, Baxter's
finger and TIAGo's hand joints were arm joints; two-armed robots were guessed.
"""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys

from mcp_ros_bridge.capabilities import KINDS
from mcp_ros_bridge.catalog.description import parse_urdf
from mcp_ros_bridge.catalog.init_config import write_config
from mcp_ros_bridge.catalog.linter import lint_config
from mcp_ros_bridge.catalog.loader import load_catalog, load_robot
from mcp_ros_bridge.server.bridge import tool_models
import pytest
from robot_data import assert_published_bounds, robots_dir
import yaml

from bridge_kit import REPO  # noqa: I100 - on the path robot_data sets

pytestmark = [pytest.mark.robots]

# Every manipulator of example-robot-data: (id, URDF, SRDF, init's chain options, arm joints).
# Left out as no manipulator: legged robots without an arm, humanoids, hands, drones,
# pendulums; ur3.urdf has no <link> (init refuses it, tested below).
_E = 'example-robot-data'
MANIPULATORS = (
    ('panda', 'panda_description/urdf/panda.urdf', 'panda_description/srdf/panda.srdf', (), 7),
    ('panda_collision', 'panda_description/urdf/panda_collision.urdf',
     'panda_description/srdf/panda.srdf', (), 7),
    *((f'{ur}{v}', f'ur_description/urdf/{ur}{v}.urdf', '', (), 6)
      for ur in ('ur3', 'ur5', 'ur10') for v in ('_robot', '_joint_limited_robot')),
    ('ur3_gripper', 'ur_description/urdf/ur3_gripper.urdf',
     'ur_description/srdf/ur3_gripper.srdf', (), 6),
    ('ur5_gripper', 'ur_description/urdf/ur5_gripper.urdf',
     'ur_description/srdf/ur5_gripper.srdf', (), 6),
    ('kinova', 'kinova_description/robots/kinova.urdf', 'kinova_description/srdf/kinova.srdf',
     (), 6),
    ('xarm7', 'xarm_description/urdf/xarm7.urdf', 'xarm_description/srdf/xarm7.srdf', (), 7),
    ('z1', 'z1_description/urdf/z1.urdf', 'z1_description/srdf/z1.srdf', (), 6),
    ('so100', 'so_arm_description/urdf/so100.urdf', '', (), 5),
    ('so101', 'so_arm_description/urdf/so101.urdf', '', (), 5),
    ('baxter_right', 'baxter_description/urdf/baxter.urdf',
     'baxter_description/srdf/baxter_manipulation.srdf', ('--tip', 'right_gripper'), 7),
    ('baxter_left', 'baxter_description/urdf/baxter.urdf',
     'baxter_description/srdf/baxter_manipulation.srdf', ('--tip', 'left_gripper'), 7),
    ('tiago', 'tiago_description/robots/tiago.urdf', '', (), 8),
    ('tiago_no_hand', 'tiago_description/robots/tiago_no_hand.urdf', '', (), 8),
    ('tiago_arm_only', 'tiago_description/robots/tiago.urdf', '',
     ('--base', 'torso_lift_link'), 7),
    ('tiago_dual', 'tiago_description/robots/tiago_dual.urdf', '',
     ('--tip', 'arm_right_tool_link'), 8),
    ('tiago_pro', 'tiago_pro_description/robots/tiago_pro.urdf', '',
     ('--tip', 'arm_right_tool_link'), 8),
    ('pr2_right', 'pr2_description/urdf/pr2.urdf', 'pr2_description/srdf/pr2.srdf',
     ('--group', 'right_arm'), 7),
    ('pr2_left_torso', 'pr2_description/urdf/pr2.urdf', '',
     ('--tip', 'l_gripper_palm_link'), 8),
    ('talos_left_arm', 'talos_data/robots/talos_left_arm.urdf', '', (), 6),
    ('anymal_kinova', 'anymal_b_simple_description/robots/anymal-kinova.urdf',
     'anymal_b_simple_description/srdf/anymal-kinova.srdf', (), 6),
    ('b1_z1', 'b1_description/urdf/b1-z1.urdf', 'b1_description/srdf/b1-z1.srdf', (), 6),
)
HAND_OR_WHEEL = re.compile(r'finger|jaw|gripper|hand|thumb|knuckle|wheel|caster', re.IGNORECASE)


def _cli(*argv: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get('PYTHONPATH', ''))
    return subprocess.run([sys.executable, '-m', 'mcp_ros_bridge.cli', *argv], cwd=REPO,
                          env=env, capture_output=True, text=True, timeout=180, check=False)


def _files(urdf: str, srdf: str) -> list[str]:
    base = robots_dir()
    return ['--urdf', os.path.join(base, urdf), *(['--srdf', os.path.join(base, srdf)]
                                                  if srdf else [])]


@pytest.mark.parametrize('name,urdf,srdf,choice,count', MANIPULATORS,
                         ids=[m[0] for m in MANIPULATORS])
def test_init_lint_and_tools_of_every_manipulator(tmp_path, name, urdf, srdf, choice, count):
    out = str(tmp_path / name)
    files = _files(urdf, srdf)
    options = dict(zip(choice[::2], choice[1::2]))
    write_config(out, files[1], files[3] if len(files) > 2 else '',
                 group=options.get('--group', ''), tip=options.get('--tip', ''),
                 base=options.get('--base', ''))
    errors = [f for f in lint_config(out, KINDS) if f.severity == 'error']
    assert not errors, errors
    catalog = load_catalog(out, kinds=KINDS)
    tools = tool_models(catalog.tools)
    positions = next(t for t in tools if t.name == 'move_arm_joints')
    positions = positions.input_schema['properties']['positions']
    with open(os.path.join(robots_dir(), urdf), encoding='utf-8') as f:
        model = parse_urdf(f.read())
    names = list(catalog.robot.arm_joints)  # the order of the items (all in get_robot_info)
    assert f'{names[0]} to {names[-1]}' in positions['description'], positions['description']
    assert len(names) == positions['minItems'] == positions['maxItems'] == count, names
    with open(os.path.join(out, 'robot.yaml'), encoding='utf-8') as f:
        margins = yaml.safe_load(f)['limits']
    for joint_name, item in zip(names, positions['prefixItems']):
        joint = model.joint(joint_name)
        assert joint is not None and joint.movable and not joint.mimic, joint_name
        assert not HAND_OR_WHEEL.search(joint_name), (name, joint_name)
        if joint.kind == 'continuous':
            continue
        margin = margins['joint_limit_margin_m' if joint.kind == 'prismatic'
                         else 'joint_limit_margin_rad']
        assert_published_bounds(item, joint.lower + margin, joint.upper - margin)
        if joint.kind == 'prismatic':
            assert f'{joint_name}: m' in positions['description'], positions['description']


@pytest.mark.parametrize('urdf,srdf,listed,how', [
    ('baxter_description/urdf/baxter.urdf', 'baxter_description/srdf/baxter_manipulation.srdf',
     ('left_arm_mount', 'right_arm_mount'), '--tip'),  # its one SRDF group is the whole body
    ('pr2_description/urdf/pr2.urdf', 'pr2_description/srdf/pr2.srdf',
     ('left_arm', 'right_arm', 'left_arm_and_torso', 'right_arm_and_torso'), '--group'),
    ('pr2_description/urdf/pr2.urdf', '', ('l_gripper_palm_link', 'r_gripper_palm_link'),
     '--tip'),
    ('tiago_description/robots/tiago_dual.urdf', '',
     ('wrist_left_ft_tool_link', 'wrist_right_ft_tool_link'), '--tip'),
], ids=['baxter', 'pr2_srdf', 'pr2_urdf', 'tiago_dual'])
def test_several_arms_are_refused_in_one_line_listing_each(tmp_path, urdf, srdf, listed, how):
    init = _cli('init', *_files(urdf, srdf), '--out', str(tmp_path / 'cfg'))
    assert init.returncode == 2 and not os.path.exists(tmp_path / 'cfg')
    (line,) = init.stderr.strip().splitlines()
    assert 'candidate arms' in line and 'init does not guess' in line, line
    assert all(x in line for x in listed), line
    assert how in line, line


def test_the_so101_jaw_and_baxters_fingers_are_the_gripper(tmp_path):
    """The joints below the arm's last joint are the gripper's, not the arm's."""
    for name, files, choice, fingers, tip, arm in (
            ('so101', _files('so_arm_description/urdf/so101.urdf', ''), (), ['gripper'],
             'gripper_frame_link', ['shoulder_pan', 'shoulder_lift', 'elbow_flex', 'wrist_flex',
                                    'wrist_roll']),
            ('baxter', _files('baxter_description/urdf/baxter.urdf', ''),
             ('--tip', 'right_gripper'), ['r_gripper_l_finger_joint',
                                          'r_gripper_r_finger_joint'], 'right_gripper',
             [f'right_{j}' for j in ('s0', 's1', 'e0', 'e1', 'w0', 'w1', 'w2')])):
        out = str(tmp_path / name)
        assert _cli('init', *files, *choice, '--out', out).returncode == 0
        robot = load_robot(out)[0]
        assert list(robot.gripper_joints) == fingers
        # the SO-101's TCP is gripper_frame_link turned 90 deg about z: its 5-DoF wrist then
        # reaches fingers down
        tcp = robot.ros.tcp
        assert (tcp.parent_link if tcp else robot.end_effector) == tip
        assert tcp is None or math.isclose(tcp.rpy[2], math.pi / 2, abs_tol=1e-5)
        assert list(robot.arm_joints) == arm


def test_names_from_a_description_cannot_add_yaml(tmp_path):
    """A crafted link or joint name is written quoted: it stays one name, adds no key."""
    base = robots_dir()
    with open(os.path.join(base, 'so_arm_description/urdf/so101.urdf'), encoding='utf-8') as f:
        text = f.read()
    crafted = 'gripper, max_effort: 5000'
    text = text.replace('name="gripper"', f'name="{crafted}"').replace(
        'joint="gripper"', f'joint="{crafted}"')
    text = text.replace('"moving_jaw_so101_v1_link"', '"moving_jaw, base_link"')
    path = tmp_path / 'so101.urdf'
    path.write_text(text, encoding='utf-8')
    out = str(tmp_path / 'cfg')
    init = _cli('init', '--urdf', str(path), '--out', out)
    assert init.returncode == 0, init.stderr
    with open(os.path.join(out, 'robot.yaml'), encoding='utf-8') as f:
        robot = yaml.safe_load(f)
    assert 'max_effort' not in robot['gripper'].get('command', {})
    assert 'base_link' not in robot['moveit']['hand_links']
    assert 'moving_jaw, base_link' in robot['moveit']['hand_links']
    assert robot['gripper']['command']['joint'] == crafted
