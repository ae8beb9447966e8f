"""
The launch arguments and the parameters file, generated from the settings table.

``launch/bridge.launch.py`` declares :func:`launch_arguments` and turns their
values into the node's name, namespace and parameters with :func:`node_settings`.
``config/bridge.params.yaml`` is :func:`params_yaml`; regenerate it with
``python3 -m mcp_ros_bridge.server.launch_settings > config/bridge.params.yaml``.
"""

from __future__ import annotations

from collections.abc import Mapping
import json
import sys
from typing import Any, NamedTuple

from mcp_ros_bridge.server.settings import (allowed, check, described, Setting, SettingError,
                                            settings)
import yaml

REGENERATE = 'python3 -m mcp_ros_bridge.server.launch_settings > config/bridge.params.yaml'


class NodeSettings(NamedTuple):
    """What the launch file hands to the bridge node."""

    name: str
    namespace: str
    parameters: dict[str, Any]


def launch_text(value: Any) -> str:
    """Return ``value`` as a launch argument writes it (``true``, ``8765``, ``[a, b]``)."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return '[' + ', '.join(value) + ']'  # YAML flow list, parsed back by node_settings
    return str(value)


def launch_arguments() -> list[tuple[str, str, str]]:
    """Return ``(name, default, description)`` of every launch argument, in table order."""
    return [(s.launch_name, launch_text(s.launch_default), described(s)) for s in settings()]


def _parse(setting: Setting, text: str) -> Any:
    """Return a launch argument's text as the setting's type; ValueError says what is allowed."""
    kind, name = type(setting.ros_default), setting.launch_name
    value: Any = text
    try:
        if kind is bool:
            if text.lower() not in ('true', 'false'):
                raise ValueError
            value = text.lower() == 'true'
        elif kind is list:
            value = yaml.safe_load(text) if text.strip() else []
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ValueError
        elif kind in (int, float):
            value = kind(text)
    except (ValueError, yaml.YAMLError):
        value = None  # not of the setting's type: check() refuses it
    try:
        return check(setting, value)
    except SettingError:
        example = launch_text(setting.launch_default)
        raise SettingError(f'launch argument {name}:={text!r} is not allowed: it must be '
                           f'{allowed(setting)}; for example {name}:={example}') from None


def node_settings(values: Mapping[str, str]) -> NodeSettings:
    """Return the node name, namespace and parameters from the launch arguments' values."""
    parsed = {s.name: _parse(s, values[s.launch_name]) for s in settings()}
    parameters = {s.name: parsed[s.name] for s in settings()
                  if s.ros and parsed[s.name] != []}  # an empty array has no ROS type
    return NodeSettings(parsed['node_name'], parsed['namespace'], parameters)


def params_yaml() -> str:
    """Return the shipped parameters file: every ROS parameter with its default."""
    lines = ['# ROS parameters of the mcp_ros_bridge node, generated from the settings table',
             f'# (mcp_ros_bridge/server/settings.py): {REGENERATE}',
             '# use: ros2 run mcp_ros_bridge mcp_ros_bridge_node --ros-args --params-file FILE',
             '/**:', '  ros__parameters:']
    for s in settings():
        if not s.ros:
            continue
        lines.append(f'    # {described(s)}')
        value = s.ros_default
        if value == []:  # an empty array has no type in a parameters file
            lines.append(f'    # {s.name}: []  (a string array, empty by default)')
        else:
            lines.append(f'    {s.name}: {json.dumps(value)}')
    return '\n'.join(lines) + '\n'


if __name__ == '__main__':
    sys.stdout.write(params_yaml())
