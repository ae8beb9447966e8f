"""Load, validate and resolve ``robot.yaml`` + ``tools.yaml`` into a :class:`Catalog`."""

from __future__ import annotations

from collections.abc import Mapping
import copy
from dataclasses import dataclass
from functools import cached_property
import hashlib
import json
import os
from typing import Any

from jsonschema import Draft202012Validator
from mcp_ros_bridge.catalog.bindings import Binding, binding_json, build_binding, GraspBinding
from mcp_ros_bridge.catalog.defaults import fill_defaults
from mcp_ros_bridge.catalog.kinds import KindRegistry, unfilled
from mcp_ros_bridge.catalog.language import localize_schema, pick_text
from mcp_ros_bridge.catalog.lint_model import Report
from mcp_ros_bridge.catalog.lint_rules import check_limits
from mcp_ros_bridge.catalog.robot import RobotConfig
from mcp_ros_bridge.catalog.schemas import (BINDING_SCHEMAS, ROBOT_SCHEMA, TEXT, TOOL_SCHEMA,
                                            TOOLS_SCHEMA)
from mcp_ros_bridge.catalog.yaml_lines import (ConfigError, format_path, load_yaml, LoadedYaml,
                                               MAX_CHARS)

ROBOT_FILE = 'robot.yaml'
TOOLS_FILE = 'tools.yaml'


@dataclass(frozen=True)
class ToolSpec:
    """One tool as published: everything ``tools/list`` needs and what runs it."""

    name: str
    title: str
    version: str
    kind: str
    description: str
    input_schema: dict[str, Any]
    output_schema: dict[str, Any]
    annotations: dict[str, Any]
    binding: Binding
    requires_approval: bool
    backends: tuple[str, ...]


@dataclass(frozen=True)
class Catalog:
    """The resolved robot description and tool list, with a content hash."""

    config_dir: str
    robot: RobotConfig
    tools: tuple[ToolSpec, ...]
    content_hash: str

    def get(self, name: str) -> ToolSpec | None:
        """Return the tool named ``name`` or None."""
        return self._by_name.get(name)

    @cached_property
    def _by_name(self) -> dict[str, ToolSpec]:
        return {t.name: t for t in self.tools}

    def for_backend(self, backend: str) -> Catalog:
        """Return a catalog with only the tools available on ``backend``."""
        tools = tuple(t for t in self.tools if backend in t.backends)
        return Catalog(self.config_dir, self.robot, tools, _hash(tools))


def _schema_errors(doc: LoadedYaml, schema: dict[str, Any], what: str) -> list[ConfigError]:
    errors = []
    for err in sorted(Draft202012Validator(schema).iter_errors(doc.data),
                      key=lambda e: list(map(str, e.absolute_path))):
        path = list(err.absolute_path)
        message = (f'{json.dumps(err.instance, ensure_ascii=False)[:60]} is not a text: write '
                   'a string or {en: ..., zh: ...}' if err.schema is TEXT else err.message)
        errors.append(doc.error(path, f'{message} (expected by the {what} format)'))
    return errors


def _raise_first(errors: list[ConfigError]) -> None:
    if errors:
        first = errors[0]
        if len(errors) > 1:
            first.args = (f'{first.args[0]} (and {len(errors) - 1} more problem(s))',)
        raise first


def _refuse_wide_bounds(doc: LoadedYaml, i: int, name: str, params: frozenset[str],
                        schema: dict[str, Any], robot: RobotConfig) -> None:
    """Refuse published bounds wider than what the robot's limits allow (fail closed)."""
    report = Report(doc)
    check_limits(report, i, name, params, schema, robot)
    if report.items:
        finding, where = report.items[0]
        raise doc.error(where, f'{finding.message}: the robot refuses values outside its '
                        f'limits, so the tool must not publish them; {finding.fix}')


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def resolve_refs(node: Any, robot: Mapping[str, Any], doc: LoadedYaml,
                 path: tuple[Any, ...]) -> Any:
    """
    Replace every ``{$robot: dotted.path}`` with the robot.yaml value.

    Optional ``scale`` (a number) and ``offset`` (a number or another
    reference) give ``value * scale + offset``, e.g. a joint bound less the
    configured safety margin; ``keys: true`` gives a mapping's keys (an enum).
    """
    if isinstance(node, dict):
        if '$robot' in node:
            ref = node['$robot']
            extra = set(node) - {'$robot', 'scale', 'offset', 'keys'}
            if extra or not isinstance(ref, str):
                raise doc.error(path, '{$robot: dotted.path} takes only optional scale, offset '
                                'and keys')
            cur: Any = robot
            for part in ref.split('.'):
                if isinstance(cur, list) and part.isdigit() and int(part) < len(cur):
                    cur = cur[int(part)]
                elif isinstance(cur, Mapping) and part in cur:
                    cur = cur[part]
                else:
                    raise doc.error(path, f'robot.yaml has no value at {ref!r}')
            if 'scale' in node or 'offset' in node:
                scale = node.get('scale', 1)
                offset = resolve_refs(node.get('offset', 0), robot, doc, path + ('offset',))
                for key, v in (('scale', scale), ('offset', offset)):
                    if not _is_number(v):
                        raise doc.error(path + (key,), f'{key} must be a number')
                if not _is_number(cur):
                    raise doc.error(path, f'{ref!r} is not a number, so it cannot be scaled '
                                    'or offset')
                cur = round(cur * scale + offset, 12)
            if node.get('keys') is True:
                if not isinstance(cur, Mapping):
                    raise doc.error(path, f'{ref!r} is not a mapping, so it has no keys')
                cur = list(cur)
            return copy.deepcopy(cur)
        return {k: resolve_refs(v, robot, doc, path + (k,)) for k, v in node.items()}
    if isinstance(node, list):
        return [resolve_refs(v, robot, doc, path + (i,)) for i, v in enumerate(node)]
    return node


def _hash(tools: tuple[ToolSpec, ...]) -> str:
    body = [{'name': t.name, 'title': t.title, 'version': t.version, 'kind': t.kind,
             'description': t.description, 'input': t.input_schema,
             'output': t.output_schema, 'annotations': t.annotations,
             'binding': binding_json(t.binding), 'approval': t.requires_approval,
             'backends': t.backends}
            for t in tools]
    blob = json.dumps(body, sort_keys=True, separators=(',', ':'), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def load_binding(form: str, raw: Any, robot: Mapping[str, Any], doc: LoadedYaml,
                 path: tuple[Any, ...]) -> Binding:
    """Fill the ``form`` binding's defaults, resolve its references, validate and type it."""
    schema = BINDING_SCHEMAS[form]
    data = resolve_refs(fill_defaults(schema, raw) if isinstance(raw, dict) else raw,
                        robot, doc, path)
    for err in Draft202012Validator(schema).iter_errors(data):
        raise doc.error(path + tuple(err.absolute_path),
                        f'{err.message} (expected by the {form!r} binding of this kind)')
    return build_binding(form, data)


def _check_strategies(doc: LoadedYaml, base: tuple[Any, ...], schema: dict[str, Any],
                      binding: Binding) -> None:
    """Refuse a grasp strategy the input offers but the binding gives no speed for."""
    if not isinstance(binding, GraspBinding):
        return
    offered = schema.get('properties', {}).get('strategy', {}).get('enum', ())
    missing = sorted(set(offered) - set(binding.strategies))
    if missing:
        raise doc.error(base + ('binding', 'strategies'), f'no closing speed for strategy '
                        f'{missing}; give each strategy of the input enum a speed (m/s)')


def read_config_file(config_dir: str, name: str) -> LoadedYaml:
    """Read and parse one config file, keeping line numbers."""
    path = os.path.join(config_dir, name)
    try:
        with open(path, encoding='utf-8') as f:
            text = f.read(MAX_CHARS + 1)  # load_yaml refuses what is longer
    except OSError as exc:
        raise ConfigError(path, None, (), f'cannot read: {exc.strerror}') from None
    return load_yaml(text, path)


def load_robot(config_dir: str) -> tuple[RobotConfig, LoadedYaml]:
    """Load and validate ``robot.yaml``."""
    doc = read_config_file(config_dir, ROBOT_FILE)
    _raise_first(_schema_errors(doc, ROBOT_SCHEMA, 'robot.yaml'))
    lim = doc.data['limits']
    for lo, hi in (('default_velocity_scaling', 'max_velocity_scaling'),
                   ('default_acceleration_scaling', 'max_acceleration_scaling')):
        if lim[lo] > lim[hi]:
            raise doc.error(['limits', lo], f'{lo} {lim[lo]} exceeds {hi} {lim[hi]}')
    ws = lim['workspace']
    if any(a >= b for a, b in zip(ws['min'], ws['max'])):
        raise doc.error(['limits', 'workspace'], 'each workspace min must be below its max')
    joints = doc.data['joints']
    for name, posture in joints['postures'].items():
        if len(posture) != len(joints['arm']):
            raise doc.error(['joints', 'postures', name], f'posture {name!r} needs one value '
                            'per arm joint')
    for name in doc.data.get('ros', {}).get('object_pose_topics', {}):
        if name not in doc.data['objects']:
            raise doc.error(['ros', 'object_pose_topics', name], f'{name!r} is no object of '
                            f"the catalog: use one of {sorted(doc.data['objects'])}")
    limits = joints['position_limits']
    if len(limits) != len(joints['arm']):
        raise doc.error(['joints', 'position_limits'],
                        'position_limits needs one [min, max] pair per arm joint')
    for i, (lo, hi) in enumerate(limits):
        if lo >= hi:
            raise doc.error(['joints', 'position_limits', i], f'min {lo} is not below max {hi}')
    return RobotConfig.from_dict(doc.data), doc


def load_catalog(config_dir: str, lang: str = 'en', *, kinds: KindRegistry) -> Catalog:
    """
    Load both files; raise :class:`ConfigError` naming file, line and path.

    ``kinds`` is the capability registry the tools' ``kind`` names refer to.
    """
    robot, robot_doc = load_robot(config_dir)
    doc = read_config_file(config_dir, TOOLS_FILE)
    _raise_first(_schema_errors(doc, TOOLS_SCHEMA, 'tools.yaml'))
    tools: list[ToolSpec] = []
    seen: set[str] = set()
    for i, raw in enumerate(doc.data['tools']):
        base = ('tools', i)
        if raw['name'] in seen:
            raise doc.error(base + ('name',), f"duplicate tool name {raw['name']!r}")
        seen.add(raw['name'])
        kind = kinds.get(raw['kind'])
        if kind is None:
            raise doc.error(base + ('kind',), f"unknown kind {raw['kind']!r}; expected one of "
                            f"{', '.join(sorted(kinds))}")
        schema = resolve_refs(raw['input'], robot_doc.data, doc, base + ('input',))
        schema = localize_schema(schema, lang)
        meta_errors = list(Draft202012Validator(Draft202012Validator.META_SCHEMA)
                           .iter_errors(schema))
        if meta_errors:
            e = meta_errors[0]
            raise doc.error(base + ('input',) + tuple(e.absolute_path),
                            f'not a valid JSON Schema (Draft 2020-12): {e.message}')
        if schema.get('type') != 'object':
            raise doc.error(base + ('input', 'type'), 'input must be a schema with type: object')
        if '*' not in kind.parameters:
            unknown = set(schema.get('properties', {})) - kind.parameters
            if unknown:
                raise doc.error(base + ('input', 'properties'),
                                f'kind {kind.name!r} does not use {sorted(unknown)}; it accepts '
                                f"{sorted(kind.parameters) or 'no parameters'}")
        for path in unfilled(schema, kind):
            raise doc.error(base + ('input', 'properties', *path),
                            f"kind {kind.name!r} reads {'.'.join(path)}, which a call may leave "
                            'out; give it a default (defaults live only here) or require it')
        _refuse_wide_bounds(doc, i, raw['name'], kind.parameters, schema, robot)
        raw = fill_defaults(TOOL_SCHEMA, raw)
        binding = load_binding(kind.binding, raw['binding'], robot_doc.data, doc,
                               base + ('binding',))
        _check_strategies(doc, base, schema, binding)
        title = pick_text(raw['title'], lang)
        annotations = dict(kind.annotations) | {'title': title} | raw['annotations']
        tools.append(ToolSpec(
            name=raw['name'], title=title, version=raw['version'], kind=raw['kind'],
            description=pick_text(raw['description'], lang), input_schema=schema,
            output_schema=kind.output_schema, annotations=annotations, binding=binding,
            requires_approval=raw['requires_approval'], backends=tuple(raw['backends'])))
    t = tuple(tools)
    return Catalog(config_dir, robot, t, _hash(t))


__all__ = ['Catalog', 'ConfigError', 'ToolSpec', 'format_path', 'load_catalog', 'load_robot']
