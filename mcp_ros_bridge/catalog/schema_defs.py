"""
A sub-schema that repeats inside one schema, said once: ``$defs`` and ``$ref``.

MCP lets a tool's schema use ``$defs``/``$ref`` within itself (a reference never
leaves the tool's own schema). ``with_defs`` moves each repeated sub-schema (e.g.
the x/y/z point of a contact and of the fingertip) into ``$defs`` when that makes the
schema shorter, and leaves every other schema as it was. The TypeScript SDK client
(ajv), the Python SDK client (jsonschema, local references only) and the Inspector's
``--strict`` check accept such references (test/hosts).
"""

from __future__ import annotations

from collections.abc import Iterator
import json
from typing import Any

MIN_BODY = 40  # a shorter sub-schema costs about as much as its reference


def _compact(schema: Any) -> str:
    return json.dumps(schema, separators=(',', ':'), sort_keys=True, ensure_ascii=False)


def _children(node: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Yield (name, sub-schema) of each value position of ``node``: properties, items..."""
    for name, sub in (node.get('properties') or {}).items():
        if isinstance(sub, dict):
            yield name, sub
    for key in ('items', 'additionalProperties'):
        if isinstance(node.get(key), dict):
            yield key, node[key]
    for i, sub in enumerate(node.get('prefixItems') or []):
        if isinstance(sub, dict):
            yield f'item{i}', sub


def _count(node: dict[str, Any], found: dict[str, list[str]]) -> None:
    for name, sub in _children(node):
        body = _compact(sub)
        if len(body) >= MIN_BODY and '$ref' not in sub:
            found.setdefault(body, []).append(name)
        _count(sub, found)


def _replace(node: dict[str, Any], body: str, ref: dict[str, str]) -> dict[str, Any]:
    out = dict(node)
    if isinstance(node.get('properties'), dict):
        out['properties'] = {k: ref if isinstance(v, dict) and _compact(v) == body
                             else _replace(v, body, ref) if isinstance(v, dict) else v
                             for k, v in node['properties'].items()}
    for key in ('items', 'additionalProperties'):
        if isinstance(node.get(key), dict):
            out[key] = ref if _compact(node[key]) == body else _replace(node[key], body, ref)
    if isinstance(node.get('prefixItems'), list):
        out['prefixItems'] = [ref if isinstance(v, dict) and _compact(v) == body
                              else _replace(v, body, ref) if isinstance(v, dict) else v
                              for v in node['prefixItems']]
    return out


def _def_name(names: list[str], sub: dict[str, Any], taken: set[str]) -> str:
    """Name a shared shape: its one-letter keys joined (``xyz``), else where it first occurs."""
    keys = list(sub.get('properties') or {})
    name = ''.join(keys) if keys and all(len(k) == 1 for k in keys) else names[0]
    base, n = name, 2
    while name in taken:
        name, n = f'{base}{n}', n + 1
    return name


def with_defs(schema: dict[str, Any]) -> dict[str, Any]:
    """Return ``schema`` with each repeated sub-schema in ``$defs`` where that is shorter."""
    out = schema
    while True:
        found: dict[str, list[str]] = {}
        _count(out, found)
        defs = dict(out.get('$defs') or {})
        best = None
        for body, names in sorted(found.items(), key=lambda kv: -len(kv[0])):
            if len(names) < 2:
                continue
            sub = json.loads(body)
            name = _def_name(names, sub, set(defs))
            ref = {'$ref': f'#/$defs/{name}'}
            saved = len(body) * len(names) - len(names) * len(_compact(ref)) - len(
                _compact({name: sub})) - (0 if defs else len('"$defs":{},'))
            if saved > 0:
                best = (body, name, sub, ref)
                break
        if best is None:
            return out
        body, name, sub, ref = best
        out = _replace(out, body, ref) | {'$defs': defs | {name: sub}}
