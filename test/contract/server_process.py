"""
The real server in a subprocess, for transport tests: argv, environment, HTTP start-up.

The subprocess is ``mcp-ros-bridge serve`` on the simulation when the simulation
backend imports, otherwise the test-only launcher ``serve_recording.py`` on the
recording double. Every wait is bounded and the process is always killed.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
import os
import re
import sys
import tempfile
from typing import Any

import anyio
from anyio.abc import Process
from bridge_kit import REPO

try:
    from mcp_ros_bridge.backends.sim import SimBackend  # noqa: F401 - availability probe
    SIM = True
except Exception:  # noqa: BLE001 - any import failure means: use the launcher
    SIM = False

LAUNCHER = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'serve_recording.py')
# Runs the rest of argv with RLIMIT_NOFILE soft = hard = argv[1] (the same process).
FILE_LIMIT = ('import os, resource, sys; n = int(sys.argv[1]); '
              'resource.setrlimit(resource.RLIMIT_NOFILE, (n, n)); '
              'os.execv(sys.executable, [sys.executable, *sys.argv[2:]])')
PORT_LINE = re.compile(r'serving MCP over HTTP at http://([0-9.]+):(\d+)/mcp')


def serve_argv(*flags: str, sim_speed: str = '0', watch: bool = False) -> list[str]:
    """Return the argv (after the interpreter) that serves the bridge with ``flags``."""
    if SIM:
        return ['-m', 'mcp_ros_bridge.cli', 'serve', '--sim-speed', sim_speed,
                *([] if watch else ['--no-watch']), *flags]
    return [LAUNCHER, *flags]


def server_env(token: str | None) -> dict[str, str]:
    """Return the subprocess environment, with or without the bearer token."""
    env = {k: v for k, v in os.environ.items() if k != 'MCP_ROS_BRIDGE_TOKEN'}
    env['PYTHONPATH'] = REPO + os.pathsep + env.get('PYTHONPATH', '')
    # A state directory of its own (the kept operator hold): no bridge inherits another's hold.
    env['XDG_STATE_HOME'] = tempfile.mkdtemp(prefix='bridge-state-')
    if token:
        env['MCP_ROS_BRIDGE_TOKEN'] = token
    return env


class LogLines(list[str]):
    """The server's log lines as they arrive; :meth:`wait_for` waits for one (no polling)."""

    def __init__(self) -> None:
        """Start empty."""
        super().__init__()
        self._grew = anyio.Event()

    def add(self, line: str) -> None:
        """Append a line and wake the waiters."""
        self.append(line)
        grew, self._grew = self._grew, anyio.Event()
        grew.set()

    async def wait_for(self, text: str, start: int = 0) -> str:
        """Return the first line from ``start`` on containing ``text``; the caller bounds it."""
        while True:
            grew = self._grew
            found = [line for line in self[start:] if text in line]
            if found:
                return found[0]
            await grew.wait()


async def _drain(stream: Any, lines: LogLines, port_found: anyio.Event,
                 port: list[int]) -> None:
    buffer = b''
    async for chunk in stream:
        buffer += chunk
        while b'\n' in buffer:
            line, buffer = buffer.split(b'\n', 1)
            text = line.decode('utf-8', 'replace')
            lines.add(text)
            m = PORT_LINE.search(text)
            if m and not port_found.is_set():
                port.append(int(m.group(2)))
                port_found.set()


@asynccontextmanager
async def http_server(token: str | None, host: str = '127.0.0.1', sim_speed: str = '0',
                      flags: tuple[str, ...] = (), watch: bool = False,
                      pids: list[int] | None = None, file_limit: int | None = None
                      ) -> AsyncIterator[tuple[str, LogLines]]:
    """
    Start the server over HTTP on a free port of ``host``; yield its URL and log lines.

    ``pids``, if given, receives the server's process id (to read its memory);
    ``file_limit`` sets its soft and hard open-file limit.
    """
    lines = LogLines()
    port: list[int] = []
    found = anyio.Event()
    limit = ['-c', FILE_LIMIT, str(file_limit)] if file_limit else []
    process: Process = await anyio.open_process(
        [sys.executable, *limit, *serve_argv('--transport', 'http', '--host', host, '--port',
                                             '0', *flags, sim_speed=sim_speed, watch=watch)],
        cwd=REPO, env=server_env(token))
    if pids is not None:
        pids.append(process.pid)
    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(_drain, process.stderr, lines, found, port)
            with anyio.fail_after(90):
                await found.wait()
            yield f'http://{host}:{port[0]}/mcp', lines
            tg.cancel_scope.cancel()
    finally:
        if process.returncode is None:
            process.kill()
        with anyio.move_on_after(10, shield=True):
            await process.wait()
