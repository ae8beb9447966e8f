"""Docstring style: ament_pep257 over the package, tests, launch files and benchmarks."""

import os

import pytest

ament_pep257 = pytest.importorskip('ament_pep257.main', reason='ament_pep257 is not installed')
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Our sources only: not colcon's build/ and install/ copies of them, nor a venv.
SOURCES = [os.path.join(REPO, p) for p in ('mcp_ros_bridge', 'test', 'launch', 'bench',
                                           'setup.py')]


@pytest.mark.linter
@pytest.mark.pep257
@pytest.mark.lint
def test_pep257():
    rc = ament_pep257.main(argv=SOURCES)
    assert rc == 0, 'Found code style errors / warnings'
