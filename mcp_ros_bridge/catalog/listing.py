"""
The ``tools/list`` entry of a tool as JSON, and the size of the whole list.

One definition serves the server (what clients receive) and the linter (the
size budget), so the budget measures exactly what every conversation pays.
The entry carries only what hosts use: no annotation that repeats the title, no
hint that is false where false is also the MCP default (readOnlyHint, idempotentHint:
a host reads the absent hint the same way, whether it applies the spec's default or
treats absent as false), and ``_meta`` only for tools that need the user's approval.
destructiveHint true and openWorldHint true stay although they are the spec's
defaults: hosts that test ``hint === true`` (VS Code does for openWorldHint) would
read their absence as false.

Every parameter keeps its description in every tool: a host shows each tool's schema on its
own, so a parameter said "once, in another tool" is a parameter the model must guess. A
result (or a result field) equal to an earlier tool's is named, not repeated (results go
to the host, not the model). Inside one result
schema a repeated shape is defined once in ``$defs`` (``schema_defs``); inputSchema has
none, as it goes to the model providers' function-calling schemas as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
import json
from typing import Any

from mcp_ros_bridge.catalog.loader import ToolSpec
from mcp_ros_bridge.catalog.schema_defs import with_defs
from mcp_ros_bridge.messages import Said, speaking, t

APPROVAL_META_KEY = 'io.github.mcp_ros_bridge/requires_approval'
# The MCP spec's value of each hint when a tool leaves it out (ToolAnnotations, 2025-11-25).
HINT_DEFAULTS = {'readOnlyHint': False, 'destructiveHint': True, 'idempotentHint': False,
                 'openWorldHint': True}
OMITTED_WHEN_FALSE = frozenset(k for k, v in HINT_DEFAULTS.items() if v is False)


def tool_entry(spec: ToolSpec) -> dict[str, Any]:
    """Return the JSON object ``tools/list`` sends for ``spec`` (camelCase keys)."""
    a = spec.annotations
    annotations = {k: a[k] for k in HINT_DEFAULTS
                   if a.get(k) is not None and not (k in OMITTED_WHEN_FALSE and not a[k])}
    if a.get('title') and a['title'] != spec.title:
        annotations = {'title': a['title']} | annotations
    entry: dict[str, Any] = {
        'name': spec.name, 'title': spec.title, 'description': spec.description,
        'inputSchema': spec.input_schema, 'outputSchema': _localized(spec.output_schema)}
    if annotations:
        entry['annotations'] = annotations
    if spec.requires_approval:
        entry['_meta'] = {APPROVAL_META_KEY: True}
    return entry


def _localized(value: Any) -> Any:
    """Return ``value`` with each table text (``Said``) in the current language."""
    if isinstance(value, Said):
        return value.localized()
    if isinstance(value, dict):
        return {k: _localized(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_localized(v) for v in value]
    return value


def list_json(entries: list[dict[str, Any]]) -> str:
    """Return the compact ``{"tools": [...]}`` JSON of ``entries``."""
    return json.dumps({'tools': entries}, separators=(',', ':'), ensure_ascii=False)


def list_bytes(entries: list[dict[str, Any]]) -> int:
    """Return the UTF-8 size of the compact ``{"tools": [...]}`` JSON."""
    return len(list_json(entries).encode('utf-8'))


# What hosts hand the model of each tool: the OpenAI Agents SDK (mcp/util.py) and VS Code
# (mcpLanguageModelToolContribution.ts) pass name, description and inputSchema; the title is
# counted too (a host may show it to the model). Annotations, outputSchema and _meta go to
# the host only.
MODEL_KEYS = ('name', 'title', 'description', 'inputSchema')


def model_visible(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return the part of each entry a model reads (``MODEL_KEYS``)."""
    return [{k: e[k] for k in MODEL_KEYS if k in e} for e in entries]


BIG_FIELD = 120  # a result field this long (JSON characters) is named when repeated


def tool_entries(specs: Sequence[ToolSpec], lang: str = 'en') -> list[dict[str, Any]]:
    """Return the ``tools/list`` entries of ``specs``, each shared result said once."""
    results: dict[str, str] = {}  # whole result schema -> first tool
    fields: dict[tuple[str, str], str] = {}  # (field, schema) -> first tool
    entries = []
    with speaking(lang):
        for spec in specs:
            entry = tool_entry(spec)
            entry['outputSchema'] = with_defs(_shared_result(spec.name, entry['outputSchema'],
                                                             results, fields))
            entries.append(entry)
    return entries


def _shared_result(tool: str, schema: dict[str, Any], results: dict[str, str],
                   fields: dict[tuple[str, str], str]) -> dict[str, Any]:
    whole = json.dumps(schema, sort_keys=True)
    if whole in results:
        return {'type': 'object', 'required': schema.get('required', []),
                'description': t('list_same_result', tool=results[whole])}
    results[whole] = tool
    props = dict(schema.get('properties') or {})
    for name, sub in props.items():
        body = json.dumps(sub, sort_keys=True)
        if len(body) < BIG_FIELD:
            continue
        first = fields.setdefault((name, body), tool)
        if first != tool:
            props[name] = {'type': sub.get('type', 'object'),
                           'description': t('list_same_field', tool=first, field=name)}
    return schema | {'properties': props} if props else schema
