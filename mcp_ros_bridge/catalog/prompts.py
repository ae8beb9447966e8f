"""
Task skills from ``prompts.yaml``: MCP prompts that orchestrate the atomic tools.

Each prompt has a name, title, description, arguments and a text in which
``{argument}`` is replaced by the argument's value; texts are ``{en, zh}``.
"""

from __future__ import annotations

from dataclasses import dataclass
import os
import re
from typing import Any

from mcp_ros_bridge.catalog.checks import read_config_file
from mcp_ros_bridge.catalog.format_check import raise_problems, schema_problems
from mcp_ros_bridge.catalog.language import pick_text
from mcp_ros_bridge.catalog.placeholders import fill_placeholders, unknown_placeholders
from mcp_ros_bridge.catalog.robot import config_path
from mcp_ros_bridge.catalog.schemas import _obj, TEXT

PROMPTS_FILE = 'prompts.yaml'
PROMPTS_SCHEMA: dict[str, Any] = _obj({
    'format': {'const': 1},
    'prompts': {'type': 'array', 'items': _obj({
        'name': {'type': 'string', 'pattern': '^[a-z][a-z0-9_]{0,63}$'},
        'title': TEXT,
        'description': TEXT,
        'arguments': {'type': 'array', 'items': _obj({
            'name': {'type': 'string', 'pattern': '^[a-z][a-z0-9_]{0,31}$'},
            'description': TEXT, 'required': {'type': 'boolean'}})},
        'text': TEXT,
    })},
})


@dataclass(frozen=True)
class PromptArg:
    """One argument of a prompt."""

    name: str
    description: str
    required: bool


@dataclass(frozen=True)
class PromptSpec:
    """One task skill, in the served language."""

    name: str
    title: str
    description: str
    arguments: tuple[PromptArg, ...]
    text: str

    def render(self, values: dict[str, str]) -> str:
        """Return the text with every ``{argument}`` replaced; refuse missing required ones."""
        missing = [a.name for a in self.arguments if a.required and not values.get(a.name)]
        if missing:
            raise ValueError(f"prompt {self.name!r} needs {', '.join(missing)}")
        known = {a.name for a in self.arguments}
        return re.sub(r'\{([a-z][a-z0-9_]*)\}',
                      lambda m: str(values.get(m.group(1), '')) if m.group(1) in known
                      else m.group(0), self.text)


def _verbatim(text: Any, lang: str) -> str:
    """Return the text in ``lang`` (falling back to English) with its line breaks kept."""
    return (text if isinstance(text, str) else str(text.get(lang) or text['en'])).strip()


def load_prompts(config_dir: str, lang: str = 'en',
                 values: dict[str, str] | None = None) -> tuple[PromptSpec, ...]:
    """
    Load ``prompts.yaml`` (the shipped one when absent; none if neither exists).

    ``values`` fill the ``${name}`` robot facts in its texts. Raise ConfigError when invalid.
    """
    if not os.path.isfile(config_path(config_dir, PROMPTS_FILE)):
        return ()
    doc = read_config_file(config_dir, PROMPTS_FILE)
    raise_problems(doc, schema_problems(doc, PROMPTS_SCHEMA, 'prompts.yaml'))
    unknown = sorted(set(unknown_placeholders(doc.data, values or {})))
    if values is not None and unknown:
        raise doc.error(('prompts',), f'unknown placeholder(s) {unknown}; known: {sorted(values)}')
    doc.data = fill_placeholders(doc.data, values or {})
    return tuple(PromptSpec(
        p['name'], pick_text(p['title'], lang), pick_text(p['description'], lang),
        tuple(PromptArg(a['name'], pick_text(a['description'], lang), a['required'])
              for a in p['arguments']),
        _verbatim(p['text'], lang)) for p in doc.data['prompts'])
