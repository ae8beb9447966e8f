"""Real robot descriptions from the PyPI package ``example-robot-data`` (test data only)."""

from __future__ import annotations

import os
import sys
import sysconfig

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'contract'))  # the contract kits
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'ros'))  # the ROS kits (ros_support)

# (name, URDF, SRDF or '', joint count) under share/example-robot-data/robots
ARMS = (
    ('panda', 'panda_description/urdf/panda.urdf', 'panda_description/srdf/panda.srdf', 7),
    ('ur5', 'ur_description/urdf/ur5_robot.urdf', 'ur_description/srdf/ur5.srdf', 6),
    ('ur10', 'ur_description/urdf/ur10_robot.urdf', '', 6),
    ('kinova', 'kinova_description/robots/kinova.urdf', 'kinova_description/srdf/kinova.srdf', 6),
    ('xarm7', 'xarm_description/urdf/xarm7.urdf', 'xarm_description/srdf/xarm7.srdf', 7),
    ('z1', 'z1_description/urdf/z1.urdf', 'z1_description/srdf/z1.srdf', 6),
)


def robots_dir() -> str:
    """Return the package's robots directory; skip (fail under CI) where it is not installed."""
    for scheme in ('purelib', 'platlib'):
        path = os.path.join(sysconfig.get_paths()[scheme], 'cmeel.prefix', 'share',
                            'example-robot-data', 'robots')
        if os.path.isdir(path):
            return path
    reason = 'example-robot-data is not installed (pip install -e ".[test]")'
    if os.environ.get('CI'):
        pytest.fail(reason)
    pytest.skip(reason)


def arm_files(name: str) -> tuple[str, str, int]:
    """Return the URDF path, the SRDF path ('' when none) and the joint count of arm ``name``."""
    base = robots_dir()
    _, urdf, srdf, count = next(a for a in ARMS if a[0] == name)
    return os.path.join(base, urdf), os.path.join(base, srdf) if srdf else '', count


def assert_published_bounds(item: dict, lower: float, upper: float) -> None:
    """Check a published joint bound: the limit less the margin, rounded inward (< 0.1 mrad/mm)."""
    assert lower - 1e-9 <= item['minimum'] < lower + 1e-4, (item, lower)
    assert upper - 1e-4 < item['maximum'] <= upper + 1e-9, (item, upper)
