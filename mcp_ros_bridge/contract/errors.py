"""
Agent-readable error texts: which field, what was wrong, what is allowed, an example.

Every fixable error ends with a valid example call and what a corrected call
returns, so a model can repair its call in one step.
"""

from __future__ import annotations

from dataclasses import replace
import json
import re
from typing import Any

from mcp_ros_bridge.contract.validation import ArgumentValidator, field_name, Problem

_UNIT = re.compile(r'\(([^()]{1,8})\)')
_NUMBER_WITH_UNIT = re.compile(r'^\s*([-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)\s*([A-Za-z%°/]*)\s*$')


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return 'a boolean'
    if isinstance(value, (int, float)):
        return 'a number'
    if isinstance(value, str):
        return 'a string'
    if isinstance(value, list):
        return 'an array'
    if isinstance(value, dict):
        return 'an object'
    return 'null' if value is None else type(value).__name__


def unit_of(schema: dict[str, Any]) -> str:
    """Return the unit a parameter's description states, e.g. ``N`` for ``(N)``."""
    m = _UNIT.search(str(schema.get('description', '')))
    return m.group(1) if m else ''


def allowed(schema: dict[str, Any]) -> str:
    """Describe what a (sub)schema allows, in words."""
    if 'enum' in schema:
        return 'one of ' + ', '.join(json.dumps(v) for v in schema['enum'])
    if 'const' in schema:
        return f"exactly {json.dumps(schema['const'])}"
    parts = []
    t = schema.get('type')
    if t:
        parts.append(('an ' if t in ('integer', 'array', 'object') else 'a ') + t
                     if isinstance(t, str) else ' or '.join(t))
    lo = schema.get('minimum', schema.get('exclusiveMinimum'))
    hi = schema.get('maximum', schema.get('exclusiveMaximum'))
    if lo is not None or hi is not None:
        left = '(' if 'exclusiveMinimum' in schema else '['
        right = ')' if 'exclusiveMaximum' in schema else ']'
        lo_s = '-inf' if lo is None else json.dumps(lo)
        hi_s = 'inf' if hi is None else json.dumps(hi)
        parts.append(f'in {left}{lo_s}, {hi_s}{right}')
    unit = unit_of(schema)
    if unit and unit not in ('1', 'count'):
        parts.append(f'({unit})')
    for key, word in (('minItems', 'at least {} items'), ('maxItems', 'at most {} items'),
                      ('minLength', 'at least {} characters'),
                      ('maxLength', 'at most {} characters'), ('pattern', 'matching {}')):
        if key in schema:
            parts.append(word.format(schema[key]))
    items = schema.get('items')
    if isinstance(items, dict) and 'enum' in items:
        parts.append('each ' + allowed(items))
    if schema.get('uniqueItems'):
        parts.append('with no repeated items')
    if schema.get('type') == 'object' and 'properties' in schema:
        parts.append('with keys ' + ', '.join(schema['properties']))
    return ' '.join(parts) or 'a value matching the schema'


def subschema(schema: dict[str, Any], path: tuple[Any, ...]) -> dict[str, Any] | None:
    """Return the (sub)schema that governs ``path`` inside ``schema``, or None."""
    cur: Any = schema
    for part in path:
        if isinstance(part, str):
            cur = cur.get('properties', {}).get(part)
        else:
            prefix = cur.get('prefixItems')
            cur = prefix[part] if isinstance(prefix, list) and part < len(prefix) \
                else cur.get('items')
        if not isinstance(cur, dict):
            return None
    return cur if isinstance(cur, dict) else None


def _governing(path: tuple[Any, ...], schema: dict[str, Any]
               ) -> tuple[tuple[Any, ...], dict[str, Any] | None]:
    # The longest prefix of ``path`` the tool schema describes (for checks made before it).
    for n in range(len(path), -1, -1):
        sub = subschema(schema, path[:n])
        if sub is not None:
            return path[:n], sub
    return (), None


def _what_was_wrong(p: Problem, tool_schema: dict[str, Any]) -> str:
    v = p.validator
    name = field_name(p.path)
    if not p.schema:
        # Found by the pre-scan (non-finite, too deep, too long): say what is allowed there.
        where, sub = _governing(p.path, tool_schema)
        if sub is not None and v == 'maxLength' and where == p.path:
            p = replace(p, schema=sub)
        elif sub is not None:
            return f'{name}: {p.message}. {field_name(where)} must be {allowed(sub)}.'
    if v == 'type':
        got = _json_type(p.instance)
        hint = ''
        if p.instance is None and p.schema.get('type') in ('number', 'integer'):
            hint = ' NaN and infinities arrive as null in JSON; send a finite number.'
        m = _NUMBER_WITH_UNIT.match(p.instance) if isinstance(p.instance, str) else None
        if m and p.schema.get('type') in ('number', 'integer'):
            unit = unit_of(p.schema)
            meaning = ('it is a plain ratio without unit' if unit == '1' else
                       f'the unit is {unit}' if unit and unit != 'count' else
                       'the unit is fixed by the tool')
            hint = f' Send the bare JSON number {m.group(1)} (no quotes, no unit); {meaning}.'
        elif isinstance(p.instance, bool) and p.schema.get('type') in ('number', 'integer'):
            hint = ' Booleans are not numbers here.'
        shown = '' if p.instance is None else ' ' + json.dumps(p.instance)[:80]
        return f'{name} must be {allowed(p.schema)}, got {got}{shown}.{hint}'
    if v == 'additionalProperties':
        known = ', '.join(p.schema.get('properties', {})) or 'none'
        return f'{name}: {p.message}. Allowed keys: {known}.'
    if v == 'required':
        props = p.schema.get('properties', {})
        missing = [r for r in p.schema.get('required', [])
                   if isinstance(p.instance, dict) and r not in p.instance and r in props]
        need = ''.join(f' {field_name(p.path + (r,))} must be {allowed(props[r])}.'
                       for r in missing)
        return f'{name}: {p.message}.{need}'
    if v in ('finite', 'depth'):
        return f'{name}: {p.message}.'
    if v in ('minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'enum', 'const',
             'minItems', 'maxItems', 'minLength', 'maxLength', 'pattern', 'uniqueItems'):
        shown = json.dumps(p.instance)
        if len(shown) > 80:
            shown = shown[:80] + '...'
        return f'{name} is {shown}, but it must be {allowed(p.schema)}.'
    return f'{name}: {p.message}.'


def example_args(schema: dict[str, Any]) -> dict[str, Any]:
    """Build a small valid argument object: required fields only, from examples or bounds."""
    return {name: example_value(schema['properties'][name])
            for name in schema.get('required', []) if name in schema.get('properties', {})}


def example_value(schema: dict[str, Any]) -> Any:
    """Return a plausible valid value for a (sub)schema."""
    if schema.get('examples'):
        return schema['examples'][0]
    if 'default' in schema:
        return schema['default']
    if 'enum' in schema:
        return schema['enum'][0]
    t = schema.get('type')
    if t in ('number', 'integer'):
        lo = schema.get('minimum', schema.get('exclusiveMinimum', 0))
        hi = schema.get('maximum', schema.get('exclusiveMaximum', lo + 1))
        mid = (lo + hi) / 2
        return int(mid) if t == 'integer' else round(mid, 3)
    if t == 'object':
        return example_args(schema)
    if t == 'array':
        if 'prefixItems' in schema:
            return [example_value(s) for s in schema['prefixItems']]
        n = max(1, schema.get('minItems', 1))
        return [example_value(schema.get('items', {}))] * n
    if t == 'boolean':
        return True
    if t == 'string':
        return 'example'
    return None


def validation_error_text(tool: str, problems: list[Problem], validator: ArgumentValidator,
                          returns: str) -> str:
    """Compose the isError text for invalid arguments (the tool's compiled validator)."""
    schema = validator.schema
    lines = [f'Invalid arguments for {tool}; nothing was executed.']
    lines += [f'- {_what_was_wrong(p, schema)}' for p in problems[:5]]
    example = example_args(schema)
    props = schema.get('properties', {})
    for p in problems:
        top = p.path[0] if p.path else None
        if isinstance(top, str) and top in props and top not in example:
            example[top] = example_value(props[top])
    if validator.problems(example):
        example = example_args(schema)
    lines.append(f'Valid example: {tool}({json.dumps(example, separators=(", ", ": "))})')
    if returns:
        lines.append(f'A corrected call returns {returns}.')
    return '\n'.join(lines)


def not_an_object_text(tool: str, args: Any) -> str:
    """Explain that arguments must be a JSON object."""
    return (f'Invalid arguments for {tool}: arguments must be a JSON object, got '
            f'{_json_type(args)}; nothing was executed.')
