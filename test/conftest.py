"""Shared pytest fixtures: the anyio backend and the shipped config directory."""

from paths import CONFIG_DIR
import pytest


@pytest.fixture
def anyio_backend():
    """Run async tests on asyncio (rclpy bridging and the SDK assume it)."""
    return 'asyncio'


@pytest.fixture
def config_dir():
    """Return the shipped ``config/`` directory."""
    return CONFIG_DIR
