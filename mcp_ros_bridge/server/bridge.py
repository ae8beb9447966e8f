"""
The MCP server: a low-level SDK ``Server`` whose tools come from the catalog.

Serves both protocol generations the SDK speaks. Catalog changes are announced
with ``notifications/tools/list_changed`` to handshake-era sessions and on the
subscriptions bus to 2026-07-28 listeners.
"""

from __future__ import annotations

from collections.abc import Sequence
import logging
from typing import Any

from mcp.server import ServerRequestContext
from mcp.server.lowlevel import NotificationOptions, Server
from mcp.server.request_state import RequestStateBoundary, RequestStateSecurity
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ToolsListChanged
from mcp_ros_bridge import __version__
from mcp_ros_bridge.backends.port import RobotBackend
from mcp_ros_bridge.catalog.listing import tool_entries, tool_entry
from mcp_ros_bridge.catalog.loader import Catalog, ToolSpec
from mcp_ros_bridge.catalog.placeholders import text_values
from mcp_ros_bridge.catalog.prompts import load_prompts
from mcp_ros_bridge.messages import t
from mcp_ros_bridge.server.audit import AuditLog
from mcp_ros_bridge.server.calls import CallPipeline, CallSettings
from mcp_ros_bridge.server.identity import client_connection
from mcp_ros_bridge.server.live_config import check_live, describe, robot_changes
from mcp_ros_bridge.server.resources import AgentResources
import mcp_types as types

log = logging.getLogger('mcp_ros_bridge.server')

INSTRUCTIONS = (
    'Tools for one robot arm with a parallel gripper and a wrist force/torque sensor. Units are '
    'SI unless a parameter says otherwise (m, rad, N, s; orientations in degrees). Poses are in '
    'the robot base frame. Only one motion runs at a time; read-only tools work meanwhile. '
    'stop_arm cancels motion goals; it is not an emergency stop. Look before moving: read '
    'poses and sensors first, approach from above, then grasp.')


def tool_model(spec: ToolSpec) -> types.Tool:
    """Render a ToolSpec as the MCP ``Tool`` that ``tools/list`` returns."""
    return types.Tool.model_validate(tool_entry(spec))


def tool_models(specs: Sequence[ToolSpec], lang: str = 'en') -> list[types.Tool]:
    """Render the whole ``tools/list``: each shared definition said once (catalog.listing)."""
    return [types.Tool.model_validate(e) for e in tool_entries(specs, lang)]


class _BridgeSdkServer(Server):
    """Advertises ``tools.listChanged`` by default, whatever transport starts it."""

    def create_initialization_options(self, notification_options: Any = None,
                                      *args: Any, **kwargs: Any) -> Any:
        return super().create_initialization_options(
            notification_options or NotificationOptions(tools_changed=True), *args, **kwargs)


class BridgeServer:
    """Owns the catalog, the call pipeline and client notification channels."""

    def __init__(self, catalog: Catalog, backend: RobotBackend,
                 settings: CallSettings | None = None, audit: AuditLog | None = None,
                 lang: str = 'en') -> None:
        """Build the SDK server for ``catalog`` on ``backend``; prompts in ``lang``."""
        self.backend = backend
        self.lang = lang
        self.catalog = catalog.for_backend(backend.info.name)
        self.pipeline = CallPipeline(backend, self.catalog, settings or CallSettings(),
                                     audit or AuditLog(None))
        self.bus = InMemorySubscriptionBus()
        self.listen = ListenHandler(self.bus)
        self._sessions: set[Any] = set()
        prompts = load_prompts(catalog.config_dir, lang, text_values(catalog.robot))
        extras = self.resources = AgentResources(lambda: self.catalog, prompts)
        self.server = _BridgeSdkServer(
            'mcp_ros_bridge', version=__version__, title='MCP ROS bridge',
            instructions=INSTRUCTIONS, on_list_tools=self._list_tools,
            on_call_tool=self.pipeline.call, on_subscriptions_listen=self.listen,
            on_list_resources=extras.list_resources, on_read_resource=extras.read_resource,
            on_list_prompts=extras.list_prompts, on_get_prompt=extras.get_prompt)
        self.server.add_notification_handler('notifications/initialized',
                                             types.NotificationParams, self._initialized)
        self.server.middleware.append(RequestStateBoundary(
            RequestStateSecurity.ephemeral(), default_audience=self.server.name))

    async def _list_tools(self, ctx: ServerRequestContext[Any, Any],
                          params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tool_models(self.catalog.tools, self.lang))

    async def _initialized(self, ctx: ServerRequestContext[Any, Any], params: Any) -> None:
        session = ctx.session
        self._sessions.add(session)
        client_connection(ctx).exit_stack.callback(self._sessions.discard, session)

    async def install_catalog(self, catalog: Catalog) -> bool:
        """
        Install a reloaded catalog: everything it changes at once, between motions, or nothing.

        A robot.yaml change waits until no motion runs, then the catalog, the
        envelope, the backend's settings and derived state change together and
        the log says what changed; clients hear list_changed when the tools
        changed. Raises :class:`ReloadRefused` (nothing applied) for a setting
        that cannot change live. Returns whether anything changed.
        """
        catalog = catalog.for_backend(self.backend.info.name)
        if catalog.robot_hash != self.catalog.robot_hash:
            check_live(robot_changes(self.catalog.robot, catalog.robot))
            await self._between_motions()
        changes = robot_changes(self.catalog.robot, catalog.robot)
        tools_changed = catalog.content_hash != self.catalog.content_hash
        if not changes and not tools_changed:
            return False
        check_live(changes)
        self.catalog = catalog  # no await from here on: one step for every call
        self.pipeline.set_catalog(catalog)
        self.pipeline.audit.note('reload', config_digest=catalog.content_hash,
                                 robot_changes=[c[0] for c in changes])
        if changes:
            log.info('%s', t('reload_applied', changes=describe(changes)))
        if tools_changed:
            log.info('%s', t('reload_tools', hash=catalog.content_hash))
            await self._notify_tools_changed()
        return True

    async def _between_motions(self) -> None:
        arbiter = self.pipeline.arbiter
        while arbiter.running is not None:
            log.info('%s', t('reload_waits', tool=arbiter.running.tool))
            await arbiter.wait_idle(3600.0)

    async def _notify_tools_changed(self) -> None:
        await self.bus.publish(ToolsListChanged())
        for session in list(self._sessions):
            try:
                await session.send_tool_list_changed()
            except Exception:  # noqa: BLE001 - a gone client must not stop the others
                self._sessions.discard(session)

    def close(self) -> None:
        """End subscription streams."""
        self.listen.close()
