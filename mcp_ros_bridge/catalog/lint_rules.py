"""
The catalog linter's rules: one id each, with severity, path and a concrete fix.

Each ``check_*`` function inspects one aspect of a tool (its name, its text, its
input schema, its bounds against the robot's limits) and adds findings to a
:class:`Report`. The loading and the command line live in ``linter.py``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
import json
import re
from typing import Any

from jsonschema import Draft202012Validator
from mcp_ros_bridge.catalog.robot import RobotConfig
from mcp_ros_bridge.catalog.yaml_lines import format_path, LoadedYaml

SEVERITIES = ('error', 'warning', 'info')
MAX_TOOLS = 20
MAX_TOP_LEVEL_PARAMS = 5
MAX_DEPTH = 3
EN_WORDS = (30, 150)
ZH_CHARS = (60, 300)
MCP_NAME = re.compile(r'^[A-Za-z0-9_.-]{1,128}$')
SNAKE_NAME = re.compile(r'^[a-z][a-z0-9_]*$')
MAX_NAME_LEN = 64
CHARS_PER_TOKEN = 4
UNITS = frozenset({
    'm', 'mm', 'cm', 'm/s', 'm/s^2', 'N', 'Nm', 'N m', 'N·m', 'kg', 'g', 'deg', 'deg/s', 'rad',
    'rad/s', 's', 'ms', 'Hz', 'px', '1', '%', 'count', 'samples', 'bytes', 'V', 'A', 'W', 'Pa',
})
_PAREN = re.compile(r'[(（]([^()（）]{1,12})[)）]')
_WHEN_EN = re.compile(r'\buse (it|this)\b|\bwhen to use\b|\buse (it )?(when|before|after)\b',
                      re.IGNORECASE)
_WHEN_ZH = ('用于', '使用')
_NUMERIC = ('number', 'integer')
_CJK = re.compile(r'[\u4e00-\u9fff]')


@dataclass(frozen=True)
class Finding:
    """One problem (or measurement) the linter reports about the catalog."""

    rule: str
    severity: str
    tool: str
    path: str
    file: str
    line: int | None
    message: str
    fix: str
    value: int | None = None


@dataclass(frozen=True)
class Rule:
    """A lint rule: its id, its severity and what it demands."""

    rule_id: str
    severity: str
    text: str


RULES: dict[str, Rule] = {r.rule_id: r for r in (
    Rule('config-load', 'error', 'robot.yaml and tools.yaml load (syntax, format, semantics)'),
    Rule('config-format', 'error', 'tools.yaml follows its JSON Schema format'),
    Rule('unknown-kind', 'error', 'kind names a built-in capability kind'),
    Rule('kind-parameter', 'error', 'every top-level parameter is one the kind uses'),
    Rule('robot-ref', 'error', 'every {$robot: dotted.path} names a value in robot.yaml'),
    Rule('schema-valid', 'error', 'input is a valid JSON Schema (Draft 2020-12 meta-schema)'),
    Rule('schema-object', 'error', 'input has type: object'),
    Rule('additional-properties', 'error',
         'every object level of input has additionalProperties: false'),
    Rule('default-valid', 'error', 'every default validates against its (sub)schema'),
    Rule('example-valid', 'error', 'every entry of examples validates against its (sub)schema'),
    Rule('name-pattern', 'error', 'the tool name matches the MCP pattern ^[A-Za-z0-9_.-]{1,128}$'),
    Rule('name-snake-case', 'warning',
         f'the tool name is snake_case (^[a-z][a-z0-9_]*$), at most {MAX_NAME_LEN} characters'),
    Rule('name-unique', 'error', 'tool names are unique'),
    Rule('title-present', 'error', 'every tool has a non-empty title'),
    Rule('description-present', 'error', 'every tool has a non-empty description'),
    Rule('description-when', 'warning',
         'the description says when to use the tool ("Use it ..." in English, 用于/使用 in '
         'Chinese)'),
    Rule('description-length', 'warning',
         f'English descriptions have {EN_WORDS[0]}-{EN_WORDS[1]} words, Chinese ones '
         f'{ZH_CHARS[0]}-{ZH_CHARS[1]} characters (whitespace not counted)'),
    Rule('param-description', 'error', 'every parameter and nested property has a description'),
    Rule('numeric-unit', 'warning',
         'a numeric parameter states its unit in parentheses, e.g. (m), (N), (deg), (s), (1)'),
    Rule('numeric-bounds', 'error',
         'a numeric parameter has a lower and an upper bound (minimum/exclusiveMinimum and '
         'maximum/exclusiveMaximum) or an enum'),
    Rule('string-enum', 'warning',
         'a string parameter is constrained by enum, const, pattern or format'),
    Rule('max-parameters', 'warning',
         f'a tool has at most {MAX_TOP_LEVEL_PARAMS} top-level parameters'),
    Rule('nesting-depth', 'error',
         f'arguments nest at most {MAX_DEPTH} containers deep (objects and arrays, the '
         'arguments object included)'),
    Rule('required-default', 'warning',
         'a required parameter has no default (a default means it is safe to omit)'),
    Rule('max-tools', 'warning', f'the catalog has at most {MAX_TOOLS} tools'),
    Rule('token-estimate', 'info',
         f'estimated size of tools/list (about {CHARS_PER_TOKEN} characters per token)'),
    Rule('robot-limits', 'error',
         "bounds of known parameters stay inside robot.yaml's limits (gripper force and width, "
         'velocity scaling in (0, max], workspace box)'),
)}


@dataclass
class Report:
    """Collects findings about one YAML document, locating each path to its line."""

    doc: LoadedYaml

    def __post_init__(self) -> None:
        """Start with no findings."""
        self.items: list[tuple[Finding, tuple[Any, ...]]] = []

    def add(self, rule: str, tool: str, base: Sequence[Any], rel: Sequence[Any], message: str,
            fix: str, value: int | None = None) -> None:
        """Record a finding of ``rule`` at ``base + rel`` (``rel`` is shown)."""
        where = tuple(base) + tuple(rel)
        finding = Finding(rule, RULES[rule].severity, tool, format_path(rel) if rel else '',
                          self.doc.file, self.doc.line_of(where), message, fix, value)
        self.items.append((finding, where))

    @property
    def findings(self) -> list[Finding]:
        """Return the findings recorded so far."""
        return [f for f, _ in self.items]


@dataclass(frozen=True)
class Node:
    """A subschema met while walking an input schema."""

    path: tuple[Any, ...]
    schema: dict[str, Any]
    role: str          # root | property | item | other
    depth: int         # containers enclosing the value, itself included
    parent_text: str   # description of the nearest described ancestor


def _types(schema: dict[str, Any]) -> set[str]:
    t = schema.get('type')
    return {t} if isinstance(t, str) else set(t) if isinstance(t, list) else set()


def is_object(schema: dict[str, Any]) -> bool:
    """Return True when ``schema`` describes an object."""
    return 'object' in _types(schema) or 'properties' in schema


def _is_container(schema: dict[str, Any]) -> bool:
    return (bool(_types(schema) & {'object', 'array'})
            or any(k in schema for k in ('properties', 'items', 'prefixItems')))


def walk(schema: Any, path: tuple[Any, ...] = ('input',), role: str = 'root', outer: int = 0,
         parent_text: str = '') -> Iterator[Node]:
    """Yield every dict subschema of ``schema`` with its YAML path and nesting depth."""
    if not isinstance(schema, dict):
        return
    depth = outer + 1 if _is_container(schema) else outer
    yield Node(path, schema, role, depth, parent_text)
    text = schema.get('description') if isinstance(schema.get('description'), str) else ''
    text = text or parent_text
    for key in ('properties', 'patternProperties'):
        for name, sub in (schema.get(key) or {}).items():
            yield from walk(sub, path + (key, name), 'property', depth, text)
    for key in ('items', 'additionalProperties', 'unevaluatedItems', 'unevaluatedProperties',
                'contains'):
        yield from walk(schema.get(key), path + (key,), 'item', depth, text)
    for i, sub in enumerate(schema.get('prefixItems') or []):
        yield from walk(sub, path + ('prefixItems', i), 'item', depth, text)
    for key in ('allOf', 'anyOf', 'oneOf'):
        for i, sub in enumerate(schema.get(key) or []):
            yield from walk(sub, path + (key, i), 'other', outer, text)
    for key in ('not', 'if', 'then', 'else', 'propertyNames'):
        yield from walk(schema.get(key), path + (key,), 'other', outer, text)
    for key in ('$defs', 'dependentSchemas'):
        for name, sub in (schema.get(key) or {}).items():
            yield from walk(sub, path + (key, name), 'other', 0, '')


def description_texts(desc: Any) -> list[tuple[str, str]]:
    """Return ``(lang, text)`` pairs of a tool description (a string is en or zh by script)."""
    if isinstance(desc, str):
        cjk = len(_CJK.findall(desc))
        return [('zh' if cjk > len(desc.split()) else 'en', desc)]
    if isinstance(desc, dict):
        return [(lang, t) for lang, t in desc.items() if isinstance(t, str)]
    return []


def check_identity(report: Report, tools: list[Any]) -> None:
    """Check names (MCP pattern, snake_case, unique) and titles."""
    seen: dict[str, int] = {}
    for i, raw in enumerate(tools):
        if not isinstance(raw, dict):
            continue
        base = ('tools', i)
        name = raw.get('name')
        label = name if isinstance(name, str) else f'tools[{i}]'
        if not isinstance(name, str) or not MCP_NAME.match(name):
            report.add('name-pattern', label, base, ('name',),
                       f'name {name!r} does not match the MCP tool-name pattern',
                       'use 1-128 characters from A-Z a-z 0-9 _ . -, e.g. move_arm_to_pose')
        elif not SNAKE_NAME.match(name) or len(name) > MAX_NAME_LEN:
            snake = re.sub(r'[^a-z0-9_]+', '_', re.sub(r'(?<=[a-z0-9])([A-Z])', r'_\1', name)
                           .lower()).strip('_')[:MAX_NAME_LEN] or 'tool_name'
            report.add('name-snake-case', label, base, ('name',),
                       f'name {name!r} is not snake_case of at most {MAX_NAME_LEN} characters '
                       '(some clients reject other names)', f'rename it to {snake!r}')
        if isinstance(name, str):
            if name in seen:
                report.add('name-unique', label, base, ('name',),
                           f'name {name!r} is already used by tools[{seen[name]}]',
                           'give each tool its own name, e.g. add a distinguishing verb or '
                           'object')
            seen.setdefault(name, i)
        title = raw.get('title')
        if not isinstance(title, str) or not title.strip():
            report.add('title-present', label, base, ('title',), 'the tool has no title',
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
            when = any(w in text for w in _WHEN_ZH)
            size, (lo, hi), unit = len(re.sub(r'\s', '', text)), ZH_CHARS, 'characters'
        else:
            when = bool(_WHEN_EN.search(text))
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


def _validator(root: dict[str, Any], sub: dict[str, Any]) -> Draft202012Validator:
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
        props = s.get('properties') if isinstance(s.get('properties'), dict) else {}
        for req in s.get('required') or []:
            sub = props.get(req)
            if isinstance(sub, dict) and 'default' in sub:
                report.add('required-default', name, base, rel + ('properties', req),
                           f'{req!r} is required but has default {_short(sub["default"])}',
                           f'remove {req!r} from required (the default applies when omitted) '
                           'or drop the default')
    top = schema.get('properties') if isinstance(schema.get('properties'), dict) else {}
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
        types = _types(s)
        if types & set(_NUMERIC) and 'const' not in s:
            text = own if described else node.parent_text
            if (described or node.role == 'item') and not any(
                    m.strip() in UNITS for m in _PAREN.findall(text or '')):
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


def numeric_range(s: dict[str, Any]) -> tuple[float | None, bool, float | None]:
    """Return ``(low, low_is_exclusive, high)`` of a numeric schema (None: unbounded)."""
    nums = [v for v in s.get('enum') or [] if isinstance(v, (int, float))
            and not isinstance(v, bool)]
    lo: float | None = min(nums) if nums else None
    hi: float | None = max(nums) if nums else None
    exclusive = False
    for key, strict in (('minimum', False), ('exclusiveMinimum', True)):
        v = s.get(key)
        if isinstance(v, (int, float)) and not isinstance(v, bool) and (
                lo is None or v > lo or (v == lo and strict)):
            lo, exclusive = v, strict
    for key in ('maximum', 'exclusiveMaximum'):
        v = s.get(key)
        if isinstance(v, (int, float)) and not isinstance(v, bool) and (hi is None or v < hi):
            hi = v
    return lo, exclusive, hi


def _prop(schema: Any, *path: str) -> dict[str, Any] | None:
    cur = schema
    for part in path:
        cur = cur.get(part) if isinstance(cur, dict) else None
    return cur if isinstance(cur, dict) else None


def check_limits(report: Report, i: int, name: str, params: frozenset[str],
                 schema: dict[str, Any], robot: RobotConfig) -> None:
    """Check that bounds of known parameters stay inside robot.yaml's limits."""
    base = ('tools', i)
    lim = robot.limits

    def uses(param: str) -> bool:
        return param in params or '*' in params

    def bad(rel: tuple[str, ...], message: str, fix: str) -> None:
        report.add('robot-limits', name, base, ('input',) + rel, message, fix)

    def check_max(rel: tuple[str, ...], cap: float, ref: str) -> None:
        s = _prop(schema, *rel)
        hi = numeric_range(s)[2] if s else None
        if hi is not None and hi > cap:
            bad(rel, f'upper bound {hi} exceeds robot.yaml {ref} = {cap}',
                f'set maximum: {{$robot: {ref}}} (or a value <= {cap})')

    if uses('force_n'):
        check_max(('properties', 'force_n'), robot.gripper_max_force_n, 'gripper.max_force_n')
        s = _prop(schema, 'properties', 'force_n')
        lo = numeric_range(s)[0] if s else None
        if lo is not None and lo < robot.gripper_min_force_n:
            bad(('properties', 'force_n'), f'lower bound {lo} is below robot.yaml '
                f'gripper.min_force_n = {robot.gripper_min_force_n}',
                'set minimum: {$robot: gripper.min_force_n}')
    if uses('width_m'):
        check_max(('properties', 'width_m'), robot.gripper_max_width_m, 'gripper.max_width_m')
    for param, cap, ref in (
            ('velocity_scaling', lim.max_velocity_scaling, 'limits.max_velocity_scaling'),
            ('acceleration_scaling', lim.max_acceleration_scaling,
             'limits.max_acceleration_scaling')):
        s = _prop(schema, 'properties', param)
        if not uses(param) or s is None:
            continue
        check_max(('properties', param), cap, ref)
        lo, exclusive, _ = numeric_range(s)
        if lo is None or lo < 0 or (lo == 0 and not exclusive):
            bad(('properties', param), f'{param} may be {lo if lo is not None else "any"}; it '
                'must stay in (0, max] (MoveIt treats 0 as full speed)',
                'set exclusiveMinimum: 0 (or a minimum above 0) and remove minimum: 0')
    for param, rel in (('position', ('properties', 'position', 'properties')),
                       ('waypoints', ('properties', 'waypoints', 'items', 'properties'))):
        if not uses(param):
            continue
        for axis, lo_cap, hi_cap in zip('xyz', lim.workspace.lo, lim.workspace.hi):
            s = _prop(schema, *rel, axis)
            if s is None:
                continue
            lo, _, hi = numeric_range(s)
            if (lo is not None and lo < lo_cap) or (hi is not None and hi > hi_cap):
                k = 'xyz'.index(axis)
                bad(rel + (axis,), f'{axis} bounds [{lo}, {hi}] leave the workspace box '
                    f'[{lo_cap}, {hi_cap}] (m)',
                    f'use minimum: {{$robot: limits.workspace.min.{k}}} and maximum: '
                    f'{{$robot: limits.workspace.max.{k}}}')
