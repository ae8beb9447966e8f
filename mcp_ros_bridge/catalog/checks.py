"""
The one validation pass over ``robot.yaml`` and ``tools.yaml``.

Every problem becomes a finding (file, line, YAML path, message, fix) in the
order a reader meets it; the loader raises the first, the linter prints them
all and adds its advice rules (``linter.py``). A part goes on to the next check
only when the checks it depends on passed, so nothing is reported twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from jsonschema import Draft202012Validator
from mcp_ros_bridge.catalog.bindings import Binding, build_binding, GraspBinding
from mcp_ros_bridge.catalog.defaults import fill_defaults
from mcp_ros_bridge.catalog.described import merge_description
from mcp_ros_bridge.catalog.format_check import first_error, schema_problems
from mcp_ros_bridge.catalog.kinds import KindRegistry, KindShape, unfilled
from mcp_ros_bridge.catalog.language import localize_schema
from mcp_ros_bridge.catalog.limit_checks import check_joint_count, check_limits
from mcp_ros_bridge.catalog.lint_model import Finding, MCP_NAME, Report
from mcp_ros_bridge.catalog.placeholders import (fill_placeholders, text_values,
                                                 unknown_placeholders)
from mcp_ros_bridge.catalog.references import resolve_refs
from mcp_ros_bridge.catalog.robot import config_path, RobotConfig
from mcp_ros_bridge.catalog.robot_checks import retired_problems, robot_problems
from mcp_ros_bridge.catalog.schemas import (BINDING_SCHEMAS, ROBOT_SCHEMA, TOOL_SCHEMA,
                                            TOOLS_SCHEMA)
from mcp_ros_bridge.catalog.yaml_lines import (ConfigError, format_path, load_yaml, LoadedYaml,
                                               MAX_CHARS)

ROBOT_FILE = 'robot.yaml'
TOOLS_FILE = 'tools.yaml'
_LOAD_FIX = 'fix the file at that line so it loads (the message says what is expected)'
_REF_FIX = ('point $robot at an existing dotted path of robot.yaml, e.g. gripper.max_force_n '
            'or limits.workspace.max.0')


@dataclass(frozen=True)
class CheckedTool:
    """A tool whose input schema resolved to a valid JSON Schema, and what it loads as."""

    index: int
    name: str
    raw: dict[str, Any]     # the tools.yaml entry, TOOL_SCHEMA defaults filled in
    schema: dict[str, Any]  # input with $robot resolved; texts still in every language
    kind: KindShape | None
    binding: Binding | None
    loads: bool             # no error found in this tool


@dataclass
class Checked:
    """What the pass found: the findings, and the robot and tools where they loaded."""

    items: list[tuple[Finding, tuple[Any, ...]]] = field(default_factory=list)
    robot: RobotConfig | None = None
    robot_doc: LoadedYaml | None = None
    doc: LoadedYaml | None = None
    tools: list[CheckedTool] = field(default_factory=list)

    @property
    def errors(self) -> list[tuple[Finding, tuple[Any, ...]]]:
        """Return the error findings with their YAML paths, first found first."""
        return [(f, where) for f, where in self.items if f.severity == 'error']

    def raise_first(self) -> None:
        """Raise the first error as a :class:`ConfigError` (file, line, path, what to do)."""
        exc = first_error([ConfigError(f.file, f.line, where, f.message if f.rule == 'config-load'
                                       else f'{f.message}; {f.fix}')
                           for f, where in self.errors])
        if exc is not None:
            raise exc


def read_config_file(config_dir: str, name: str) -> LoadedYaml:
    """Read and parse one config file (tools and prompts: the shipped ones when absent)."""
    path = config_path(config_dir, name)
    try:
        with open(path, encoding='utf-8') as f:
            text = f.read(MAX_CHARS + 1)  # load_yaml refuses what is longer
    except OSError as exc:
        raise ConfigError(path, None, (), f'cannot read: {exc.strerror}') from None
    return load_yaml(text, path)


def _read(checked: Checked, config_dir: str, name: str) -> LoadedYaml | None:
    try:
        return read_config_file(config_dir, name)
    except ConfigError as exc:
        checked.items.append((Finding('config-load', 'error', '', format_path(exc.path)
                                      if exc.path else '', exc.file, exc.line, exc.problem,
                                      _LOAD_FIX), exc.path))
        return None


def check_robot(config_dir: str) -> Checked:
    """Check ``robot.yaml``; on success the result holds the typed :class:`RobotConfig`."""
    checked = Checked()
    doc = _read(checked, config_dir, ROBOT_FILE)
    if doc is None:
        return checked
    merged, disagreements, notes = merge_description(config_dir, doc.data)
    doc = LoadedYaml(doc.file, merged, doc.lines)  # references see the description's facts
    report = Report(doc, checked.items)
    for note in notes:
        report.add('description-note', '', (), ('description',), note,
                   'check it on the robot; robot.yaml may narrow what the description says')
    problems = disagreements or retired_problems(doc.data) or (
        schema_problems(doc, ROBOT_SCHEMA, 'robot.yaml')
        or robot_problems(fill_defaults(ROBOT_SCHEMA, doc.data)))
    for path, message in problems:
        report.add('config-load', '', (), path, message, _LOAD_FIX)
    if not problems:
        checked.robot = RobotConfig.from_dict(doc.data, config_dir)
        # references see the schema's defaults too (e.g. gripper.geometry.tip_past_tcp_m)
        checked.robot_doc = LoadedYaml(doc.file, fill_defaults(ROBOT_SCHEMA, doc.data),
                                       doc.lines)
    return checked


def check_config(config_dir: str, kinds: KindRegistry) -> Checked:
    """Check both files for the kind registry ``kinds``; the pass loader and linter share."""
    checked = check_robot(config_dir)
    if checked.robot is None or checked.robot_doc is None:
        return checked
    doc = _read(checked, config_dir, TOOLS_FILE)
    if doc is None:
        return checked
    checked.doc = doc
    report = Report(doc, checked.items)
    raw_tools = doc.data.get('tools') if isinstance(doc.data, dict) else None
    broken: set[int] = set()
    for path, message in schema_problems(doc, TOOLS_SCHEMA, 'tools.yaml'):
        tool = path[1] if len(path) > 1 and path[0] == 'tools' else None
        if isinstance(tool, int):
            broken.add(tool)
        name = _label(raw_tools, tool)
        split = 2 if isinstance(tool, int) else 0
        report.add('config-format', name, path[:split], path[split:], message,
                   'follow the tools.yaml format described at the top of the shipped file')
    if checked.errors and not broken:  # the file as a whole does not fit the format: stop
        return checked
    tools = [(i, raw) for i, raw in enumerate(raw_tools or []) if i not in broken]
    _check_names(report, tools)
    for i, raw in tools:
        tool = _check_tool(report, i, raw, checked.robot, checked.robot_doc, kinds)
        if tool is not None:
            checked.tools.append(tool)
    return checked


def _label(raw_tools: Any, i: Any) -> str:
    if isinstance(i, int) and isinstance(raw_tools, list) and isinstance(raw_tools[i], dict):
        name = raw_tools[i].get('name')
        return name if isinstance(name, str) else f'tools[{i}]'
    return ''


def _check_names(report: Report, tools: list[tuple[int, dict[str, Any]]]) -> None:
    """Check names: the MCP tool-name pattern, and each used once."""
    seen: dict[str, int] = {}
    for i, raw in tools:
        name = raw['name']
        if not MCP_NAME.match(name):
            report.add('name-pattern', name, ('tools', i), ('name',),
                       f'name {name!r} does not match the MCP tool-name pattern',
                       'use 1-128 characters from A-Z a-z 0-9 _ . -, e.g. move_arm_to_pose')
        if name in seen:
            report.add('name-unique', name, ('tools', i), ('name',),
                       f'duplicate tool name {name!r}: tools[{seen[name]}] has it already',
                       'give each tool its own name, e.g. add a distinguishing verb or object')
        seen.setdefault(name, i)


def _check_tool(report: Report, i: int, raw: dict[str, Any], robot: RobotConfig,
                robot_doc: LoadedYaml, kinds: KindRegistry) -> CheckedTool | None:
    """Check one format-valid tool; return it once its input is a valid JSON Schema."""
    name, base, before = raw['name'], ('tools', i), len(report.items)
    values = text_values(robot)
    unknown = sorted(set(unknown_placeholders(raw, values)))
    if unknown:
        report.add('text-placeholder', name, base, (), f'unknown placeholder(s) '
                   f"{', '.join('${' + u + '}' for u in unknown)}",
                   f"use one of {', '.join('${' + k + '}' for k in values)}")
    raw = fill_placeholders(raw, values)
    kind = kinds.get(raw['kind'])
    if kind is None:
        report.add('unknown-kind', name, base, ('kind',), f"unknown kind {raw['kind']!r}; "
                   f"expected one of {', '.join(sorted(kinds))}", 'set kind to one of those')
    try:
        schema = resolve_refs(raw['input'], robot_doc.data, report.doc, base + ('input',))
    except ConfigError as exc:
        report.add('robot-ref', name, base, exc.path[2:], exc.problem, _REF_FIX)
        return None
    en = localize_schema(schema, 'en')
    meta = list(Draft202012Validator(Draft202012Validator.META_SCHEMA).iter_errors(en))
    for err in meta:
        report.add('schema-valid', name, base, ('input',) + tuple(err.absolute_path),
                   f'not a valid JSON Schema (Draft 2020-12): {err.message}',
                   'correct this keyword; see json-schema.org/draft/2020-12 for its form')
    if meta:
        return None
    if en.get('type') != 'object':
        report.add('schema-object', name, base, ('input', 'type'),
                   f"input has type {en.get('type')!r}; tool arguments are an object",
                   'set type: object and list the parameters under properties')
    raw = fill_defaults(TOOL_SCHEMA, raw)
    binding = None
    if kind is not None:
        _check_kind(report, i, name, en, kind, robot)
        binding = _check_binding(report, i, name, en, kind.binding, raw['binding'], robot_doc)
    return CheckedTool(i, name, raw, schema, kind, binding, len(report.items) == before)


def _check_kind(report: Report, i: int, name: str, schema: dict[str, Any], kind: KindShape,
                robot: RobotConfig) -> None:
    """Check the input against its kind: parameters it uses and reads, bounds within limits."""
    base = ('tools', i)
    if '*' not in kind.parameters:
        unknown = sorted(set(schema.get('properties') or {}) - kind.parameters)
        if unknown:
            report.add('kind-parameter', name, base, ('input', 'properties', unknown[0]),
                       f'kind {kind.name!r} does not use {unknown}; it accepts '
                       f"{sorted(kind.parameters) or 'no parameters'}", 'remove it')
    for path in unfilled(schema, kind):
        report.add('kind-default', name, base, ('input', 'properties', *path),
                   f"kind {kind.name!r} reads {'.'.join(path)}, which a call may leave out",
                   'give it a default (defaults live only in the schema) or require it')
    check_limits(report, i, name, kind.parameters, schema, robot)
    if kind.name == 'move_to_joints':
        check_joint_count(report, i, name, schema, robot)


def _check_binding(report: Report, i: int, name: str, schema: dict[str, Any], form: str,
                   raw: dict[str, Any], robot_doc: LoadedYaml) -> Binding | None:
    """Fill the binding's defaults, resolve its references, check and type it."""
    base, rules = ('tools', i), BINDING_SCHEMAS[form]
    keys = ', '.join(f'{k} (required)' if k in rules['required'] else k
                     for k in rules['properties']) or 'none'
    fix = f'the {form!r} binding takes: {keys}'
    try:
        data = resolve_refs(fill_defaults(rules, raw), robot_doc.data, report.doc,
                            base + ('binding',))
    except ConfigError as exc:
        report.add('binding', name, base, exc.path[2:], exc.problem, _REF_FIX)
        return None
    errors = list(Draft202012Validator(rules).iter_errors(data))
    for err in errors:
        report.add('binding', name, base, ('binding', *err.absolute_path),
                   f'{err.message} (expected by the {form!r} binding of this kind)', fix)
    if errors:
        return None
    binding = build_binding(form, data)
    if isinstance(binding, GraspBinding):
        offered = ((schema.get('properties') or {}).get('strategy') or {}).get('enum') or ()
        missing = sorted(set(offered) - set(binding.strategies))
        if missing:
            report.add('binding', name, base, ('binding', 'strategies'),
                       f'no closing speed for strategy {missing}',
                       'give each strategy of the input enum a speed (m/s)')
            return None
    return binding
