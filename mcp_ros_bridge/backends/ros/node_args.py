"""
The bridge node's own name and namespace, taken out of its ROS arguments.

A global ``-r __node:=NAME`` (what ``ros2 launch`` passes for a node's name) renames
every node of the context, so the sensor drain's node would share the bridge
node's name. Applied to the bridge node alone, the drain keeps ``NAME_sensors``;
every other argument (topic remaps, parameters) still reaches both nodes.
"""

from __future__ import annotations

from collections.abc import Sequence

_NAME_KEYS = ('__node', '__name')
_REMAP_FLAGS = ('-r', '--remap')


def node_identity(node_name: str, namespace: str,
                  ros_args: Sequence[str]) -> tuple[str, str, list[str]]:
    """Return ``(name, namespace, other arguments)`` with global name/namespace remaps applied."""
    rest: list[str] = []
    index = 0
    while index < len(ros_args):
        flag = ros_args[index]
        rule = ros_args[index + 1] if index + 1 < len(ros_args) else ''
        key, assigns, value = rule.partition(':=')
        if flag in _REMAP_FLAGS and assigns and (key in _NAME_KEYS or key == '__ns'):
            if key == '__ns':
                namespace = value
            else:
                node_name = value
            index += 2
            continue
        rest.append(flag)
        index += 1
    return node_name, namespace, rest
