"""
A recorded session over the real stdio server: its log lines, console URL and recording file.

The server runs as ``mcp-ros-bridge serve --record DIR --console-port 0`` on the
simulation; the SDK client talks to it over stdio (its stderr goes to a pipe
read by a thread, so the test waits for log lines without polling).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
import os
import queue
import re
import sys
import threading
from typing import Any, TextIO

import contract_kits  # noqa: F401 - puts bridge_kit and server_process on the path
from bridge_kit import APPROVAL_EDIT, copy_config, REPO  # noqa: I100 - on that path
import httpx2
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
import mcp_types as types
from server_process import serve_argv, server_env

URL_LINE = re.compile(r'operator console at (http://127\.0\.0\.1:\d+)/console#secret=(\S+)')
FILE_LINE = re.compile(r'recording the session to (\S+-(\d+)-1\.mcap)')
WAIT_S = 120.0


@dataclass
class Served:
    """The running server as the test sees it."""

    client: Client
    console: str = ''
    secret: str = ''  # the operator's, printed by the bridge beside the console URL
    path: str = ''
    pid: int = 0
    lines: list[str] = field(default_factory=list)

    def console_post(self, action: str) -> dict[str, Any]:
        """POST an operator action (stop, release) to the console, as its page does."""
        reply = httpx2.post(f'{self.console}/console/{action}', json={}, timeout=60,
                            headers={'Origin': self.console,
                                     'Authorization': f'Bearer {self.secret}'})
        assert reply.status_code == 200, reply.text
        return dict(reply.json())


class _Log:
    """The server's stderr, line by line, from a pipe."""

    def __init__(self) -> None:
        read_fd, write_fd = os.pipe()
        self.writer: TextIO = os.fdopen(write_fd, 'w')
        self.found: queue.Queue[str] = queue.Queue()
        self.lines: list[str] = []
        threading.Thread(target=self._drain, args=(os.fdopen(read_fd),), daemon=True).start()

    def _drain(self, reader: TextIO) -> None:
        for line in reader:
            self.lines.append(line)
            self.found.put(line)

    def wait_for(self, pattern: re.Pattern[str]) -> re.Match[str]:
        """Return the first line after the ones seen that matches ``pattern`` (bounded)."""
        while True:
            match = pattern.search(self.found.get(timeout=WAIT_S))
            if match:
                return match


async def approve(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
    """Approve the motion, as the host's user does."""
    return types.ElicitResult(action='accept', content={'approve': True})


@asynccontextmanager
async def recorded_server(tmp: str, *flags: str) -> AsyncIterator[Served]:
    """Serve over stdio with recording into ``tmp/rec``; move_arm_to_pose needs approval."""
    config = copy_config(os.path.join(tmp, 'cfg'), APPROVAL_EDIT)
    params = StdioServerParameters(command=sys.executable, cwd=REPO, env=server_env(None),
                                   args=serve_argv('--record', os.path.join(tmp, 'rec'),
                                                   '--config', config, '--console-port', '0',
                                                   *flags, sim_speed='1'))
    log = _Log()
    try:
        async with Client(stdio_client(params, errlog=log.writer), mode='legacy',
                          elicitation_callback=approve) as client:
            recording = log.wait_for(FILE_LINE)
            printed = log.wait_for(URL_LINE)
            served = Served(client, printed.group(1), printed.group(2), recording.group(1),
                            int(recording.group(2)), log.lines)
            yield served
    finally:
        log.writer.close()
