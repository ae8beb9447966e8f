"""
``mcp-ros-bridge lint``: check the tool catalog against the rules agents need.

Every finding names the rule, its severity, the tool and parameter path, the file
and line, and a concrete fix. The loader's own pass (``checks``) finds what keeps
the config from loading, so a broken config is reported, never a traceback; the
advice rules in ``lint_rules`` and its siblings come on top.
"""

from __future__ import annotations

import argparse
from dataclasses import asdict
import json

from mcp_ros_bridge.catalog import lint_audience as audience, lint_model as model
from mcp_ros_bridge.catalog import lint_portability as portability
from mcp_ros_bridge.catalog import lint_rules as rules
from mcp_ros_bridge.catalog.checks import check_config, CheckedTool
from mcp_ros_bridge.catalog.kinds import KindRegistry
from mcp_ros_bridge.catalog.language import LANGS, localize_schema
from mcp_ros_bridge.catalog.lint_languages import check_languages
from mcp_ros_bridge.catalog.lint_model import Finding, Report, RULES
from mcp_ros_bridge.catalog.lint_shared import check_shared_wording
from mcp_ros_bridge.catalog.listing import list_json, model_visible, tool_entries
from mcp_ros_bridge.catalog.loader import tool_spec
from mcp_ros_bridge.catalog.placeholders import text_values
from mcp_ros_bridge.catalog.prompts import load_prompts
from mcp_ros_bridge.catalog.robot import default_config_dir
from mcp_ros_bridge.catalog.token_count import count_tokens
from mcp_ros_bridge.catalog.yaml_lines import ConfigError, format_path


def _advise(report: Report, tool: CheckedTool) -> None:
    """Apply the advice rules to one tool whose input is a valid JSON Schema."""
    i, name, raw = tool.index, tool.name, tool.raw
    rules.check_naming(report, i, name, raw['title'])
    rules.check_description(report, i, name, raw['description'])
    check_languages(report, i, name, raw, tool.schema)
    schema = localize_schema(tool.schema, 'en')
    rules.check_structure(report, i, name, schema)
    portability.check_portable(report, i, name, schema)
    rules.check_parameters(report, i, name, schema)


def _check_prompts(report: Report, config_dir: str, values: dict[str, str]) -> None:
    """Report a prompts.yaml that does not load (format, YAML, unknown placeholders)."""
    for lang in LANGS:
        try:
            load_prompts(config_dir, lang, values)
        except ConfigError as exc:
            report.items.append((Finding('config-load', 'error', '', format_path(exc.path),
                                         exc.file, exc.line, exc.problem,
                                         'fix prompts.yaml at that line so it loads'), exc.path))
            return


def lint_config(config_dir: str, kinds: KindRegistry, lang: str = 'en') -> list[Finding]:
    """
    Lint ``robot.yaml`` + ``tools.yaml`` in ``config_dir`` for the kind registry ``kinds``.

    The loader's checks (``checks.check_config``) report every problem, then the advice
    rules run; every language is checked, the token estimate measures the list in ``lang``.
    """
    checked = check_config(config_dir, kinds)
    if checked.doc is None:  # robot.yaml or tools.yaml does not load at all
        return [f for f, _ in checked.items]
    report = Report(checked.doc, checked.items)
    for tool in checked.tools:
        _advise(report, tool)
    if checked.robot is not None:
        _check_prompts(report, config_dir, text_values(checked.robot))
    loading = [t for t in checked.tools if t.loads]
    check_shared_wording(report, loading)
    by_lang = {k: tool_entries([tool_spec(t, k) for t in loading], k) for k in LANGS}
    data = checked.doc.data
    count = len(data['tools']) if isinstance(data, dict) and isinstance(
        data.get('tools'), list) else 0
    if count > model.MAX_TOOLS:
        report.add('max-tools', '', (), ('tools',),
                   f'{count} tools; agents pick worse among more than {model.MAX_TOOLS}',
                   'merge similar tools, or split the catalog per task with backends/configs')
    size = {k: portability.check_list_size(report, by_lang[k], k) for k in LANGS}[lang]
    entries = by_lang[lang]
    chars = len(list_json(entries))
    seen = len(list_json(model_visible(entries)))
    tokens, how = count_tokens(list_json(entries))
    seen_tokens, _ = count_tokens(list_json(model_visible(entries)))
    en_seen = model_visible(by_lang['en'])
    audience.check_model_size(report, len(list_json(en_seen)), len(en_seen))
    index = {t.name: t.index for t in loading}
    for k in LANGS:
        audience.check_audience(report, model_visible(by_lang[k]), index, k)
    report.add('token-estimate', '', (), ('tools',),
               f'tools/list of {len(entries)} tools is {size} bytes ({chars} characters), '
               f'about {tokens} tokens ({how}); the budget is {model.MAX_LIST_BYTES} bytes',
               'keep descriptions tight if this grows', value=tokens)
    over = seen_tokens - model.MAX_MODEL_TOKENS
    report.add('token-estimate-model', '', (), ('tools',),
               f'the part hosts pass to the model (name, title, description, inputSchema) is '
               f'{seen} characters, about {seen_tokens} tokens ({how}, {lang}) of every '
               f'conversation; the budget is {model.MAX_MODEL_TOKENS} tokens'
               + (f', {over} over' if over > 0 else '')
               + f' (and {audience.MAX_MODEL_CHARS:,} characters in en)',
               'keep descriptions and parameter texts tight', value=seen_tokens)
    order = {s: k for k, s in enumerate(model.SEVERITIES)}
    return sorted(report.findings, key=lambda f: (f.severity == 'info', f.file, f.line or 0,
                                                  order[f.severity], f.rule))


def counts(findings: list[Finding]) -> dict[str, int]:
    """Return the number of findings per severity."""
    return {s: sum(f.severity == s for f in findings) for s in model.SEVERITIES}


def token_estimate(findings: list[Finding]) -> int | None:
    """Return the estimated token size of tools/list, if the lint measured it."""
    return next((f.value for f in findings if f.rule == 'token-estimate'), None)


def model_token_estimate(findings: list[Finding]) -> int | None:
    """Return the estimated tokens of the model-visible part of tools/list, if measured."""
    return next((f.value for f in findings if f.rule == 'token-estimate-model'), None)


def format_findings(findings: list[Finding]) -> str:
    """Render one line per finding, then a summary with counts and the token estimate."""
    lines = []
    for f in findings:
        where = f'{f.file}:{f.line}' if f.line else f.file
        subject = '/'.join(p for p in (f.tool, f.path) if p) or '-'
        lines.append(f"{where}: {f.severity} {f.rule} {subject}: {f.message.rstrip('.')}. "
                     f'Fix: {f.fix}')
    n = counts(findings)
    tokens, seen = token_estimate(findings), model_token_estimate(findings)
    size = (f'; tools/list ~{tokens} tokens, ~{seen} of them seen by the model'
            if tokens is not None else '')
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
                          'summary': counts(findings) | {
                              'tokens': token_estimate(findings),
                              'model_tokens': model_token_estimate(findings)}},
                         indent=2, ensure_ascii=False))
    else:
        print(format_findings(findings))
    return 1 if any(f.severity == 'error' for f in findings) else 0
