"""Launch the MCP bridge node beside MoveIt (or a simulation) with its parameters."""

import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue

ARGUMENTS = {
    'config': ('', 'directory with tools.yaml and robot.yaml; empty: the installed config'),
    'backend': ('ros', 'robot backend: ros or sim'),
    'transport': ('http', 'MCP transport: http (stdio needs the agent host to start the node)'),
    'host': ('127.0.0.1', 'HTTP bind address'),
    'port': ('8765', 'HTTP port'),
    'namespace': ('', 'ROS namespace of the bridge node'),
    'use_sim_time': ('false', 'true beside a simulator (Gazebo): the node clock follows /clock'),
}


def generate_launch_description():
    """Declare the arguments and the bridge node."""
    params_file = os.path.join(get_package_share_directory('mcp_ros_bridge'), 'config',
                               'bridge.params.yaml')
    arguments = [DeclareLaunchArgument(name, default_value=default, description=text)
                 for name, (default, text) in ARGUMENTS.items()]
    overrides = {
        'config_dir': LaunchConfiguration('config'),
        'backend': LaunchConfiguration('backend'),
        'transport': LaunchConfiguration('transport'),
        'host': LaunchConfiguration('host'),
        'port': ParameterValue(LaunchConfiguration('port'), value_type=int),
        'use_sim_time': ParameterValue(LaunchConfiguration('use_sim_time'), value_type=bool),
    }
    node = Node(package='mcp_ros_bridge', executable='mcp_ros_bridge_node',
                name='mcp_ros_bridge', namespace=LaunchConfiguration('namespace'),
                output='screen', parameters=[params_file, overrides])
    return LaunchDescription(arguments + [node])
