"""
A clone of the repository alone: no ``../shared`` beside it and no ROS importable.

The tree is copied (its tracked files) where nothing lies beside it, and run with
``test/without_ros`` first on ``PYTHONPATH`` (its ``sitecustomize`` hides rclpy,
the message packages and the generated MoveIt interfaces from every process).
There the set-up's interface step skips in one line, the README's main job (the
demo) runs to its SUCCESS line, and pytest collects the whole suite with no error.
"""

import os
import shutil
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WITHOUT_ROS = os.path.join(REPO, 'test', 'without_ros')
pytestmark = pytest.mark.skipif(shutil.which('bash') is None, reason='needs bash')


OUTPUTS = shutil.ignore_patterns('.git', '.venv', 'build', 'install', 'log', 'out',
                                 '__pycache__', '*.egg-info')


def _tracked_files() -> list[str] | None:
    """Return the tracked files, or None where the tree is not a git checkout."""
    proc = subprocess.run(['git', 'ls-files', '-z'], cwd=REPO, capture_output=True, check=False)
    if proc.returncode != 0:
        return None
    return [p for p in proc.stdout.decode().split('\0') if p]


@pytest.fixture(scope='module')
def clone(tmp_path_factory):
    """Copy the tracked tree to a directory with nothing beside it."""
    root = tmp_path_factory.mktemp('alone') / 'mcp_ros_bridge'
    tracked = _tracked_files()
    if tracked is None:  # a copy without .git: everything but outputs
        shutil.copytree(REPO, root, ignore=OUTPUTS)
    for rel in tracked or ():
        src = os.path.join(REPO, rel)
        if os.path.isfile(src):
            os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
            shutil.copy2(src, os.path.join(root, rel))
    assert not os.path.exists(os.path.join(root, '..', 'shared'))
    return str(root)


def _env(clone: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ('ROS_INTERFACES_DIR', 'AMENT_PREFIX_PATH', 'CI')}
    env['PYTHONPATH'] = os.pathsep.join([WITHOUT_ROS, clone])
    return env


def _run(clone: str, *argv: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run(list(argv), cwd=clone, env=_env(clone), capture_output=True,
                          text=True, timeout=timeout, check=False)


def test_ros_is_hidden_there(clone):
    proc = _run(clone, sys.executable, '-c', 'import rclpy')
    assert proc.returncode != 0 and 'ROS is hidden here' in proc.stderr
    proc = _run(clone, sys.executable, '-c',
                'import mcp_ros_bridge, os; print(os.path.dirname(mcp_ros_bridge.__file__))')
    assert proc.returncode == 0 and proc.stdout.strip().startswith(clone), proc.stderr


def test_the_interface_build_skips_in_one_line(clone):
    proc = _run(clone, 'bash', '.ci/build_ros_interfaces', sys.executable, timeout=120)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    lines = [line for line in out.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith('build_ros_interfaces: skipped: no interface'
                                                   ' definitions'), out
    assert 'ros_moveit tests' in lines[0]


def test_the_demo_runs_to_success(clone, tmp_path):
    image = tmp_path / 'scene.png'
    proc = _run(clone, sys.executable, '-m', 'mcp_ros_bridge.cli', 'demo', '--sim-speed', '0',
                '--image', str(image))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert 'SUCCESS' in proc.stdout.splitlines()[-1]
    assert image.stat().st_size > 1000


def test_pytest_collects_every_layer_without_error(clone):
    proc = _run(clone, sys.executable, '-m', 'pytest', '--collect-only', '-q', '-p',
                'no:cacheprovider', '-rs', 'test')
    tail = proc.stdout[-4000:] + proc.stderr[-2000:]
    assert proc.returncode == 0, tail
    summary = proc.stdout.strip().splitlines()[-1]
    assert ' collected' in summary and 'error' not in summary, summary
    collected = int(summary.split()[0])
    assert collected > 1000, summary
    # every ros test module is skipped at collection, with its reason
    assert 'rclpy does not import' in proc.stdout, tail
