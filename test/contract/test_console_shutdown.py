"""An open console page does not keep the HTTP server from stopping (SIGINT, as Ctrl-C)."""

from __future__ import annotations

import re
import signal
import subprocess
import sys

from bridge_kit import REPO
import httpx2
import pytest
from server_process import serve_argv, server_env

pytestmark = pytest.mark.contract
URL_LINE = re.compile(r'operator console at (http://\S+/console)')


def test_sigint_ends_the_server_while_a_console_stream_is_open() -> None:
    """The console's event stream ends with the server; the process exits 0, promptly."""
    process = subprocess.Popen([sys.executable, *serve_argv('--transport', 'http', '--port', '0')],
                               cwd=REPO, env=server_env(None), stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        url = next(m.group(1) for m in map(URL_LINE.search, process.stderr) if m)
        with httpx2.Client(timeout=60) as http, http.stream('GET', url + '/events') as stream:
            lines = stream.iter_lines()
            assert next(lines) == 'event: hello'
            process.send_signal(signal.SIGINT)
            rest = list(lines)  # ends when the server ends the stream
        assert process.wait(30) == 0
        assert all(not line.startswith('event: hello') for line in rest)
    finally:
        process.kill()
        process.wait(10)
