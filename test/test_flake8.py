"""Code style: ament_flake8 over the package, tests, launch files and benchmarks."""

import os
import subprocess
import sys

import pytest

pytest.importorskip('ament_flake8.main', reason='ament_flake8 is not installed')
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Our sources only: not colcon's build/ and install/ copies of them, nor a venv.
SOURCES = ['mcp_ros_bridge', 'test', 'launch', 'bench', 'setup.py']


@pytest.mark.flake8
@pytest.mark.linter
@pytest.mark.lint
def test_flake8():
    # A fresh interpreter: flake8 forks workers, and forking this test process (which may
    # hold rclpy and MuJoCo threads from other tests) is not safe.
    proc = subprocess.run([sys.executable, '-m', 'ament_flake8.main', *SOURCES], cwd=REPO,
                          check=False, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f'ament_flake8 found problems:\n{proc.stdout}{proc.stderr}'
