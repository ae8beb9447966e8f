"""
Lint rules for what the model reads: a small list, every text for this session's reader.

The model-visible part of ``tools/list`` (name, title, description, inputSchema) is
read in every conversation, so it has a budget of its own (``MAX_MODEL_CHARS``, en).
Its texts name no configuration file (the model cannot open robot.yaml) and no
backend: the same catalog serves the simulation and ROS, so a note for one is noise
(or wrong) in a session on the other.
"""

from __future__ import annotations

import re
from typing import Any

from mcp_ros_bridge.catalog.lint_model import Report

MAX_MODEL_CHARS = 18_000  # en, compact JSON of the model-visible keys
# Words a model-visible text must not contain: config files, resources a tools-only host
# cannot read, and either backend by name.
FOR_SOMEONE_ELSE = re.compile(
    r'robot\.yaml|tools\.yaml|prompts\.yaml|\bSRDF\b|\bURDF\b|robot://|\bROS\b|\bsim\b|'
    r'simulat|仿真|模拟')


def texts_of(entry: dict[str, Any]) -> list[tuple[tuple[str, ...], str]]:
    """Return (path in tools.yaml, text) of each model-visible text of a tools/list entry."""
    out: list[tuple[tuple[str, ...], str]] = [
        (('title',), entry.get('title') or ''), (('description',), entry.get('description') or '')]

    def walk(schema: Any, path: tuple[str, ...]) -> None:
        if not isinstance(schema, dict):
            return
        if isinstance(schema.get('description'), str):
            out.append((path + ('description',), schema['description']))
        for name, sub in (schema.get('properties') or {}).items():
            walk(sub, path + ('properties', name))
        walk(schema.get('items'), path + ('items',))

    walk(entry.get('inputSchema'), ('input',))
    return out


def undescribed(schema: Any, path: str = '') -> list[str]:
    """Return the dotted path of each (nested) parameter without a description."""
    if not isinstance(schema, dict):
        return []
    out: list[str] = []
    for name, sub in (schema.get('properties') or {}).items():
        here = f'{path}.{name}' if path else name
        if not isinstance(sub, dict) or not sub.get('description'):
            out.append(here)
        out += undescribed(sub, here)
    return out + undescribed(schema.get('items'), f'{path}[]')


def check_audience(report: Report, entries: list[dict[str, Any]], index: dict[str, int],
                   lang: str) -> None:
    """Refuse a model-visible text that names a config file, a resource or a backend."""
    for entry in entries:
        for where, text in texts_of(entry):
            hit = FOR_SOMEONE_ELSE.search(text)
            if hit:
                base = ('tools', index[entry['name']])
                report.add('model-audience', entry['name'], base, where,
                           f'"{hit.group(0)}" in a text the model reads ({lang}): it cannot '
                           'open config files or resources, and a session runs on one backend',
                           'say the fact itself (or name get_robot_info), for every backend')


def check_model_size(report: Report, chars: int, count: int) -> None:
    """Refuse a model-visible list (en) larger than ``MAX_MODEL_CHARS``."""
    if chars > MAX_MODEL_CHARS:
        report.add('model-budget', '', (), ('tools',),
                   f'the model-visible part of the en tools/list of {count} tools is {chars} '
                   f'characters; the budget is {MAX_MODEL_CHARS}',
                   'tighten descriptions and parameter texts (keep a unit and meaning in each)')
