"""
``mcp-ros-bridge lint``: check the tool catalog against the rules agents need.

Every finding names the rule, its severity, the tool and parameter path, the file
and line, and a concrete fix. Problems the loader would raise become findings too,
so a broken config is reported, never a traceback. The rules are in ``lint_rules``.
"""

from __future__ import annotations

import argparse
from dataclasses import asdict
import json
from typing import Any

from jsonschema import Draft202012Validator
from mcp_ros_bridge.catalog import lint_model as model, lint_portability as portability
from mcp_ros_bridge.catalog import lint_rules as rules
from mcp_ros_bridge.catalog.kinds import KindRegistry, KindShape
from mcp_ros_bridge.catalog.language import is_text_map, LANGS, localize_schema, pick_text
from mcp_ros_bridge.catalog.lint_languages import check_languages
from mcp_ros_bridge.catalog.lint_model import Finding, Report, RULES
from mcp_ros_bridge.catalog.listing import tool_entry
from mcp_ros_bridge.catalog.loader import (
    ConfigError,
    load_catalog,
    load_robot,
    read_config_file,
    resolve_refs,
    TOOLS_FILE,
)
from mcp_ros_bridge.catalog.robot import default_config_dir, RobotConfig
from mcp_ros_bridge.catalog.schemas import TOOLS_SCHEMA
from mcp_ros_bridge.catalog.yaml_lines import format_path


def _load_finding(exc: ConfigError) -> Finding:
    return Finding('config-load', 'error', '', format_path(exc.path) if exc.path else '',
                   exc.file, exc.line, exc.problem,
                   'fix the file at that line so it loads (the message says what is expected)')


def _kind_of(raw: dict[str, Any], kinds: KindRegistry) -> KindShape | None:
    return kinds.get(raw['kind']) if isinstance(raw.get('kind'), str) else None


def _tool_entry(raw: dict[str, Any], schema: dict[str, Any],
                kind: KindShape | None) -> dict[str, Any]:
    """Approximate the tools/list entry of a tool that did not load completely."""
    annotations: dict[str, Any] = dict(kind.annotations) if kind else {}
    annotations.update({'title': raw.get('title')} | dict(raw.get('annotations') or {}))
    title = raw.get('title')
    return {'name': raw.get('name'), 'title': title['en'] if is_text_map(title) else title,
            'description': pick_text(dict(rules.description_texts(raw.get('description')))
                                     .get('en', ''), 'en'),
            'inputSchema': schema, 'outputSchema': kind.output_schema if kind else {},
            'annotations': annotations}


def _lint_tool(report: Report, i: int, raw: dict[str, Any], robot: RobotConfig,
               robot_data: Any, kinds: KindRegistry) -> dict[str, Any] | None:
    """Apply every per-tool rule; return the resolved input schema when it resolved."""
    name = raw['name'] if isinstance(raw.get('name'), str) else f'tools[{i}]'
    base = ('tools', i)
    rules.check_description(report, i, name, raw.get('description'))
    kind = _kind_of(raw, kinds)
    if kind is None and 'kind' in raw:
        report.add('unknown-kind', name, base, ('kind',), f"unknown kind {raw['kind']!r}",
                   f"use one of {', '.join(sorted(kinds))}")
    try:
        resolve_refs(raw.get('binding') or {}, robot_data, report.doc, base + ('binding',))
        schema = resolve_refs(raw.get('input'), robot_data, report.doc, base + ('input',))
    except ConfigError as exc:
        report.add('robot-ref', name, base, tuple(exc.path[2:]), exc.problem,
                   'point $robot at an existing dotted path of robot.yaml, e.g. '
                   'gripper.max_force_n or limits.workspace.max.0')
        return None
    if not isinstance(schema, dict):
        return None
    check_languages(report, i, name, raw, schema)
    schema = localize_schema(schema, 'en')
    meta = list(Draft202012Validator(Draft202012Validator.META_SCHEMA).iter_errors(schema))
    for err in meta:
        report.add('schema-valid', name, base, ('input',) + tuple(err.absolute_path),
                   f'not a valid JSON Schema (Draft 2020-12): {err.message}',
                   'correct this keyword; see json-schema.org/draft/2020-12 for its form')
    if meta:
        return schema
    if schema.get('type') != 'object':
        report.add('schema-object', name, base, ('input', 'type'),
                   f"input has type {schema.get('type')!r}; tool arguments are an object",
                   'set type: object and list the parameters under properties')
    if kind is not None and '*' not in kind.parameters:
        for param in sorted(set(schema.get('properties') or {}) - kind.parameters):
            report.add('kind-parameter', name, base, ('input', 'properties', param),
                       f'kind {kind.name!r} does not use parameter {param!r}',
                       f"remove it; {kind.name} accepts {sorted(kind.parameters) or 'none'}")
    rules.check_structure(report, i, name, schema)
    portability.check_portable(report, i, name, schema)
    rules.check_parameters(report, i, name, schema)
    if kind is not None:
        rules.check_limits(report, i, name, kind.parameters, schema, robot)
    return schema


def _covered(report: Report, line: int | None, path: tuple[Any, ...] | None = None) -> bool:
    """Return True when an error finding is on ``line`` or at or below ``path``."""
    return any(f.severity == 'error' and ((line is not None and f.line == line)
                                          or (path is not None and where[:len(path)] == path))
               for f, where in report.items)


def lint_config(config_dir: str, kinds: KindRegistry, lang: str = 'en') -> list[Finding]:
    """
    Lint ``robot.yaml`` + ``tools.yaml`` in ``config_dir`` for the kind registry ``kinds``.

    Every language is checked; the token estimate measures the list served in ``lang``.
    """
    try:
        robot, robot_doc = load_robot(config_dir)
        doc = read_config_file(config_dir, TOOLS_FILE)
    except ConfigError as exc:
        return [_load_finding(exc)]
    report = Report(doc)
    data = doc.data if isinstance(doc.data, dict) else {}
    found = data.get('tools')
    raw_tools: list[Any] = found if isinstance(found, list) else []
    rules.check_identity(report, raw_tools)
    entries = []
    for i, raw in enumerate(raw_tools):
        if isinstance(raw, dict):
            schema = _lint_tool(report, i, raw, robot, robot_doc.data, kinds)
            entries.append(_tool_entry(raw, schema if schema is not None else {},
                                       _kind_of(raw, kinds)))
    fmt = Report(doc)
    for err in sorted(Draft202012Validator(TOOLS_SCHEMA).iter_errors(doc.data),
                      key=lambda e: list(map(str, e.absolute_path))):
        path = tuple(err.absolute_path)
        if not _covered(report, doc.line_of(path)):
            split = 2 if _tool_label(raw_tools, path) else 0
            fmt.add('config-format', _tool_label(raw_tools, path), path[:split], path[split:],
                    f'{err.message} (expected by the tools.yaml format)',
                    'follow the tools.yaml format described at the top of the shipped file')
    report.items.extend(fmt.items)
    by_lang = {lang: entries for lang in LANGS}
    try:
        by_lang = {lang: [tool_entry(t) for t in load_catalog(config_dir, lang, kinds=kinds).tools]
                   for lang in LANGS}
        entries = by_lang[lang]
    except ConfigError as exc:
        if not _covered(report, exc.line, exc.path):
            report.items.append((_load_finding(exc), exc.path))
    if len(raw_tools) > model.MAX_TOOLS:
        report.add('max-tools', '', (), ('tools',),
                   f'{len(raw_tools)} tools; agents pick worse among more than {model.MAX_TOOLS}',
                   'merge similar tools, or split the catalog per task with backends/configs')
    size = {k: portability.check_list_size(report, by_lang[k], k) for k in LANGS}[lang]
    chars = len(json.dumps({'tools': entries}, separators=(',', ':'), ensure_ascii=False))
    tokens = -(-chars // model.CHARS_PER_TOKEN)
    report.add('token-estimate', '', (), ('tools',),
               f'tools/list of {len(entries)} tools is {size} bytes ({chars} characters), '
               f'about {tokens} tokens of every conversation; the budget is '
               f'{model.MAX_LIST_BYTES} bytes', 'keep descriptions tight if this grows',
               value=tokens)
    order = {s: k for k, s in enumerate(model.SEVERITIES)}
    return sorted(report.findings, key=lambda f: (f.severity == 'info', f.file, f.line or 0,
                                                  order[f.severity], f.rule))


def _tool_label(raw_tools: list[Any], path: tuple[Any, ...]) -> str:
    if len(path) >= 2 and path[0] == 'tools' and isinstance(path[1], int) \
            and path[1] < len(raw_tools) and isinstance(raw_tools[path[1]], dict):
        name = raw_tools[path[1]].get('name')
        return name if isinstance(name, str) else f'tools[{path[1]}]'
    return ''


def counts(findings: list[Finding]) -> dict[str, int]:
    """Return the number of findings per severity."""
    return {s: sum(f.severity == s for f in findings) for s in model.SEVERITIES}


def token_estimate(findings: list[Finding]) -> int | None:
    """Return the estimated token size of tools/list, if the lint measured it."""
    return next((f.value for f in findings if f.rule == 'token-estimate'), None)


def format_findings(findings: list[Finding]) -> str:
    """Render one line per finding, then a summary with counts and the token estimate."""
    lines = []
    for f in findings:
        where = f'{f.file}:{f.line}' if f.line else f.file
        subject = '/'.join(p for p in (f.tool, f.path) if p) or '-'
        lines.append(f"{where}: {f.severity} {f.rule} {subject}: {f.message.rstrip('.')}. "
                     f'Fix: {f.fix}')
    n = counts(findings)
    tokens = token_estimate(findings)
    size = f'; tools/list ~{tokens} tokens' if tokens is not None else ''
    lines.append(f"{n['error']} error(s), {n['warning']} warning(s), {n['info']} info{size}")
    return '\n'.join(lines)


def main(argv: list[str] | None, kinds: KindRegistry) -> int:
    """Run ``mcp-ros-bridge lint [CONFIG_DIR] [--json]``; return 1 when errors were found."""
    parser = argparse.ArgumentParser(
        prog='mcp-ros-bridge lint',
        description='Check config/tools.yaml and robot.yaml against the catalog rules.',
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog='rules:\n' + '\n'.join(f'  {r.rule_id} ({r.severity}): {r.text}'
                                      for r in RULES.values()))
    parser.add_argument('config_dir', nargs='?', default=None,
                        help='directory with robot.yaml and tools.yaml (default: the shipped)')
    parser.add_argument('--json', action='store_true', help='print the findings as JSON')
    parser.add_argument('--lang', choices=LANGS, default='en',
                        help='language whose tools/list size the token estimate measures')
    args = parser.parse_args(argv)
    findings = lint_config(args.config_dir or default_config_dir(), kinds, args.lang)
    if args.json:
        print(json.dumps({'findings': [asdict(f) for f in findings],
                          'summary': counts(findings) | {'tokens': token_estimate(findings)}},
                         indent=2, ensure_ascii=False))
    else:
        print(format_findings(findings))
    return 1 if any(f.severity == 'error' for f in findings) else 0
