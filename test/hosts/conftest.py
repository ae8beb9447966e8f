"""
The hosts layer: external MCP clients (Node) against the real server.

Skips with the reason where the npm packages or Node 22 are absent, except in CI
(``CI=true``), where an absent client is a failure.
"""

from __future__ import annotations

import os

import node_env
import pytest


@pytest.fixture(scope='session')
def node() -> str:
    """Return the Node 22 executable (skip, or fail under CI, when it is missing)."""
    reason = node_env.missing()
    if reason is not None:
        if os.environ.get('CI', '').lower() in ('1', 'true', 'yes'):
            pytest.fail(f'hosts layer cannot run in CI: {reason}')
        pytest.skip(reason)
    return node_env.node() or ''
