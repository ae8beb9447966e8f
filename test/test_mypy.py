"""Types: mypy --strict over the package (configuration in mypy.ini)."""

import os
import subprocess
import sys

import pytest

pytest.importorskip('mypy', reason='mypy is not installed (pip install -e ".[test]")')
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.linter
@pytest.mark.lint
def test_mypy_strict():
    proc = subprocess.run([sys.executable, '-m', 'mypy', '--config-file', 'mypy.ini'],
                          cwd=REPO, check=False, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, f'mypy found problems:\n{proc.stdout}{proc.stderr}'
