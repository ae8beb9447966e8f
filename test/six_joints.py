"""A 6-joint variant of the shipped config: robot.yaml without panda_joint7, and its tools."""

from __future__ import annotations

import os

from paths import CONFIG_DIR

COUNT = '          minItems: 7\n          maxItems: 7\n'
HOME6 = [0.0, -0.785, 0.0, -2.356, 0.0, 1.571]


def _read(name: str) -> str:
    with open(os.path.join(CONFIG_DIR, name), encoding='utf-8') as f:
        return f.read()


def _replace(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def six_joint_robot() -> str:
    """Return robot.yaml for the same arm without its seventh joint."""
    text = _read('robot.yaml')
    text = _replace(text, '        panda_joint5, panda_joint6, panda_joint7]',
                    '        panda_joint5, panda_joint6]')
    text = _replace(text, '[0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785]',
                    '[0.0, -0.785, 0.0, -2.356, 0.0, 1.571]')
    text = _replace(text, '[0.0, -0.185, 0.0, -2.497, 0.0, 2.312, 0.785]',
                    '[0.0, -0.185, 0.0, -2.497, 0.0, 2.312]')
    return _replace(text, '    - [-0.0175, 3.7525]\n    - [-2.8973, 2.8973]\n',
                    '    - [-0.0175, 3.7525]\n')


ARM_JOINTS = ('          $arm_joints: {}          # one bounded number per arm joint, in chain '
              'order\n')


def _item(i: int) -> str:
    """Return one prefixItems entry written out, bounded by the limits less the margin."""
    margin = '{$robot: limits.joint_limit_margin_rad'
    return (f'            - {{type: number, description: {{en: panda_joint{i + 1} (rad).}},\n'
            f'               minimum: {{$robot: joints.position_limits.{i}.0,\n'
            f'                         offset: {margin}}}}},\n'
            f'               maximum: {{$robot: joints.position_limits.{i}.1,\n'
            f'                         offset: {margin}, scale: -1}}}}}}\n')


def six_joint_tools(count: int = 6) -> str:
    """Return tools.yaml with six bounded prefixItems written out, ``count`` min/maxItems."""
    items = ''.join(_item(i) for i in range(6))
    return _replace(_read('tools.yaml'), ARM_JOINTS,
                    COUNT.replace('7', str(count)) + '          prefixItems:\n' + items)


def write_six_joint_config(directory: str, *, tools_fixed: bool) -> str:
    """
    Write the 6-joint robot.yaml and its tools.yaml.

    Unless ``tools_fixed``, move_arm_joints still takes 7 values (minItems and
    maxItems 7) of which only six are bounded: the configuration of issue 19.
    """
    os.makedirs(directory, exist_ok=True)
    for name, text in (('robot.yaml', six_joint_robot()),
                       ('tools.yaml', six_joint_tools(6 if tools_fixed else 7)),
                       ('prompts.yaml', _read('prompts.yaml'))):
        with open(os.path.join(directory, name), 'w', encoding='utf-8') as f:
            f.write(text)
    return directory
