"""
The official MCP conformance suite against the real server over Streamable HTTP.

Every scenario of the active suite must pass except those in
``conformance-baseline.yml``, which lists only scenarios that do not apply (the
reference server's demo tools, capabilities this server does not declare). A
baseline entry that starts passing fails the run too (the suite's own rule).
"""

from __future__ import annotations

import os
from pathlib import Path

import anyio
from hosts_kit import HERE, run_node
import httpx2
import node_env
import pytest
from raw_http import INIT_PARAMS, JSON_HEADERS, sse_messages
from server_process import http_server
import yaml

pytestmark = [pytest.mark.hosts, pytest.mark.anyio]
BASELINE = os.path.join(HERE, 'conformance-baseline.yml')
# Baseline scenarios that apply as soon as the server declares the capability.
GATED = {'logging-set-level': 'logging', 'completion-complete': 'completions',
         'resources-list': 'resources', 'prompts-list': 'prompts'}


async def _capabilities(url: str) -> dict:
    """Return the capabilities the server declares to a 2025-11-25 client."""
    async with httpx2.AsyncClient(timeout=httpx2.Timeout(30)) as h:
        r = await h.post(url, headers=JSON_HEADERS, json={
            'jsonrpc': '2.0', 'id': 1, 'method': 'initialize', 'params': INIT_PARAMS})
        r.raise_for_status()
        return sse_messages(r.text)[0]['result']['capabilities']


async def test_conformance_suite_passes_every_applicable_scenario(node: str, tmp_path) -> None:
    """`conformance server --url ... --expected-failures` exits 0."""
    expected = yaml.safe_load(Path(BASELINE).read_text(encoding='utf-8'))['server']
    async with http_server(None) as (url, log_lines):
        declared = await _capabilities(url)
        applies = [s for s in expected if GATED.get(s) in declared]
        baseline = tmp_path / 'baseline.yml'
        baseline.write_text(yaml.safe_dump(
            {'server': [s for s in expected if s not in applies]}), encoding='utf-8')
        proc = await anyio.to_thread.run_sync(lambda: run_node(node, [
            node_env.bin_script('conformance'), 'server', '--url', url,
            '--expected-failures', str(baseline), '-o', str(tmp_path / 'results')]))
    summary = proc.stdout[proc.stdout.find('=== SUMMARY'):]
    assert proc.returncode == 0, f'{summary}\n{proc.stderr[-3000:]}'
    passed = [line for line in summary.splitlines() if line.startswith('✓')]
    assert len(passed) >= 5, summary
    assert not [line for line in log_lines if 'Traceback' in line], '\n'.join(log_lines)
