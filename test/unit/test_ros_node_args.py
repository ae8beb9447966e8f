"""The bridge node takes the global name/namespace remaps; the other ROS arguments stay."""

from mcp_ros_bridge.backends.ros.node_args import node_identity
import pytest

pytestmark = pytest.mark.unit


def test_global_name_and_namespace_remaps_name_the_bridge_node_only():
    args = ['-r', '__node:=arm_bridge', '--remap', '__ns:=/lab', '-r', '/joint_states:=/arm/js',
            '-p', 'use_sim_time:=true']
    assert node_identity('mcp_ros_bridge', '', args) == (
        'arm_bridge', '/lab', ['-r', '/joint_states:=/arm/js', '-p', 'use_sim_time:=true'])


def test_without_remaps_the_settings_name_the_node():
    args = ['--params-file', 'bridge.params.yaml', '-r', 'other:__node:=x', '-r']
    assert node_identity('bridge', '/ns', args) == ('bridge', '/ns', args)
    assert node_identity('bridge', '', ['-r', '__name:=old_style']) == ('old_style', '', [])
