"""
``mcp-ros-bridge init --from-robot``: the descriptions a running robot publishes, over real rclpy.

A peer publishes example-robot-data's UR5 URDF and SRDF on /robot_description and
/robot_description_semantic as MoveIt does (std_msgs/String, reliable,
transient-local, depth 1, published once before the bridge looks); the CLI, a
separate process, reads them, writes robot.urdf, robot.srdf and the robot.yaml
that references them, and says what it could not read.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from robot_data import arm_files
import yaml

from bridge_kit import REPO  # noqa: I100 - on the path robot_data sets
import ros_support  # noqa: I100 - on the path robot_data sets; pins the DDS domain first

pytestmark = [pytest.mark.robots, pytest.mark.ros]
pytest.importorskip('rclpy', reason='rclpy does not import: the live init needs it')
_N = iter(range(1000))


def _cli(*argv: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get('PYTHONPATH', ''))
    return subprocess.run([sys.executable, '-m', 'mcp_ros_bridge.cli', *argv], cwd=REPO,
                          env=env, capture_output=True, text=True, timeout=120, check=False)


def _publish_as_moveit(peer, texts: dict[str, str]) -> list:
    """Publish each text once, latched as robot_state_publisher and move_group do."""
    from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
    from std_msgs.msg import String
    latched = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                         durability=DurabilityPolicy.TRANSIENT_LOCAL)
    pubs = []
    for topic, text in texts.items():
        pub = peer.node.create_publisher(String, topic, latched)
        pub.publish(String(data=text))
        pubs.append(pub)
    return pubs


def _topics() -> tuple[str, str]:
    tag = f'/r{os.getpid()}_{next(_N)}'
    return f'{tag}/robot_description', f'{tag}/robot_description_semantic'


def _read(path: str) -> str:
    with open(path, encoding='utf-8') as f:
        return f.read()


def test_init_reads_a_running_ur5_and_writes_its_config(tmp_path):
    urdf, srdf, count = arm_files('ur5')
    description, semantic = _topics()
    peer = ros_support.Peer('robot_state_publisher')
    try:
        peer.keep = _publish_as_moveit(peer, {description: _read(urdf), semantic: _read(srdf)})
        out = str(tmp_path / 'ur5')
        init = _cli('init', '--from-robot', '--description-topic', description,
                    '--semantic-topic', semantic, '--out', out)
    finally:
        peer.close()
    assert init.returncode == 0, init.stderr
    assert f'read {description}' in init.stdout and f'read {semantic}' in init.stdout
    assert _read(os.path.join(out, 'robot.urdf')) == _read(urdf)
    assert _read(os.path.join(out, 'robot.srdf')) == _read(srdf)
    with open(os.path.join(out, 'robot.yaml'), encoding='utf-8') as f:
        robot = yaml.safe_load(f)
    assert robot['description'] == {'urdf': 'robot.urdf', 'srdf': 'robot.srdf'}
    from mcp_ros_bridge.capabilities import KINDS
    from mcp_ros_bridge.catalog.loader import load_catalog
    catalog = load_catalog(out, kinds=KINDS)
    assert len(catalog.robot.arm_joints) == count
    assert catalog.robot.arm_joints[0] == 'shoulder_pan_joint'
    lint = _cli('lint', out)
    assert lint.stdout.splitlines()[-1].startswith('0 error(s)'), lint.stdout


def test_init_says_what_it_could_not_read(tmp_path):
    urdf, _, _ = arm_files('ur5')
    description, semantic = _topics()
    peer = ros_support.Peer('robot_state_publisher')
    try:
        peer.keep = _publish_as_moveit(peer, {description: _read(urdf)})  # no move_group
        out = str(tmp_path / 'ur5')
        init = _cli('init', '--from-robot', '--description-topic', description,
                    '--semantic-topic', semantic, '--wait', '30', '--out', out)
        silent = _cli('init', '--from-robot', '--description-topic', f'{description}_none',
                      '--wait', '1', '--out', str(tmp_path / 'none'))
        chinese = _cli('--lang', 'zh', 'init', '--from-robot', '--description-topic',
                       f'{description}_none', '--wait', '1', '--out', str(tmp_path / 'none'))
    finally:
        peer.close()
    assert init.returncode == 0, init.stderr
    assert f'nothing arrived on {semantic}' in init.stdout and 'no SRDF' in init.stdout
    assert not os.path.exists(os.path.join(out, 'robot.srdf'))
    with open(os.path.join(out, 'robot.yaml'), encoding='utf-8') as f:
        assert yaml.safe_load(f)['description'] == {'urdf': 'robot.urdf'}
    assert silent.returncode == 2 and f'nothing arrived on {description}_none' in silent.stderr
    assert 'Nothing was written' in silent.stderr and not os.path.exists(tmp_path / 'none')
    assert chinese.returncode == 2 and '未写入任何文件' in chinese.stderr
