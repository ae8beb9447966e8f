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
from mcp_ros_bridge.messages import t

_UNIT = re.compile(r'\(([^()]{1,8})\)')
_NUMBER_WITH_UNIT = re.compile(r'^\s*([-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)\s*([A-Za-z%°/]*)\s*$')


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return t('json_boolean')
    if isinstance(value, (int, float)):
        return t('json_number')
    if isinstance(value, str):
        return t('json_string')
    if isinstance(value, list):
        return t('json_array')
    if isinstance(value, dict):
        return t('json_object')
    return 'null' if value is None else type(value).__name__


def unit_of(schema: dict[str, Any]) -> str:
    """Return the unit a parameter's description states, e.g. ``N`` for ``(N)``."""
    m = _UNIT.search(str(schema.get('description', '')))
    return m.group(1) if m else ''


def allowed(schema: dict[str, Any]) -> str:
    """Describe what a (sub)schema allows, in words."""
    if 'enum' in schema:
        return t('allowed_one_of', values=', '.join(json.dumps(v) for v in schema['enum']))
    if 'const' in schema:
        return t('allowed_exactly', value=json.dumps(schema['const']))
    parts = []
    kind = schema.get('type')
    if kind:
        parts.append(_type_words(kind) if isinstance(kind, str)
                     else t('allowed_types_or').join(kind))
    lo = schema.get('minimum', schema.get('exclusiveMinimum'))
    hi = schema.get('maximum', schema.get('exclusiveMaximum'))
    if lo is not None or hi is not None:
        left = '(' if 'exclusiveMinimum' in schema else '['
        right = ')' if 'exclusiveMaximum' in schema else ']'
        lo_s = '-inf' if lo is None else json.dumps(lo)
        hi_s = 'inf' if hi is None else json.dumps(hi)
        parts.append(t('allowed_range', left=left, lo=lo_s, hi=hi_s, right=right))
    unit = unit_of(schema)
    if unit and unit not in ('1', 'count'):
        parts.append(t('allowed_unit', unit=unit))
    for key, word in (('minItems', 'allowed_min_items'), ('maxItems', 'allowed_max_items'),
                      ('minLength', 'allowed_min_length'), ('maxLength', 'allowed_max_length'),
                      ('pattern', 'allowed_pattern')):
        if key in schema:
            parts.append(t(word, n=schema[key]))
    items = schema.get('items')
    if isinstance(items, dict) and 'enum' in items:
        parts.append(t('allowed_each', allowed=allowed(items)))
    if schema.get('uniqueItems'):
        parts.append(t('allowed_unique'))
    if schema.get('type') == 'object' and 'properties' in schema:
        parts.append(t('allowed_keys', keys=', '.join(schema['properties'])))
    return t('allowed_join').join(parts) or t('allowed_anything')


def _type_words(kind: str) -> str:
    known = ('integer', 'number', 'string', 'boolean', 'array', 'object', 'null')
    return t('allowed_type_' + kind) if kind in known else kind


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
            return t('wrong_at', name=name, message=p.message, where=field_name(where),
                     allowed=allowed(sub))
    if v == 'type':
        got = _json_type(p.instance)
        hint = ''
        if p.instance is None and p.schema.get('type') in ('number', 'integer'):
            hint = t('hint_null_number')
        m = _NUMBER_WITH_UNIT.match(p.instance) if isinstance(p.instance, str) else None
        if m and p.schema.get('type') in ('number', 'integer'):
            unit = unit_of(p.schema)
            meaning = (t('unit_ratio') if unit == '1' else
                       t('unit_is', unit=unit) if unit and unit != 'count' else
                       t('unit_fixed'))
            hint = t('hint_bare_number', number=m.group(1), meaning=meaning)
        elif isinstance(p.instance, bool) and p.schema.get('type') in ('number', 'integer'):
            hint = t('hint_boolean_number')
        shown = '' if p.instance is None else ' ' + json.dumps(p.instance)[:80]
        return t('wrong_type', name=name, allowed=allowed(p.schema), got=got, shown=shown,
                 hint=hint)
    if v == 'additionalProperties':
        known = ', '.join(p.schema.get('properties', {})) or t('keys_none')
        return t('wrong_keys', name=name, message=p.message, known=known)
    if v == 'required':
        props = p.schema.get('properties', {})
        missing = [r for r in p.schema.get('required', [])
                   if isinstance(p.instance, dict) and r not in p.instance and r in props]
        need = ''.join(t('need_field', name=field_name(p.path + (r,)), allowed=allowed(props[r]))
                       for r in missing)
        return t('wrong_required', name=name, message=p.message, need=need)
    if v in ('finite', 'depth'):
        return t('wrong_plain', name=name, message=p.message)
    if v in ('minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'enum', 'const',
             'minItems', 'maxItems', 'minLength', 'maxLength', 'pattern', 'uniqueItems'):
        shown = json.dumps(p.instance)
        if len(shown) > 80:
            shown = shown[:80] + '...'
        return t('wrong_value', name=name, shown=shown, allowed=allowed(p.schema))
    return t('wrong_plain', name=name, message=p.message)


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
    kind = schema.get('type')
    if kind in ('number', 'integer'):
        lo = schema.get('minimum', schema.get('exclusiveMinimum', 0))
        hi = schema.get('maximum', schema.get('exclusiveMaximum', lo + 1))
        mid = (lo + hi) / 2
        return int(mid) if kind == 'integer' else round(mid, 3)
    if kind == 'object':
        return example_args(schema)
    if kind == 'array':
        if 'prefixItems' in schema:
            return [example_value(s) for s in schema['prefixItems']]
        n = max(1, schema.get('minItems', 1))
        return [example_value(schema.get('items', {}))] * n
    if kind == 'boolean':
        return True
    if kind == 'string':
        return 'example'
    return None


def validation_error_text(tool: str, problems: list[Problem], validator: ArgumentValidator,
                          returns: str) -> str:
    """Compose the isError text for invalid arguments (the tool's compiled validator)."""
    schema = validator.schema
    lines = [t('invalid_header', tool=tool)]
    lines += [f'- {_what_was_wrong(p, schema)}' for p in problems[:5]]
    example = example_args(schema)
    props = schema.get('properties', {})
    for p in problems:
        top = p.path[0] if p.path else None
        if isinstance(top, str) and top in props and top not in example:
            example[top] = example_value(props[top])
    if validator.problems(example):
        example = example_args(schema)
    lines.append(t('valid_example', tool=tool,
                   example=json.dumps(example, separators=(', ', ': '))))
    if returns:
        lines.append(t('corrected_returns', returns=returns))
    return '\n'.join(lines)


def not_an_object_text(tool: str, args: Any) -> str:
    """Explain that arguments must be a JSON object."""
    return t('not_an_object', tool=tool, got=_json_type(args))
