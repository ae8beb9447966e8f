"""
The one SDK internal the server relies on: the connection behind a request's session.

The low-level SDK context has no public accessor for it, so ``client_connection``
reads a private attribute. These tests fail if an SDK release changes that, instead of
list_changed delivery and per-connection keys silently degrading.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import anyio
from doubles import RecordingBackend
from mcp import Client
from mcp_ros_bridge.capabilities import KINDS
from mcp_ros_bridge.catalog.loader import load_catalog
from mcp_ros_bridge.server.audit import AuditLog
from mcp_ros_bridge.server.bridge import BridgeServer
from mcp_ros_bridge.server.calls import CallSettings
from mcp_ros_bridge.server.identity import client_connection, session_scope
from paths import CONFIG_DIR
import pytest

pytestmark = [pytest.mark.contract, pytest.mark.anyio]


class ObservedBridge(BridgeServer):
    """Signals when a session is registered and when the registry empties again."""

    def __init__(self) -> None:
        """Build the bridge on the recording double and watch its session registry."""
        super().__init__(load_catalog(CONFIG_DIR, kinds=KINDS), RecordingBackend(),
                         CallSettings(), AuditLog(None))
        self.registered = anyio.Event()
        self.emptied = anyio.Event()
        bridge = self

        class Sessions(set[Any]):
            def discard(self, item: Any) -> None:
                super().discard(item)
                if not self:
                    bridge.emptied.set()

        self._sessions = Sessions()

    async def _initialized(self, ctx: Any, params: Any) -> None:
        await super()._initialized(ctx, params)
        self.registered.set()


async def test_a_legacy_session_is_registered_and_pruned_when_its_connection_ends():
    bridge = ObservedBridge()
    with anyio.fail_after(20):
        async with Client(bridge.server, mode='legacy') as client:
            await bridge.registered.wait()
            assert len(bridge._sessions) == 1
            await client.list_tools()
        await bridge.emptied.wait()
    assert not bridge._sessions


def test_client_connection_fails_loudly_without_the_sdk_attribute():
    ctx: Any = SimpleNamespace(session=SimpleNamespace(), request=None,
                               protocol_version='2025-11-25')
    with pytest.raises(AttributeError):
        client_connection(ctx)
    with pytest.raises(AttributeError):
        session_scope(ctx)
