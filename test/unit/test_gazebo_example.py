"""config/gazebo.example.yaml, put into the shipped robot.yaml as README says, loads and lints."""

import os
import shutil

from mcp_ros_bridge.capabilities import KINDS
from mcp_ros_bridge.catalog import linter
from mcp_ros_bridge.catalog.loader import ConfigError, load_robot
from paths import CONFIG_DIR
import pytest
import yaml

pytestmark = pytest.mark.unit
EXAMPLE = os.path.join(CONFIG_DIR, 'gazebo.example.yaml')


def gazebo_config(tmp_path, uncomment_bare_wrench=False):
    """Write the shipped config with the example's ros: section to ``tmp_path``."""
    with open(EXAMPLE, encoding='utf-8') as f:
        text = f.read()
    if uncomment_bare_wrench:
        text = text.replace('    wrench: {name: /force', '    # ').replace(
            '    # wrench: {name: /ft_sensor', '    wrench: {name: /ft_sensor')
    with open(os.path.join(CONFIG_DIR, 'robot.yaml'), encoding='utf-8') as f:
        robot = yaml.safe_load(f)
    robot['ros'] = yaml.safe_load(text)['ros']
    shutil.copy(os.path.join(CONFIG_DIR, 'tools.yaml'), tmp_path)
    with open(tmp_path / 'robot.yaml', 'w', encoding='utf-8') as f:
        yaml.safe_dump(robot, f)
    return str(tmp_path)


@pytest.mark.parametrize('bare', [False, True])
def test_gazebo_example_loads_and_lints_with_either_wrench_source(tmp_path, bare):
    config_dir = gazebo_config(tmp_path, uncomment_bare_wrench=bare)
    wrench = load_robot(config_dir)[0].ros.topics['wrench']
    if bare:
        assert (wrench.name, wrench.bare_wrench) == ('/ft_sensor/wrench', True)
    else:
        assert (wrench.name, wrench.bare_wrench) == ('/force_torque_sensor_broadcaster/wrench',
                                                     False)
    assert linter.main([config_dir], KINDS) == 0


def test_gazebo_example_maps_each_object_to_its_pose_topic(tmp_path):
    ros = load_robot(gazebo_config(tmp_path))[0].ros
    assert {k: t.name for k, t in ros.object_pose_topics.items()} == {
        'box': '/box/pose', 'cylinder': '/cylinder/pose'}
    assert ros.object_pose_max_age_s == 1.0


def test_a_pose_topic_for_an_object_not_in_the_catalog_is_refused_at_load(tmp_path):
    config_dir = gazebo_config(tmp_path)
    with open(tmp_path / 'robot.yaml', encoding='utf-8') as f:
        robot = yaml.safe_load(f)
    robot['ros']['object_pose_topics']['mug'] = {'name': '/mug/pose'}
    with open(tmp_path / 'robot.yaml', 'w', encoding='utf-8') as f:
        yaml.safe_dump(robot, f)
    with pytest.raises(ConfigError, match="'mug' is no object of the catalog"):
        load_robot(config_dir)
