"""Load ``robot.yaml`` + ``tools.yaml`` into a :class:`Catalog`, or raise the first problem."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, is_dataclass
from functools import cached_property
import hashlib
import json
from typing import Any

from mcp_ros_bridge.catalog.bindings import Binding, binding_json
from mcp_ros_bridge.catalog.checks import (check_config, check_robot, CheckedTool,
                                           read_config_file, ROBOT_FILE, TOOLS_FILE)
from mcp_ros_bridge.catalog.kinds import KindRegistry
from mcp_ros_bridge.catalog.language import localize_schema, pick_text
from mcp_ros_bridge.catalog.robot import RobotConfig
from mcp_ros_bridge.catalog.yaml_lines import ConfigError, format_path, LoadedYaml


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

    @cached_property
    def robot_hash(self) -> str:
        """Return the hash of every robot.yaml setting (``content_hash`` covers the tools)."""
        blob = json.dumps(robot_fields(self.robot), sort_keys=True, separators=(',', ':'),
                          default=str)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def for_backend(self, backend: str) -> Catalog:
        """Return a catalog with only the tools available on ``backend``."""
        tools = tuple(t for t in self.tools if backend in t.backends)
        return Catalog(self.config_dir, self.robot, tools, _hash(tools))


def robot_fields(robot: RobotConfig) -> dict[str, Any]:
    """Return every setting of ``robot`` by dotted name (``limits.approach_cone_deg``)."""
    out: dict[str, Any] = {}

    def walk(name: str, value: Any) -> None:
        if is_dataclass(value) and not isinstance(value, type):
            for f in fields(value):
                walk(f'{name}.{f.name}' if name else f.name, getattr(value, f.name))
        elif isinstance(value, Mapping) and value:
            for key in sorted(value):
                walk(f'{name}.{key}', value[key])
        else:
            out[name] = dict(value) if isinstance(value, Mapping) else value

    walk('', robot)
    return out


def _hash(tools: tuple[ToolSpec, ...]) -> str:
    body = [{'name': t.name, 'title': t.title, 'version': t.version, 'kind': t.kind,
             'description': t.description, 'input': t.input_schema,
             'output': t.output_schema, 'annotations': t.annotations,
             'binding': binding_json(t.binding), 'approval': t.requires_approval,
             'backends': t.backends}
            for t in tools]
    blob = json.dumps(body, sort_keys=True, separators=(',', ':'), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def tool_spec(tool: CheckedTool, lang: str) -> ToolSpec:
    """Return the published form of a tool that loads, its texts in ``lang``."""
    if tool.kind is None or tool.binding is None:
        raise ValueError(f'{tool.name} does not load')
    raw, title = tool.raw, pick_text(tool.raw['title'], lang)
    return ToolSpec(
        name=tool.name, title=title, version=raw['version'], kind=raw['kind'],
        description=pick_text(raw['description'], lang),
        input_schema=localize_schema(tool.schema, lang), output_schema=tool.kind.output_schema,
        annotations=dict(tool.kind.annotations) | {'title': title} | raw['annotations'],
        binding=tool.binding, requires_approval=raw['requires_approval'],
        backends=tuple(raw['backends']))


def load_robot(config_dir: str) -> tuple[RobotConfig, LoadedYaml]:
    """Load and validate ``robot.yaml``; raise :class:`ConfigError` on the first problem."""
    checked = check_robot(config_dir)
    checked.raise_first()
    assert checked.robot is not None and checked.robot_doc is not None  # no error: it loaded
    return checked.robot, checked.robot_doc


def load_catalog(config_dir: str, lang: str = 'en', *, kinds: KindRegistry) -> Catalog:
    """
    Load both files; raise :class:`ConfigError` naming file, line, path and what to do.

    ``kinds`` is the capability registry the tools' ``kind`` names refer to.
    """
    checked = check_config(config_dir, kinds)
    checked.raise_first()
    assert checked.robot is not None  # no error: it loaded
    tools = tuple(tool_spec(t, lang) for t in checked.tools)
    return Catalog(config_dir, checked.robot, tools, _hash(tools))


__all__ = [
    'ROBOT_FILE',
    'TOOLS_FILE',
    'Catalog',
    'ConfigError',
    'ToolSpec',
    'format_path',
    'load_catalog',
    'load_robot',
    'read_config_file',
    'robot_fields',
    'tool_spec',
]
