"""
Lint rules for what every host accepts: portable schemas and a small tool list.

Boolean subschemas (``items: false``) are valid JSON Schema but many clients'
schema dialects reject them (the MCP Inspector's ``--strict`` check exits 6);
``additionalProperties: false`` and its siblings are the accepted exception.
The whole compact ``tools/list`` must fit ``MAX_LIST_BYTES`` in each language
(one is served): it is sent into every conversation.
"""

from __future__ import annotations

from typing import Any

from mcp_ros_bridge.catalog.lint_model import MAX_LIST_BYTES, Report, walk
from mcp_ros_bridge.catalog.listing import list_bytes

_ONE = ('items', 'contains', 'not', 'if', 'then', 'else', 'propertyNames', 'contentSchema')
_MAP = ('properties', 'patternProperties', '$defs', 'dependentSchemas')
_LIST = ('allOf', 'anyOf', 'oneOf', 'prefixItems')


def _boolean_subschemas(s: dict[str, Any]) -> list[tuple[Any, ...]]:
    found: list[tuple[Any, ...]] = [(k,) for k in _ONE if isinstance(s.get(k), bool)]
    for k in _MAP:
        m = s.get(k)
        if isinstance(m, dict):
            found += [(k, n) for n, sub in m.items() if isinstance(sub, bool)]
    for k in _LIST:
        seq = s.get(k)
        if isinstance(seq, list):
            found += [(k, j) for j, sub in enumerate(seq) if isinstance(sub, bool)]
    return found


def check_portable(report: Report, i: int, name: str, schema: dict[str, Any]) -> None:
    """Refuse boolean subschemas; warn on type arrays (single-type dialects drop them)."""
    base = ('tools', i)
    for node in walk(schema):
        for rel in _boolean_subschemas(node.schema):
            value = node.schema[rel[0]] if len(rel) == 1 else node.schema[rel[0]][rel[1]]
            fix = ('drop it and bound the array with maxItems' if rel == ('items',) and
                   value is False else 'write the object form: {not: {}} for false, a typed '
                   'schema for true')
            report.add('portable-schema', name, base, node.path + rel,
                       f'bare {str(value).lower()} used where a schema object is expected; '
                       'some clients reject the whole tool', fix)
        if isinstance(node.schema.get('type'), list):
            report.add('portable-type', name, base, node.path + ('type',),
                       'type is a list; clients with single-type schema dialects reject it',
                       'split it into anyOf branches with one type each')


def check_list_size(report: Report, entries: list[dict[str, Any]], lang: str) -> int:
    """Refuse a tools/list in ``lang`` larger than the budget; return its size in bytes."""
    size = list_bytes(entries)
    if size > MAX_LIST_BYTES:
        report.add('list-budget', '', (), ('tools',),
                   f'the {lang} tools/list of {len(entries)} tools is {size} bytes; the budget is '
                   f'{MAX_LIST_BYTES}', 'shorten descriptions, merge similar tools, or split '
                   'the catalog per task')
    return size
