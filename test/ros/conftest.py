"""Fixtures of the ros layer."""

import pytest
import ros_support


@pytest.fixture
def peer():
    """Return a started peer node (publishers, servers); close it after the test."""
    node = ros_support.Peer()
    yield node
    node.close()


@pytest.fixture
async def rig():
    """Return (backend, fake move_group, sensor publisher, peer) with the shipped config."""
    import moveit_rig  # needs the generated moveit_msgs: only tests that use the rig import it
    async with moveit_rig.rigged() as parts:
        yield parts
