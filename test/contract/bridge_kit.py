"""Shared helpers of the contract tests: build a bridge on the recording double."""

from __future__ import annotations

import json
import os
import re
import shutil
from typing import Any

import anyio
from anyio.abc import TaskGroup
from doubles import RecordingBackend
from mcp import Client
from mcp_ros_bridge.capabilities import KINDS
from mcp_ros_bridge.catalog.loader import load_catalog
from mcp_ros_bridge.contract.results import error_block
from mcp_ros_bridge.server.audit import AuditLog
from mcp_ros_bridge.server.bridge import BridgeServer
from mcp_ros_bridge.server.calls import CallSettings
import mcp_types as types

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CONFIG_DIR = os.path.join(REPO, 'config')
MODES = ('legacy', '2026-07-28')
POSE_ARGS = {'position': {'x': 0.5, 'y': 0.0, 'z': 0.3}}
HOME = [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785]
_EXAMPLE = re.compile(r'^Valid example: ([a-z_][a-z0-9_]*)\((.*)\)$', re.MULTILINE)


def make_bridge(config_dir: str = CONFIG_DIR, settings: CallSettings | None = None,
                audit_path: str | None = None,
                backend: RecordingBackend | None = None
                ) -> tuple[BridgeServer, RecordingBackend]:
    """Build the server exactly as ``serve`` does, on a recording backend."""
    backend = backend or RecordingBackend()
    bridge = BridgeServer(load_catalog(config_dir, kinds=KINDS), backend,
                          settings or CallSettings(motion_rate_per_s=1000.0, motion_burst=1000),
                          AuditLog(audit_path))
    return bridge, backend


def text_of(result: types.CallToolResult) -> str:
    """Join the text blocks of a result."""
    return '\n'.join(c.text for c in result.content if isinstance(c, types.TextContent))


def error_code(result: types.CallToolResult) -> str | None:
    """Return the machine-readable error code of an isError result."""
    return error_block(result).get('code')


def parse_example(text: str) -> tuple[str, dict[str, Any]]:
    """Extract the tool name and arguments of the ``Valid example:`` line."""
    m = _EXAMPLE.search(text)
    assert m, f'no "Valid example:" line in:\n{text}'
    args = json.loads(m.group(2))
    assert isinstance(args, dict)
    return m.group(1), args


def copy_config(dst: str, edit: dict[str, str] | None = None) -> str:
    """Copy the shipped config to ``dst``, applying ``{old: new}`` text edits to tools.yaml."""
    shutil.copytree(CONFIG_DIR, dst, dirs_exist_ok=True)
    path = os.path.join(dst, 'tools.yaml')
    with open(path, encoding='utf-8') as f:
        text = f.read()
    for old, new in (edit or {}).items():
        assert text.count(old) == 1, f'edit anchor {old!r} is not unique in tools.yaml'
        text = text.replace(old, new)
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)
    return dst


APPROVAL_EDIT = {
    '    kind: move_to_pose\n': '    kind: move_to_pose\n    requires_approval: true\n'}


class BackgroundCalls:
    """tools/call requests started in a task group; their results are kept by label."""

    def __init__(self, tg: TaskGroup, client: Client) -> None:
        """Start calls in ``tg`` through ``client``."""
        self.tg = tg
        self.client = client
        self.results: dict[str, types.CallToolResult] = {}

    def start(self, label: str, tool: str, args: dict[str, Any],
              scope: anyio.CancelScope | None = None) -> None:
        """Call ``tool`` in the background; ``scope``, when given, can cancel the request."""
        async def call() -> None:
            with scope or anyio.CancelScope():
                self.results[label] = await self.client.call_tool(tool, args)

        self.tg.start_soon(call)
