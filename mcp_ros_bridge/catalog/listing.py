"""
The ``tools/list`` entry of a tool as JSON, and the size of the whole list.

One definition serves the server (what clients receive) and the linter (the
size budget), so the budget measures exactly what every conversation pays.
The entry carries only what hosts use: no annotation that repeats the title,
and ``_meta`` only for tools that need the user's approval.
"""

from __future__ import annotations

import json
from typing import Any

from mcp_ros_bridge.catalog.loader import ToolSpec

APPROVAL_META_KEY = 'io.github.mcp_ros_bridge/requires_approval'
HINTS = ('readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint')


def tool_entry(spec: ToolSpec) -> dict[str, Any]:
    """Return the JSON object ``tools/list`` sends for ``spec`` (camelCase keys)."""
    a = spec.annotations
    annotations = {k: a[k] for k in HINTS if a.get(k) is not None}
    if a.get('title') and a['title'] != spec.title:
        annotations = {'title': a['title']} | annotations
    entry: dict[str, Any] = {
        'name': spec.name, 'title': spec.title, 'description': spec.description,
        'inputSchema': spec.input_schema, 'outputSchema': spec.output_schema,
        'annotations': annotations}
    if spec.requires_approval:
        entry['_meta'] = {APPROVAL_META_KEY: True}
    return entry


def list_bytes(entries: list[dict[str, Any]]) -> int:
    """Return the UTF-8 size of the compact ``{"tools": [...]}`` JSON."""
    return len(json.dumps({'tools': entries}, separators=(',', ':'),
                          ensure_ascii=False).encode('utf-8'))
