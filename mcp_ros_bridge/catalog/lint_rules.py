"""
The catalog linter's advice rules: one id each, with severity, path and a concrete fix.

Each ``check_*`` function inspects one aspect of a tool (its name, its text, its
input schema) and adds findings to a :class:`Report`. What keeps a catalog from
loading is checked by the loader's pass (``checks.py``); the command line lives
in ``linter.py``.
"""


from __future__ import annotations

import json
import re
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.protocols import Validator
from mcp_ros_bridge.catalog.language import is_text_map
from mcp_ros_bridge.catalog.lint_model import (
    CJK,
    EN_WORDS,
    is_object,
    MAX_DEPTH,
    MAX_NAME_LEN,
    MAX_TOP_LEVEL_PARAMS,
    MCP_NAME,
    NUMERIC,
    PAREN,
    Report,
    schema_types,
    SNAKE_NAME,
    UNITS,
    walk,
    WHEN_EN,
    WHEN_ZH,
    ZH_CHARS,
)
from mcp_ros_bridge.catalog.yaml_lines import format_path


def description_texts(desc: Any) -> list[tuple[str, str]]:
    """Return ``(lang, text)`` pairs of a tool description (a string is en or zh by script)."""
    if isinstance(desc, str):
        cjk = len(CJK.findall(desc))
        return [('zh' if cjk > len(desc.split()) else 'en', desc)]
    if isinstance(desc, dict):
        return [(lang, t) for lang, t in desc.items() if isinstance(t, str)]
    return []


def check_naming(report: Report, i: int, name: str, title: Any) -> None:
    """Advise snake_case names and require a title (the pattern and uniqueness: ``checks``)."""
    base = ('tools', i)
    if MCP_NAME.match(name) and (not SNAKE_NAME.match(name) or len(name) > MAX_NAME_LEN):
        snake = re.sub(r'[^a-z0-9_]+', '_', re.sub(r'(?<=[a-z0-9])([A-Z])', r'_\1', name)
                       .lower()).strip('_')[:MAX_NAME_LEN] or 'tool_name'
        report.add('name-snake-case', name, base, ('name',),
                   f'name {name!r} is not snake_case of at most {MAX_NAME_LEN} characters '
                   '(some clients reject other names)', f'rename it to {snake!r}')
    title = title['en'] if is_text_map(title) else title
    if not isinstance(title, str) or not title.strip():
        report.add('title-present', name, base, ('title',), 'the tool has no title',
                   'add a short human-readable title, e.g. "Move arm to pose"')


def check_description(report: Report, i: int, name: str, desc: Any) -> None:
    """Check descriptions: present, say when to use, length bounds per language."""
    base = ('tools', i)
    texts = [(lang, t.strip()) for lang, t in description_texts(desc)]
    if not texts or not any(t for _, t in texts):
        report.add('description-present', name, base, ('description',),
                   'the tool has no description',
                   'describe what it does, when to use it, when not to, units, frames, ranges')
        return
    for lang, text in texts:
        rel = ('description',) if isinstance(desc, str) else ('description', lang)
        if lang == 'zh':
            when = any(w in text for w in WHEN_ZH)
            size, (lo, hi), unit = len(re.sub(r'\s', '', text)), ZH_CHARS, 'characters'
        else:
            when = bool(WHEN_EN.search(text))
            size, (lo, hi), unit = len(text.split()), EN_WORDS, 'words'
        if not when:
            example = '“用于……”' if lang == 'zh' else '"Use it to ..." or "Use it before ..."'
            report.add('description-when', name, base, rel,
                       f'the {lang} description does not say when to use the tool',
                       f'add a sentence such as {example} naming the situation it is for')
        if not lo <= size <= hi:
            how = 'shorten it' if size > hi else 'add when to use it, when not, units and ranges'
            report.add('description-length', name, base, rel,
                       f'the {lang} description has {size} {unit}; expected {lo}-{hi}',
                       f'{how} to reach {lo}-{hi} {unit}')


def _dict_at(node: dict[str, Any], key: str) -> dict[str, Any]:
    value = node.get(key)
    return value if isinstance(value, dict) else {}


def _validator(root: dict[str, Any], sub: dict[str, Any]) -> Validator:
    """Validate against ``sub`` while resolving $ref against ``root``."""
    return Draft202012Validator(root).evolve(schema=sub)


def _short(value: Any) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= 60 else text[:57] + '...'


def check_structure(report: Report, i: int, name: str, schema: dict[str, Any]) -> None:
    """Check closed objects, defaults and examples, nesting depth, required vs default."""
    base = ('tools', i)
    too_deep: list[tuple[Any, ...]] = []
    for node in walk(schema):
        s, rel = node.schema, node.path
        if is_object(s) and s.get('additionalProperties') is not False \
                and s.get('unevaluatedProperties') is not False:
            report.add('additional-properties', name, base, rel,
                       'this object accepts unknown keys, so typos pass silently',
                       f'add additionalProperties: false at {format_path(rel)}')
        if 'default' in s:
            errs = list(_validator(schema, s).iter_errors(s['default']))
            if errs:
                report.add('default-valid', name, base, rel + ('default',),
                           f"default {_short(s['default'])} is invalid: {errs[0].message}",
                           'change the default so it satisfies the schema beside it')
        for k, example in enumerate(s.get('examples') or []):
            errs = list(_validator(schema, s).iter_errors(example))
            if errs:
                report.add('example-valid', name, base, rel + ('examples', k),
                           f'example {_short(example)} is invalid: {errs[0].message}',
                           'fix the example so an agent copying it sends a valid call')
        if node.depth > MAX_DEPTH and not any(rel[:len(p)] == p for p in too_deep):
            too_deep.append(rel)
            report.add('nesting-depth', name, base, rel,
                       f'arguments nest {node.depth} containers deep here; at most '
                       f'{MAX_DEPTH} allowed', 'flatten this level into named fields of its '
                       'parent, or split the tool')
        props = _dict_at(s, 'properties')
        for req in s.get('required') or []:
            sub = props.get(req)
            if isinstance(sub, dict) and 'default' in sub:
                report.add('required-default', name, base, rel + ('properties', req),
                           f'{req!r} is required but has default {_short(sub["default"])}',
                           f'remove {req!r} from required (the default applies when omitted) '
                           'or drop the default')
    top = _dict_at(schema, 'properties')
    if len(top) > MAX_TOP_LEVEL_PARAMS:
        report.add('max-parameters', name, base, ('input', 'properties'),
                   f'{len(top)} top-level parameters; at most {MAX_TOP_LEVEL_PARAMS} advised',
                   'group related values into one object, drop rarely used ones, or split the '
                   'tool')


def check_parameters(report: Report, i: int, name: str, schema: dict[str, Any]) -> None:
    """Check parameters: described, numbers with unit and bounds, strings closed."""
    base = ('tools', i)
    for node in walk(schema):
        s, rel = node.schema, node.path
        for prop, sub in (s.get('properties') or {}).items():
            if not isinstance(sub, dict):
                report.add('param-description', name, base, rel + ('properties', prop),
                           f'parameter {prop!r} is the bare schema {sub!r}',
                           'give it a type, a description and bounds or an enum')
        if node.role not in ('property', 'item'):
            continue
        own = s.get('description')
        described = isinstance(own, str) and bool(own.strip())
        if node.role == 'property' and not described:
            report.add('param-description', name, base, rel,
                       f'parameter {rel[-1]!r} has no description',
                       'add a description: what it means, its unit and frame, when to change '
                       'it')
        types = schema_types(s)
        if types & set(NUMERIC) and 'const' not in s:
            text = own if described else node.parent_text
            if (described or node.role == 'item') and not any(
                    m.strip() in UNITS for m in PAREN.findall(text or '')):
                report.add('numeric-unit', name, base, rel,
                           f'numeric parameter {format_path(rel)} does not state its unit',
                           'end the description with the unit in parentheses, e.g. (m), (N), '
                           '(deg), (s), or (1) for a ratio')
            has_lo = 'minimum' in s or 'exclusiveMinimum' in s
            has_hi = 'maximum' in s or 'exclusiveMaximum' in s
            if not (has_lo and has_hi) and 'enum' not in s:
                missing = ' and '.join(w for w, ok in (('minimum', has_lo),
                                                       ('maximum', has_hi)) if not ok)
                report.add('numeric-bounds', name, base, rel,
                           f'numeric parameter {format_path(rel)} has no {missing}',
                           f'add {missing} (the physically safe range) or an enum')
        if 'string' in types and not any(k in s for k in ('enum', 'const', 'pattern',
                                                          'format')):
            report.add('string-enum', name, base, rel,
                       f'string parameter {format_path(rel)} accepts any text',
                       'list the allowed values with enum (or constrain it with a pattern or '
                       'format)')
