"""Shared pytest fixtures: the anyio backend and the shipped config directory."""

import os

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFIG_DIR = os.path.join(REPO, 'config')
SHARED_INTERFACES = os.path.join(os.path.dirname(REPO), 'shared', 'ros_interfaces')


@pytest.fixture
def anyio_backend():
    """Run async tests on asyncio (rclpy bridging and the SDK assume it)."""
    return 'asyncio'


@pytest.fixture
def config_dir():
    """Return the shipped ``config/`` directory."""
    return CONFIG_DIR
