"""
Lint rule ``shared-wording``: a parameter shared by several tools has one wording.

Every tool's schema describes each of its parameters (a host shows one tool at a time);
the same parameter (name and schema) reads the same in every tool that has it, so a
model learns one meaning for one name.
"""

from __future__ import annotations

import json
from typing import Any

from mcp_ros_bridge.catalog.checks import CheckedTool
from mcp_ros_bridge.catalog.lint_model import Report


def _without_texts(schema: dict[str, Any]) -> str:
    """Return ``schema`` without its own description, as a comparable key."""
    return json.dumps({k: v for k, v in schema.items() if k != 'description'}, sort_keys=True)


def check_shared_wording(report: Report, tools: list[CheckedTool]) -> None:
    """Warn where a top-level parameter repeats an earlier tool's but is worded differently."""
    first: dict[tuple[str, str], tuple[str, Any]] = {}  # (name, schema) -> (tool, description)
    for tool in tools:
        for name, sub in (tool.schema.get('properties') or {}).items():
            if not isinstance(sub, dict) or 'description' not in sub:
                continue
            owner, text = first.setdefault((name, _without_texts(sub)),
                                           (tool.name, sub['description']))
            if owner != tool.name and text != sub['description']:
                report.add('shared-wording', tool.name, ('tools', tool.index),
                           ('input', 'properties', name, 'description'),
                           f"{name} has the schema of {owner}'s {name} but other words",
                           f"use the description of {owner}'s {name} word for word")
