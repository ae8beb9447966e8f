"""Check a loaded YAML document against the JSON Schema of its format."""

from __future__ import annotations

import json
from typing import Any

from jsonschema import Draft202012Validator
from mcp_ros_bridge.catalog.schemas import TEXT
from mcp_ros_bridge.catalog.yaml_lines import ConfigError, LoadedYaml

Problem = tuple[tuple[Any, ...], str]  # (YAML path, message)


def schema_problems(doc: LoadedYaml, schema: dict[str, Any], what: str) -> list[Problem]:
    """Return each place ``doc`` breaks ``schema`` (the ``what`` format), in path order."""
    problems = []
    for err in sorted(Draft202012Validator(schema).iter_errors(doc.data),
                      key=lambda e: list(map(str, e.absolute_path))):
        message = (f'{json.dumps(err.instance, ensure_ascii=False)[:60]} is not a text: write '
                   'a string or {en: ..., zh: ...}' if err.schema is TEXT else err.message)
        problems.append((tuple(err.absolute_path), f'{message} (expected by the {what} format)'))
    return problems


def first_error(errors: list[ConfigError]) -> ConfigError | None:
    """Return the first error, its message counting the others; None when there are none."""
    if not errors:
        return None
    first = errors[0]
    if len(errors) > 1:
        first.args = (f'{first.args[0]} (and {len(errors) - 1} more problem(s))',)
    return first


def raise_problems(doc: LoadedYaml, problems: list[Problem]) -> None:
    """Raise the first problem as a :class:`ConfigError` located in ``doc``."""
    exc = first_error([doc.error(path, message) for path, message in problems])
    if exc is not None:
        raise exc
