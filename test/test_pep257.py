"""Docstring style: ament_pep257 over the package, tests, launch files and benchmarks."""

import pytest

ament_pep257 = pytest.importorskip('ament_pep257.main', reason='ament_pep257 is not installed')


@pytest.mark.linter
@pytest.mark.pep257
@pytest.mark.lint
def test_pep257():
    rc = ament_pep257.main(argv=['.', 'test'])
    assert rc == 0, 'Found code style errors / warnings'
