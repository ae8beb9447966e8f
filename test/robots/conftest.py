"""Fixtures of the robots layer: a config directory written by ``init`` for a real arm."""

from __future__ import annotations

import pytest
from robot_data import arm_files, ARMS


@pytest.fixture(params=[a[0] for a in ARMS])
def arm(request: pytest.FixtureRequest) -> str:
    """Run the test once per real arm description."""
    return request.param


@pytest.fixture
def arm_config(arm: str, tmp_path) -> tuple[str, str, int]:
    """Return (config dir written by mcp-ros-bridge init, arm name, joint count)."""
    from mcp_ros_bridge.catalog.init_config import write_config
    urdf, srdf, count = arm_files(arm)
    out = str(tmp_path / arm)
    write_config(out, urdf, srdf)
    return out, arm, count
