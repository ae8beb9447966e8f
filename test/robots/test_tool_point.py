"""
The tool point the simulation reports is the robot's: forward kinematics of its URDF plus ros.tcp.

For every manipulator of the init sweep the config init writes declares its TCP
(``ros.tcp``: parent link, offset, turn); ``serve --backend sim`` reports the
end effector's pose over MCP, at home and after a wrist move, and an
independent chain of the URDF (this file's own numpy, from the XML) with that
declared transform agrees within 1 mm and 0.1 degree. On main the simulation
added a Panda-size 0.1034 m beyond the tip link whatever robot.yaml said.
"""

from __future__ import annotations

import math
import os
import xml.etree.ElementTree as ET

import anyio
from mcp import Client
import numpy as np
import pytest
from robot_data import robots_dir
from test_arm_choice import MANIPULATORS
import yaml

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.robots, pytest.mark.sim]

# The simulation refuses this one in one line (the sweep's other arms it builds, those with
# COLLADA collision meshes too: Kinova, TIAGo; PR2's right arm and TIAGo's from their torso
# lift link on the table init lowers below the shoulder): TALOS' arm, for which init finds
# no fingers-down home on any table, hangs at its zeros into the table.
UNBUILT = {'talos_left_arm': 'puts it into the scene'}


def _rot(axis: np.ndarray, angle: float) -> np.ndarray:
    a = axis / np.linalg.norm(axis)
    k = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    return np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * k @ k


def _rpy(r: float, p: float, y: float) -> np.ndarray:
    x, yy, z = np.eye(3)
    return _rot(z, y) @ _rot(yy, p) @ _rot(x, r)


def _nums(text: str | None, default: str) -> np.ndarray:
    return np.array([float(v) for v in (text or default).split()])


def _fk(urdf: str, base: str, link: str, q: dict[str, float]) -> np.ndarray:
    """Return the 4x4 pose of ``link`` in ``base`` from the URDF's XML at positions ``q``."""
    root = ET.parse(urdf).getroot()
    above = {j.find('child').get('link'): j for j in root.findall('joint')}
    chain, at = [], link
    while at != base:
        joint = above[at]
        chain.append(joint)
        at = joint.find('parent').get('link')
    pose = np.eye(4)
    for joint in reversed(chain):
        origin = joint.find('origin')
        step = np.eye(4)
        if origin is not None:
            step[:3, :3] = _rpy(*_nums(origin.get('rpy'), '0 0 0'))
            step[:3, 3] = _nums(origin.get('xyz'), '0 0 0')
        move = np.eye(4)
        axis = _nums(joint.find('axis').get('xyz') if joint.find('axis') is not None else None,
                     '1 0 0')
        value = q.get(joint.get('name'), 0.0)
        if joint.get('type') == 'prismatic':
            move[:3, 3] = axis * value
        elif joint.get('type') in ('revolute', 'continuous'):
            move[:3, :3] = _rot(axis, value)
        pose = pose @ step @ move
    return pose


def _quat_matrix(q: dict) -> np.ndarray:
    w, x, y, z = np.array([q['w'], q['x'], q['y'], q['z']]) / math.sqrt(
        q['w'] ** 2 + q['x'] ** 2 + q['y'] ** 2 + q['z'] ** 2)  # rounded to 6 digits: unit again
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


async def _ok(c: Client, tool: str, args: dict | None = None) -> dict:
    r = await c.call_tool(tool, args or {})
    assert not r.is_error, (tool, r.content[0].text)
    return r.structured_content


def _check(robot: dict, urdf: str, reported: dict, joints: list[dict]) -> tuple[float, float]:
    """Return the position (mm) and angle (deg) between the reported and the URDF's TCP."""
    tcp = robot['ros'].get('tcp')
    parent = tcp['parent_link'] if tcp else robot['frames']['end_effector']
    pose = _fk(urdf, robot['frames']['base'], parent, {j['name']: j['position'] for j in joints})
    if tcp:
        offset = np.eye(4)
        offset[:3, :3] = _rpy(*tcp['rpy'])
        offset[:3, 3] = tcp['offset_xyz']
        pose = pose @ offset
    p = reported['position_m']
    error_mm = 1000 * float(np.linalg.norm(pose[:3, 3] - [p['x'], p['y'], p['z']]))
    turn = _quat_matrix(reported['quaternion']).T @ pose[:3, :3]
    skew = np.array([turn[2, 1] - turn[1, 2], turn[0, 2] - turn[2, 0], turn[1, 0] - turn[0, 1]])
    angle = math.degrees(math.atan2(float(np.linalg.norm(skew)), float(np.trace(turn) - 1)))
    return error_mm, angle


# Known: PR2's left arm with its torso lift is at times 11-14 mm off (its joints still move
# between the two reads: the heavy torso on its servo), at times within 0.01 mm.
KNOWN = {'pr2_left_torso': pytest.mark.xfail(strict=False, reason='PR2 torso settling')}
ARMS = [pytest.param(*m, marks=KNOWN[m[0]]) if m[0] in KNOWN else m for m in MANIPULATORS]


@pytest.mark.anyio
@pytest.mark.parametrize('name,urdf,srdf,choice,count', ARMS, ids=[m[0] for m in MANIPULATORS])
async def test_the_reported_tool_point_is_the_urdf_chain_plus_ros_tcp(
        tmp_path, name, urdf, srdf, choice, count):
    from mcp_ros_bridge.backends.port import BackendError
    from mcp_ros_bridge.catalog.init_config import write_config
    from mcp_ros_bridge.server.app import build
    from mcp_ros_bridge.server.settings import ServeOptions
    base = robots_dir()
    options = dict(zip(choice[::2], choice[1::2]))
    out, urdf = str(tmp_path / name), os.path.join(base, urdf)
    write_config(out, urdf, os.path.join(base, srdf) if srdf else '',
                 group=options.get('--group', ''), tip=options.get('--tip', ''),
                 base=options.get('--base', ''))
    text = (tmp_path / name / 'robot.yaml').read_text(encoding='utf-8')
    robot = yaml.safe_load(text)
    assert robot['ros'].get('tcp') is not None or '# tcp: none, the TCP is' in text
    if name in UNBUILT:
        with pytest.raises(BackendError) as refused:
            await build(ServeOptions(config_dir=out, sim_speed=0, watch=False))
        assert refused.value.code == 'UNSUPPORTED' and UNBUILT[name] in str(refused.value)
        assert '\n' not in str(refused.value)
        return
    bridge, backend = await build(ServeOptions(config_dir=out, sim_speed=0, watch=False))
    errors = []
    try:
        async with Client(bridge.server, mode='2026-07-28') as c:
            with anyio.fail_after(120):
                for turn in (0.0, 0.2):
                    if turn:
                        home = list(bridge.catalog.robot.home)
                        lo, hi = bridge.catalog.robot.arm_position_limits[-1]
                        home[-1] += turn if home[-1] + turn < hi else -turn
                        assert home[-1] > lo
                        await _ok(c, 'move_arm_joints', {'positions': home})
                    joints = (await _ok(c, 'get_joint_states', {'include_gripper': False}))
                    pose = (await _ok(c, 'get_end_effector_pose'))['pose']
                    assert pose['frame'] == robot['frames']['base']
                    errors.append(_check(robot, urdf, pose, joints['joints']))
    finally:
        await backend.close()
    for mm, deg in errors:
        assert mm <= 1.0 and deg <= 0.1, (name, errors)
