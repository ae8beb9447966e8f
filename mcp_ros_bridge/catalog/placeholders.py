"""
``${name}`` in the texts of tools.yaml and prompts.yaml: robot facts written once, in robot.yaml.

A description that says "the ${joint_count} joint angles, ${first_joint} to
${last_joint}, in ${base}" reads right for every arm the config describes.
"""

from __future__ import annotations

import re
from typing import Any

from mcp_ros_bridge.catalog.robot import RobotConfig

PLACEHOLDER = re.compile(r'\$\{([a-z_]+)\}')


def text_values(robot: RobotConfig) -> dict[str, str]:
    """Return the value of each placeholder for ``robot``."""
    width = f'{robot.gripper_max_width_m:.4f}'.rstrip('0').rstrip('.')
    return {'base': robot.base_frame, 'tip': robot.end_effector, 'ft_frame': robot.ft_frame,
            'robot': robot.robot, 'joint_count': str(len(robot.arm_joints)),
            'first_joint': robot.arm_joints[0], 'last_joint': robot.arm_joints[-1],
            'arm_joints': ', '.join(robot.arm_joints),
            'postures': ', '.join(robot.postures), 'gripper_width': width,
            'gripper_joint_count': str(len(robot.gripper_joints)),
            'joint_units': joint_units(robot)}


def joint_units(robot: RobotConfig) -> str:
    """Return 'rad', or 'rad; NAME: m' naming each prismatic arm joint (a torso lift)."""
    metres = [n for n, u in zip(robot.arm_joints, robot.arm_units) if u == 'm']
    return 'rad' + ''.join(f'; {n}: m' for n in metres)


def unknown_placeholders(node: Any, values: dict[str, str]) -> list[str]:
    """Return the placeholder names in ``node``'s strings that ``values`` lacks."""
    if isinstance(node, str):
        return [m for m in PLACEHOLDER.findall(node) if m not in values]
    if isinstance(node, dict):
        return [n for v in node.values() for n in unknown_placeholders(v, values)]
    if isinstance(node, list):
        return [n for v in node for n in unknown_placeholders(v, values)]
    return []


def fill_placeholders(node: Any, values: dict[str, str]) -> Any:
    """Return a copy of ``node`` with every known ``${name}`` in its strings replaced."""
    if isinstance(node, str):
        return PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), node)
    if isinstance(node, dict):
        return {k: fill_placeholders(v, values) for k, v in node.items()}
    if isinstance(node, list):
        return [fill_placeholders(v, values) for v in node]
    return node
