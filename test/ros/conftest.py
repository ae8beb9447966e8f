"""Fixtures of the ros layer."""

import pytest
import ros_support


@pytest.fixture
def peer():
    """Return a started peer node (publishers, servers); close it after the test."""
    node = ros_support.Peer()
    yield node
    node.close()
