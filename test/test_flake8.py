"""Code style: ament_flake8 over the package, tests, launch files and benchmarks."""

import pytest

ament_flake8 = pytest.importorskip('ament_flake8.main', reason='ament_flake8 is not installed')


@pytest.mark.flake8
@pytest.mark.linter
@pytest.mark.lint
def test_flake8():
    rc, errors = ament_flake8.main_with_errors(argv=[])
    assert rc == 0, f'Found {len(errors)} code style errors / warnings:\n' + '\n'.join(errors)
