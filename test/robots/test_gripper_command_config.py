"""robot.yaml's gripper.command: written by init, checked against the URDF joint, clear errors."""

from __future__ import annotations

import os

from mcp_ros_bridge.capabilities import KINDS
from mcp_ros_bridge.catalog.init_config import write_config
from mcp_ros_bridge.catalog.loader import ConfigError, load_catalog
import pytest
from robot_data import arm_files
import yaml

pytestmark = [pytest.mark.robots]


def _panda(tmp_path, **gripper):
    """Return a config dir init wrote for example-robot-data's Panda, ``gripper`` merged in."""
    urdf, srdf, _ = arm_files('panda')
    out = str(tmp_path / 'panda')
    write_config(out, urdf, srdf)
    path = os.path.join(out, 'robot.yaml')
    with open(path, encoding='utf-8') as f:
        raw = yaml.safe_load(f)
    raw['gripper'].update(gripper)
    with open(path, 'w', encoding='utf-8') as f:
        yaml.safe_dump(raw, f)
    return out


def test_init_writes_the_finger_joint_mapping(tmp_path):
    robot = load_catalog(_panda(tmp_path), kinds=KINDS).robot
    mapping = robot.gripper_command
    assert (mapping.opened, mapping.closed, mapping.unit, mapping.joint) == (
        0.04, 0.0, 'm', 'panda_finger_joint1')
    assert mapping.position(robot.gripper_max_width_m) == pytest.approx(0.04)
    assert mapping.gap_m(0.02) == pytest.approx(0.04)


@pytest.mark.parametrize('command,field,says', [
    ({'open': 0.04, 'closed': 0.0, 'unit': 'rad'}, 'unit', 'unit: m'),
    ({'open': 0.05, 'closed': 0.0}, 'open', 'outside panda_finger_joint1 limits [0.0, 0.04]'),
    ({'open': 0.0, 'closed': 0.0}, 'command', 'open and closed are both 0.0'),
    ({'open': 0.04, 'closed': 0.0, 'joint': 'nope'}, 'joint', "'nope' is no gripper joint"),
])
def test_a_mapping_the_joint_cannot_follow_is_refused(tmp_path, command, field, says):
    with pytest.raises(ConfigError) as err:
        load_catalog(_panda(tmp_path, command=command), kinds=KINDS)
    assert says in str(err.value) and field in str(err.value)


def test_the_retired_position_scale_names_its_replacement(tmp_path):
    out = _panda(tmp_path)
    path = os.path.join(out, 'robot.yaml')
    with open(path, encoding='utf-8') as f:
        raw = yaml.safe_load(f)
    raw['ros']['gripper_position_scale'] = 0.5
    with open(path, 'w', encoding='utf-8') as f:
        yaml.safe_dump(raw, f)
    with pytest.raises(ConfigError, match='retired: write gripper.command'):
        load_catalog(out, kinds=KINDS)
