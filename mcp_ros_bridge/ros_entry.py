"""
The ROS node executable: ``ros2 run mcp_ros_bridge mcp_ros_bridge_node --ros-args ...``.

colcon installs it under ``lib/mcp_ros_bridge`` (setup.cfg), where ``ros2 run``
and launch files find it; ``--help`` prints the parameters without starting ROS.

Settings are ROS parameters (declared with descriptors) so they come from
``--ros-args -p``, a parameters YAML or the launch file. Standard output
carries only MCP; every log goes to standard error. Ctrl-C and an external
ROS shutdown end the process cleanly. It serves through the same path as
``mcp-ros-bridge serve`` (:func:`mcp_ros_bridge.server.app.serve`); the node
name and namespace come from remapping (``-r __node:=NAME -r __ns:=/NS``).
"""

from __future__ import annotations

import logging
import os
import sys
from typing import Any

from mcp_ros_bridge.server.launch_settings import launch_text
from mcp_ros_bridge.server.settings import (allowed, check, DEFAULT_NODE_NAME, ros_parameters,
                                            ServeOptions, SettingError, settings)

# From the settings table (server/settings.py), with the node's defaults (backend: ros).
PARAMETERS: dict[str, tuple[Any, str]] = ros_parameters()
SETTINGS = {s.name: s for s in settings()}
NODE_NAME = DEFAULT_NODE_NAME
EXECUTABLE = 'mcp_ros_bridge_node'
USAGE = f"""usage: ros2 run mcp_ros_bridge {EXECUTABLE} [--ros-args -p NAME:=VALUE ...]

Serve the robot's capabilities as MCP tools from a ROS 2 node. Settings are ROS
parameters (also set by a parameters file or launch/bridge.launch.py); the node
name and namespace are set by remapping (-r __node:=NAME -r __ns:=/NS):
"""
EXAMPLE = f"""
example (an agent host starting the bridge over stdio, Gazebo sim time):
  ros2 run mcp_ros_bridge {EXECUTABLE} --ros-args -p transport:=stdio -p use_sim_time:=true
"""


def help_text() -> str:
    """Return the ``--help`` text: usage, every parameter with its default, an example."""
    width = max(map(len, PARAMETERS))
    rows = [f'  {name:<{width}}  {description} (default: {default!r})'
            for name, (default, description) in PARAMETERS.items()]
    return USAGE + '\n'.join(rows) + '\n' + EXAMPLE


def split_ros_args(argv: list[str]) -> list[str]:
    """Return the arguments after the first ``--ros-args`` (empty when absent)."""
    return argv[argv.index('--ros-args') + 1:] if '--ros-args' in argv else []


def read_parameters(ros_args: list[str]) -> dict[str, Any]:
    """Declare the node's parameters in a short-lived private context; return their values."""
    import rclpy
    from rclpy.context import Context
    from rclpy.signals import SignalHandlerOptions
    context = Context()
    rclpy.init(args=['--ros-args', *ros_args], context=context,
               signal_handler_options=SignalHandlerOptions.NO)
    try:
        node = rclpy.create_node(NODE_NAME, context=context)
        values = {name: _declared(node, name, default, description)
                  for name, (default, description) in PARAMETERS.items()}
        node.destroy_node()
        return values
    finally:
        context.try_shutdown()


def _declared(node: Any, name: str, default: Any, description: str) -> Any:
    """
    Declare one parameter (typed by its default) and return its value, checked by the table.

    A value of another type (``-p port:=abc``, ``-p sim_speed:=2``) is read once more
    untyped so that the settings table can accept it (2 for 2.0) or name what is allowed.
    """
    from rcl_interfaces.msg import ParameterDescriptor, ParameterType
    from rclpy.exceptions import InvalidParameterTypeException
    from rclpy.parameter import Parameter
    setting = SETTINGS[name]
    descriptor = ParameterDescriptor(description=description, read_only=True)
    if node.has_parameter(name):  # use_sim_time: every rclpy node declares it
        value = node.get_parameter(name).value
    elif isinstance(default, list):  # an empty list has no ROS type of its own
        descriptor.type = ParameterType.PARAMETER_STRING_ARRAY
        try:
            declared = node.declare_parameter(name, Parameter.Type.STRING_ARRAY, descriptor)
            value = list(declared.value or [])
        except InvalidParameterTypeException:
            value = _untyped(node, name, default, description)
    else:
        try:
            value = node.declare_parameter(name, default, descriptor).value
        except InvalidParameterTypeException:
            value = _untyped(node, name, default, description)
    try:
        return check(setting, value)
    except SettingError:
        raise SettingError(f'ROS parameter {name}:={value!r} is not allowed: it must be '
                           f'{allowed(setting)}; for example -p {name}:='
                           f'{launch_text(setting.ros_default)}') from None


def _untyped(node: Any, name: str, default: Any, description: str) -> Any:
    """Return the value of a parameter given with another type than its default's."""
    from rcl_interfaces.msg import ParameterDescriptor
    untyped = ParameterDescriptor(description=description, read_only=True, dynamic_typing=True)
    return node.declare_parameter(name, default, untyped).value


def main(argv: list[str] | None = None) -> int:
    """Run the bridge; return the process exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    own = argv[:argv.index('--ros-args')] if '--ros-args' in argv else argv
    if '-h' in own or '--help' in own:
        print(help_text(), end='')
        return 0
    os.environ.setdefault('RCUTILS_LOGGING_USE_STDOUT', '0')  # stdout is for MCP only
    logging.basicConfig(stream=sys.stderr, level=logging.INFO,
                        format='[%(levelname)s] [%(name)s]: %(message)s')
    from rclpy.executors import ExternalShutdownException
    from mcp_ros_bridge.catalog.yaml_lines import ConfigError
    from mcp_ros_bridge.server.app import run
    ros_args = split_ros_args(argv)
    try:
        # The node name and namespace come from remapping in ros_args (-r __node:=, __ns:=).
        return run(ServeOptions(**read_parameters(ros_args)), ros_args)
    except ConfigError as exc:
        logging.getLogger(NODE_NAME).error('config error: %s', exc)
        return 2
    except SettingError as exc:
        logging.getLogger(NODE_NAME).error('%s', exc)
        return 2
    except (KeyboardInterrupt, ExternalShutdownException):
        return 0


if __name__ == '__main__':
    sys.exit(main())
