"""Types: mypy --strict over the package (configuration in mypy.ini), with and without rclpy."""

import os
import subprocess
import sys

import pytest

pytest.importorskip('mypy', reason='mypy is not installed (pip install -e ".[test]")')
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROS_SECTION = '[mypy-rclpy.*,'  # mypy.ini's section of the untyped and optional imports


def _mypy(config: str, cache: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, '-m', 'mypy', '--config-file', config,
                           '--cache-dir', cache], cwd=REPO, check=False,
                          capture_output=True, text=True, timeout=900)


@pytest.mark.linter
@pytest.mark.lint
def test_mypy_strict(tmp_path):
    proc = _mypy('mypy.ini', str(tmp_path / 'cache'))
    assert proc.returncode == 0, f'mypy found problems:\n{proc.stdout}{proc.stderr}'


@pytest.mark.linter
@pytest.mark.lint
def test_mypy_strict_as_without_rclpy(tmp_path):
    """The package type-checks where rclpy is absent: every ROS import is then Any."""
    with open(os.path.join(REPO, 'mypy.ini'), encoding='utf-8') as f:
        lines = f.read().splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(ROS_SECTION))
    assert 'rclpy' in lines[at] and 'ament_index_python' in lines[at]
    lines[at + 1:at + 1] = ['follow_imports = skip', 'follow_imports_for_stubs = True']
    config = tmp_path / 'mypy_without_rclpy.ini'
    config.write_text('\n'.join(lines) + '\n', encoding='utf-8')
    proc = _mypy(str(config), str(tmp_path / 'cache'))
    assert proc.returncode == 0, f'mypy without rclpy found problems:\n{proc.stdout}{proc.stderr}'
