"""
Load YAML while remembering the line of every value, for error messages.

Parsing uses libyaml's C parser when PyYAML has it (about ten times faster),
else the pure-Python one. Config files are small: a text over
:data:`MAX_CHARS` is refused, and so is a document whose aliases would expand
it beyond :data:`MAX_NODES` values or reuse collections more than
:data:`MAX_ALIASES` times (a "billion laughs" bomb must not freeze the server).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import yaml

Path = tuple[Any, ...]
MAX_CHARS = 1 << 20
MAX_NODES = 100_000
MAX_ALIASES = 100
_LOADER = getattr(yaml, 'CSafeLoader', yaml.SafeLoader)


class ConfigError(Exception):
    """A config file is invalid; the message names file, line, path and expectation."""

    def __init__(self, file: str, line: int | None, path: Sequence[Any], message: str) -> None:
        """Format ``file:line: at path: message``."""
        self.file = file
        self.line = line
        self.path = tuple(path)
        self.problem = message
        where = f'{file}:{line}' if line else file
        super().__init__(f'{where}: at {format_path(path)}: {message}')


def format_path(path: Sequence[Any]) -> str:
    """Render a YAML path like ``tools[2].input.properties.force_n``."""
    out = ''
    for part in path:
        out += f'[{part}]' if isinstance(part, int) else (f'.{part}' if out else str(part))
    return out or '<root>'


@dataclass
class LoadedYaml:
    """A parsed document and the 1-based line of each path in it."""

    file: str
    data: Any
    lines: dict[Path, int]

    def line_of(self, path: Sequence[Any]) -> int | None:
        """Return the line of ``path`` or of its nearest ancestor."""
        p = tuple(path)
        while p:
            if p in self.lines:
                return self.lines[p]
            p = p[:-1]
        return self.lines.get(())

    def error(self, path: Sequence[Any], message: str) -> ConfigError:
        """Build a :class:`ConfigError` located at ``path``."""
        return ConfigError(self.file, self.line_of(path), path, message)


class _Budget:
    """Counts values built and collections reused through aliases."""

    def __init__(self) -> None:
        """Start with nothing spent."""
        self.nodes = 0
        self.aliases = 0
        self.seen: set[int] = set()

    def spend(self, node: yaml.Node, path: Path) -> None:
        """Count building ``node``; raise :class:`ConfigError` once over budget."""
        self.nodes += 1
        if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
            if id(node) in self.seen:
                self.aliases += 1
            self.seen.add(id(node))
        if self.nodes > MAX_NODES or self.aliases > MAX_ALIASES:
            raise ConfigError('', node.start_mark.line + 1, path,
                              f'aliases expand the document beyond {MAX_NODES} values or '
                              f'{MAX_ALIASES} reused collections; write the values out')


def _build(node: yaml.Node, path: Path, lines: dict[Path, int],
           ctor: yaml.constructor.SafeConstructor, budget: _Budget) -> Any:
    budget.spend(node, path)
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise ConfigError('', key_node.start_mark.line + 1, path,
                                  'mapping keys must be plain values')
            key = ctor.construct_object(key_node, deep=True)
            if key in out:
                raise ConfigError('', key_node.start_mark.line + 1, path,
                                  f'duplicate key {key!r}')
            out[key] = _build(value_node, path + (key,), lines, ctor, budget)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_build(v, path + (i,), lines, ctor, budget) for i, v in enumerate(node.value)]
    return ctor.construct_object(node, deep=True)


def load_yaml(text: str, file: str) -> LoadedYaml:
    """Parse ``text``; raise :class:`ConfigError` with the line on syntax errors."""
    if len(text) > MAX_CHARS:
        raise ConfigError(file, None, (), f'the file is larger than {MAX_CHARS} characters')
    try:
        node = yaml.compose(text, Loader=_LOADER)
    except yaml.YAMLError as exc:
        mark = getattr(exc, 'problem_mark', None)
        line = mark.line + 1 if mark is not None else None
        raise ConfigError(file, line, (), f'YAML syntax error: {exc}') from None
    lines: dict[Path, int] = {}
    if node is None:
        return LoadedYaml(file, None, {(): 1})
    ctor = yaml.constructor.SafeConstructor()
    try:
        data = _build(node, (), lines, ctor, _Budget())
    except ConfigError as exc:
        raise ConfigError(file, exc.line, exc.path, exc.problem) from None
    return LoadedYaml(file, data, lines)
