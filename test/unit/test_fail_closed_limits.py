"""Limits fail closed: no joint limits, no start; published bounds wider than them, no load."""

import os
import re
import subprocess
import sys

from doubles import release_goal
from mcp_ros_bridge.capabilities import KINDS
from mcp_ros_bridge.catalog.loader import ConfigError, load_catalog
from mcp_ros_bridge.safety.envelope import EnvelopedBackend, LimitError
import pytest
from test_catalog import REPO, shipped_text, write_config

pytestmark = pytest.mark.unit

NO_LIMITS = re.compile(r'  position_limits:.*?(?=\n\n)', re.DOTALL)


def _without_position_limits() -> str:
    text, n = NO_LIMITS.subn('', shipped_text('robot.yaml'))
    assert n == 1
    return text


def test_robot_yaml_without_position_limits_is_refused(tmp_path):
    """Without joint limits the robot would move unchecked: refuse, naming the key."""
    with pytest.raises(ConfigError) as err:
        load_catalog(write_config(tmp_path, robot=_without_position_limits()), kinds=KINDS)
    assert "'position_limits' is a required property" in str(err.value)
    assert 'robot.yaml' in str(err.value)


def test_serve_refuses_to_start_without_position_limits(tmp_path):
    """The server exits with the config error before any backend starts."""
    write_config(tmp_path, robot=_without_position_limits())
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get('PYTHONPATH', ''))
    argv = [sys.executable, '-m', 'mcp_ros_bridge.cli', 'serve', '--config', str(tmp_path),
            '--no-watch']
    proc = subprocess.run(argv, check=False, cwd=REPO, env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0
    assert 'position_limits' in proc.stderr


@pytest.mark.parametrize('old,new,where', [
    ('maximum: {$robot: limits.max_velocity_scaling}', 'maximum: 0.9', 'velocity_scaling'),
    ('maximum: {$robot: gripper.max_force_n}', 'maximum: 300', 'force_n'),
    ('$arm_joints: {}          #', 'minItems: 7\n          maxItems: 7\n          prefixItems:\n'
     + ''.join(f'            - {{type: number, description: {{en: joint {i} (rad).}}, '
               f'minimum: -2.8, maximum: {3.5 if i == 1 else 2.8}}}\n' for i in range(1, 8))
     + '          #',
     'panda_joint1 bounds'),
])
def test_tool_bounds_wider_than_the_robot_limits_are_refused(tmp_path, old, new, where):
    """Publishing a range the robot refuses misleads the model: the loader refuses it."""
    tools = shipped_text('tools.yaml')
    assert old in tools
    tools = tools.replace(old, new, 1)
    with pytest.raises(ConfigError) as err:
        load_catalog(write_config(tmp_path, tools=tools), kinds=KINDS)
    text = str(err.value)
    assert where in text and 'the robot refuses values outside its limits' in text, text
    assert err.value.line is not None


@pytest.mark.anyio
async def test_release_width_is_checked_at_the_envelope():
    """Grip force, scaling and release width all have their one rule at the envelope."""
    from doubles import RecordingBackend
    from mcp_ros_bridge.catalog.loader import load_robot
    robot, _ = load_robot(os.path.join(REPO, 'config'))
    backend = RecordingBackend()
    env = EnvelopedBackend(backend, robot)
    with pytest.raises(LimitError) as err:
        await env.release(release_goal(0.2))
    assert err.value.details['limit'] == 'gripper_width'
    assert backend.motion_calls == []
    await env.release(release_goal(0.05))
    assert [c[0] for c in backend.motion_calls] == ['release']


@pytest.mark.anyio
async def test_joint_without_limits_is_refused_at_the_envelope():
    """A joint the robot has no limits for is refused, not passed on unchecked."""
    from doubles import RecordingBackend
    from mcp_ros_bridge.backends.port import BackendError, JointGoal, MotionLimits
    from mcp_ros_bridge.catalog.loader import load_robot
    robot, _ = load_robot(os.path.join(REPO, 'config'))
    backend = RecordingBackend()
    goal = JointGoal({'panda_joint1': 0.1, 'panda_finger_joint1': 0.5},
                     MotionLimits(0.2, 0.2, 40.0, 0.25, 60.0))
    with pytest.raises(BackendError) as err:
        await EnvelopedBackend(backend, robot).move_to_joints(goal)
    assert err.value.code == 'INVALID_GOAL' and 'panda_finger_joint1' in err.value.message
    assert backend.motion_calls == []
