"""Helpers of the hosts layer: run a Node client, and what the server is started with."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import node_env

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
# The transport tests' server launcher (the simulation, or the recording double).
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'contract'))


def run_node(node: str, args: list[str], timeout: float = 300,
             env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``node args`` with the hosts packages resolvable; return the finished process."""
    full_env = {**os.environ, 'HOSTS_NODE_MODULES': node_env.MODULES,
                'PYTHONPATH': REPO + os.pathsep + os.environ.get('PYTHONPATH', ''),
                **(env or {})}
    return subprocess.run([node, *args], capture_output=True, text=True, timeout=timeout,
                          env=full_env, check=False, cwd=REPO)


def last_json(stdout: str) -> Any:
    """Return the last line of ``stdout`` that parses as JSON."""
    for line in reversed(stdout.strip().splitlines()):
        try:
            return json.loads(line)
        except ValueError:
            continue
    raise AssertionError(f'no JSON line in:\n{stdout[-2000:]}')
