"""Shared pytest fixtures: the anyio backend, the shipped config directory, a sim bridge."""

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


@pytest.fixture
async def sim_bridge():
    """Serve the shipped catalog on a fast simulation (sim tests only: it needs mujoco)."""
    from mcp_ros_bridge.server.app import build, ServeOptions
    bridge, backend = await build(ServeOptions(sim_speed=0, watch=False))
    try:
        yield bridge
    finally:
        await backend.close()
