"""
Fill a JSON Schema's ``default`` values into data: the one place defaults are applied.

An absent object whose every field has a default (and none is required) is
filled as ``{}`` with those defaults: the schema need not repeat them as the
object's own ``default``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def fill_defaults(schema: Mapping[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """Return a copy of ``data`` with the schema's defaults filled in, recursively."""
    out: dict[str, Any] = json_copy(data)
    _fill(schema, out)
    return out


def all_defaulted(schema: Mapping[str, Any]) -> bool:
    """Return True for an object schema whose fields all have defaults and none is required."""
    props = schema.get('properties')
    return (isinstance(props, Mapping) and bool(props) and not schema.get('required')
            and all(isinstance(s, Mapping) and 'default' in s for s in props.values()))


def json_copy(value: Any) -> Any:
    """Return a deep copy of JSON data (dicts, lists, scalars), faster than ``deepcopy``."""
    if isinstance(value, dict):
        return {k: json_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_copy(v) for v in value]
    return value


def _fill(schema: Mapping[str, Any], value: Any) -> None:
    if isinstance(value, dict):
        props = schema.get('properties', {})
        for name, sub in props.items():
            if not isinstance(sub, Mapping):
                continue
            if name not in value and 'default' in sub:
                value[name] = json_copy(sub['default'])
            elif name not in value and all_defaulted(sub):
                value[name] = {}
            if name in value:
                _fill(sub, value[name])
        other = schema.get('additionalProperties')
        if isinstance(other, Mapping):  # a map: every other entry has this schema
            for name in value.keys() - props.keys():
                _fill(other, value[name])
    elif isinstance(value, list):
        items = schema.get('items')
        if isinstance(items, Mapping):
            for v in value:
                _fill(items, v)
