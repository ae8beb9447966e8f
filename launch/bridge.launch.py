"""
Launch the MCP bridge node beside MoveIt (or a simulation).

Every serve setting is a launch argument (``--show-args`` lists them); they come
from the settings table in mcp_ros_bridge/server/settings.py.
"""

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from mcp_ros_bridge.server.launch_settings import launch_arguments, node_settings


def bridge_node(context):
    """Return the bridge node, named and parameterised by the launch arguments."""
    node = node_settings({name: LaunchConfiguration(name).perform(context)
                          for name, _, _ in launch_arguments()})
    return [Node(package='mcp_ros_bridge', executable='mcp_ros_bridge_node', name=node.name,
                 namespace=node.namespace, output='screen', parameters=[node.parameters])]


def generate_launch_description():
    """Declare one argument per setting and the bridge node."""
    arguments = [DeclareLaunchArgument(name, default_value=default, description=text)
                 for name, default, text in launch_arguments()]
    return LaunchDescription(arguments + [OpaqueFunction(function=bridge_node)])
