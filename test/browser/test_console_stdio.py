"""
Beside a stdio host (as under Claude Desktop): the console on its own loopback port.

The real server runs over stdio with ``--console-port 0``; the test speaks
newline-delimited JSON-RPC on its pipes as a host does, reads the console's URL
from the start-up line, and drives the page in headless Chromium.
"""

from __future__ import annotations

from collections.abc import Iterator
import json
import queue
import re
import subprocess
import sys
import threading
from typing import Any

from console_kit import console_errors, ERROR_META_KEY, REPO, shot
import pytest
from server_process import serve_argv, server_env
from test_console import until

pytestmark = pytest.mark.browser
URL_LINE = re.compile(r'operator console at (http://127\.0\.0\.1:\d+/console)#secret=(\S+)')


class StdioHost:
    """The bridge as a stdio host runs it: JSON-RPC lines on stdin/stdout, a log on stderr."""

    def __init__(self) -> None:
        """Start it and wait (90 s) for the console's URL."""
        self.process = subprocess.Popen(
            [sys.executable, *serve_argv('--console-port', '0', sim_speed='1')], cwd=REPO,
            env=server_env(None), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, bufsize=1)
        self.answers: queue.Queue[dict[str, Any]] = queue.Queue()
        found: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read_log, args=(found,), daemon=True).start()
        threading.Thread(target=self._read_answers, daemon=True).start()
        self.url = found.get(timeout=90)
        self.ids = iter(range(1, 10_000))
        self.request('initialize', {'protocolVersion': '2025-11-25', 'capabilities': {},
                                    'clientInfo': {'name': 'stdio-host', 'version': '0'}})
        self.send({'jsonrpc': '2.0', 'method': 'notifications/initialized'})

    def _read_log(self, found: queue.Queue[str]) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            m = URL_LINE.search(line)
            if m:
                self.secret = m.group(2)
                found.put(m.group(1))

    def _read_answers(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            message = json.loads(line)
            if 'id' in message:
                self.answers.put(message)

    def send(self, message: dict[str, Any]) -> None:
        """Write one JSON-RPC message."""
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message) + '\n')
        self.process.stdin.flush()

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Send a request and return its result (120 s at most)."""
        rid = next(self.ids)
        self.send({'jsonrpc': '2.0', 'id': rid, 'method': method, 'params': params})
        answer = self.answers.get(timeout=120)
        assert answer['id'] == rid, answer
        return dict(answer['result'])

    def close(self) -> None:
        """End stdin (the host leaves), then make sure the process is gone."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)


@pytest.fixture
def host(chromium: None) -> Iterator[StdioHost]:
    """Run the bridge over stdio with its console on a free loopback port."""
    served = StdioHost()
    try:
        yield served
    finally:
        served.close()


def test_console_beside_stdio_holds_the_stdio_host(host: StdioHost, driver: Any) -> None:
    """The stdio bridge's console is live; its STOP holds the motions the stdio host asks."""
    driver.get(f'{host.url}#secret={host.secret}')  # the URL the bridge printed on stderr
    until(driver, 'return window.consoleView && window.consoleView.operator && '
                  'window.consoleView.rendered.state > 0')
    resources = host.request('resources/list', {})['resources']
    assert any(r['uri'] == 'robot://console' for r in resources)
    app = next(r for r in resources if r['uri'].startswith('ui://'))
    assert app['mimeType'] == 'text/html;profile=mcp-app'
    where = host.request('resources/read', {'uri': 'robot://console'})['contents'][0]
    assert json.loads(where['text'])['url'] == host.url
    assert host.secret not in where['text'], 'the agent is not given the secret'
    driver.find_element('id', 'stop').click()
    until(driver, "return !document.getElementById('held').hidden")
    refused = host.request('tools/call', {'name': 'move_arm_to_posture',
                                          'arguments': {'posture': 'ready'}})
    assert refused['_meta'][ERROR_META_KEY]['code'] == 'OPERATOR_HOLD'
    view = host.request('resources/read', {'uri': app['uri']})['contents'][0]
    assert 'HELD' in view['text'] and '<script' not in view['text']
    shot(driver, 'console-stdio-held')
    driver.find_element('id', 'release').click()
    until(driver, "return document.getElementById('held').hidden")
    moved = host.request('tools/call', {'name': 'move_arm_to_posture',
                                        'arguments': {'posture': 'ready'}})
    assert not moved.get('isError'), moved
    assert console_errors(driver) == []
    host.close()  # the host leaves: the page says it is no longer live
    until(driver, "return document.getElementById('live').className.includes('dead')")
    assert 'NOT LIVE' in driver.find_element('id', 'live').text
    driver.get_log('browser')  # the failed reconnects are expected errors now
