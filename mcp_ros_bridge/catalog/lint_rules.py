"""
The catalog linter's rules: one id each, with severity, path and a concrete fix.

Each ``check_*`` function inspects one aspect of a tool (its name, its text, its
input schema, its bounds against the robot's limits) and adds findings to a
:class:`Report`. The loading and the command line live in ``linter.py``.
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
from mcp_ros_bridge.catalog.robot import RobotConfig
from mcp_ros_bridge.catalog.yaml_lines import format_path


def description_texts(desc: Any) -> list[tuple[str, str]]:
    """Return ``(lang, text)`` pairs of a tool description (a string is en or zh by script)."""
    if isinstance(desc, str):
        cjk = len(CJK.findall(desc))
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
        title = title['en'] if is_text_map(title) else title
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
    if uses('positions'):
        check_joint_bounds(bad, schema, robot)
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


def check_joint_bounds(bad: Any, schema: dict[str, Any], robot: RobotConfig) -> None:
    """Check per-joint bounds of ``positions`` against the limits less the safety margin."""
    s = _prop(schema, 'properties', 'positions')
    if s is None:
        return
    margin = robot.limits.joint_limit_margin_rad
    items = s.get('prefixItems')
    per = items if isinstance(items, list) else [s.get('items')] * len(robot.arm_joints)
    rows = zip(robot.arm_joints, robot.arm_position_limits, per)
    for k, (joint, (lo_cap, hi_cap), item) in enumerate(rows):
        lo, _, hi = numeric_range(item) if isinstance(item, dict) else (None, False, None)
        lo_cap, hi_cap = lo_cap + margin, hi_cap - margin
        if lo is None or hi is None or lo < lo_cap - 1e-9 or hi > hi_cap + 1e-9:
            rel = ('properties', 'positions') + (('prefixItems', k) if items else ('items',))
            bad(rel, f'{joint} bounds [{lo}, {hi}] are wider than robot.yaml '
                f'joints.position_limits less limits.joint_limit_margin_rad '
                f'[{round(lo_cap, 6)}, {round(hi_cap, 6)}] (rad)',
                f'use minimum: {{$robot: joints.position_limits.{k}.0, offset: {{$robot: '
                f'limits.joint_limit_margin_rad}}}} and maximum: {{$robot: '
                f'joints.position_limits.{k}.1, offset: {{$robot: '
                f'limits.joint_limit_margin_rad, scale: -1}}}}')
