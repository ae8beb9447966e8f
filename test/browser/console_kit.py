"""
The browser layer's kit: a real bridge over HTTP, headless Chromium on the console, MCP calls.

The bridge is the real ``mcp-ros-bridge serve`` subprocess (simulation in real
time, so a motion lasts long enough to watch and stop). MCP calls are raw
handshake-era HTTP requests without elicitation (as a host that cannot ask),
made from threads while the browser acts. Every wait is bounded.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from typing import Any

import contract_kits  # noqa: F401 - puts bridge_kit and server_process on the path
from bridge_kit import REPO  # noqa: I100 - on the path contract_kits sets
import httpx2
from mcp_ros_bridge.contract.results import ERROR_META_KEY
from server_process import PORT_LINE, serve_argv, server_env

CHROMIUM = ('/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome')
DRIVER = '/usr/bin/chromedriver'
SHOTS = os.path.join(REPO, 'out', 'console')
TOKEN = 'console-test-token-3f9a'  # the MCP token: never the operator's secret
SECRET_URL = re.compile(r'operator console at (\S+)#secret=(\S+)')


def chromium() -> str | None:
    """Return the system Chromium, if installed."""
    return next((p for p in CHROMIUM if os.path.exists(p)), shutil.which('chromium'))


def missing() -> str | None:
    """Return why the browser layer cannot run here, or None."""
    try:
        import selenium  # noqa: F401 - availability probe
    except ImportError:
        return 'selenium is not installed (pip install selenium)'
    if chromium() is None or not os.path.exists(DRIVER):
        return 'chromium and chromium-driver are not installed (apt-get install chromium ' \
               'chromium-driver)'
    return None


class Bridge:
    """The bridge subprocess: its base URL and log lines."""

    def __init__(self, *flags: str) -> None:
        """Start ``serve --transport http`` with ``flags`` and wait for its port (90 s)."""
        self.process = subprocess.Popen(
            [sys.executable, *serve_argv('--transport', 'http', '--port', '0', *flags,
                                         sim_speed='1')],
            cwd=REPO, env=server_env(TOKEN), stderr=subprocess.PIPE, text=True)
        self.lines: list[str] = []
        found = threading.Event()
        port: list[str] = []

        def drain() -> None:
            assert self.process.stderr is not None
            for line in self.process.stderr:
                self.lines.append(line)
                m = PORT_LINE.search(line)
                if m and not port:
                    port.append(m.group(2))
                    found.set()
            found.set()
        threading.Thread(target=drain, daemon=True).start()
        if not found.wait(90) or not port:
            self.close()
            raise RuntimeError('bridge did not start:\n' + ''.join(self.lines[-20:]))
        self.base = f'http://127.0.0.1:{port[0]}'
        printed = next(m for m in map(SECRET_URL.search, self.lines) if m)
        self.secret = printed.group(2)
        self.secret_url = f'{self.base}/console#secret={self.secret}'  # as printed

    def close(self) -> None:
        """Kill the subprocess."""
        self.process.kill()
        self.process.wait(10)


class Mcp:
    """A handshake-era MCP session over HTTP, usable from several threads."""

    def __init__(self, base: str, name: str = 'browser-test') -> None:
        """Initialize a session at ``base``/mcp with the bearer token, as client ``name``."""
        self.url = base + '/mcp'
        self.http = httpx2.Client(timeout=180)
        self.ids = itertools.count(1)
        self.lock = threading.Lock()
        self.headers = {'Accept': 'application/json, text/event-stream',
                        'Content-Type': 'application/json',
                        'Authorization': f'Bearer {TOKEN}'}
        r = self.http.post(self.url, headers=self.headers, json={
            'jsonrpc': '2.0', 'id': 0, 'method': 'initialize', 'params': {
                'protocolVersion': '2025-11-25', 'capabilities': {},
                'clientInfo': {'name': name, 'version': '0'}}})
        r.raise_for_status()
        self.headers['mcp-session-id'] = r.headers['mcp-session-id']
        self.headers['mcp-protocol-version'] = '2025-11-25'
        self.http.post(self.url, headers=self.headers,
                       json={'jsonrpc': '2.0', 'method': 'notifications/initialized'})
        self.pool = ThreadPoolExecutor(4)

    def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """Call a tool and return its result."""
        with self.lock:
            rid = next(self.ids)
        r = self.http.post(self.url, headers=self.headers, json={
            'jsonrpc': '2.0', 'id': rid, 'method': 'tools/call',
            'params': {'name': name, 'arguments': arguments}})
        r.raise_for_status()
        for line in r.text.splitlines() if not r.text.startswith('{') else [r.text]:
            body = line.removeprefix('data:')
            if body.strip().startswith('{'):
                message = json.loads(body)
                if message.get('id') == rid:
                    return dict(message['result'])
        raise AssertionError(f'no answer to {name}: {r.text[:300]}')

    def start(self, name: str, arguments: dict[str, Any]) -> Future[dict[str, Any]]:
        """Call a tool in a thread; return its future."""
        return self.pool.submit(self.call, name, arguments)

    def close(self) -> None:
        """End the session's client."""
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.http.close()


def code(result: dict[str, Any]) -> str | None:
    """Return the error code of a result (its ``_meta`` error block), if any."""
    return ((result.get('_meta') or {}).get(ERROR_META_KEY) or {}).get('code')


def text(result: dict[str, Any]) -> str:
    """Join the text blocks of a result."""
    return '\n'.join(c.get('text', '') for c in result.get('content', []))


def browser() -> Any:
    """Return headless Chromium (the system's, no download) with its console log kept."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = chromium() or ''
    for arg in ('--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
                '--window-size=900,1600', '--disable-extensions'):
        options.add_argument(arg)
    options.set_capability('goog:loggingPrefs', {'browser': 'ALL'})
    return webdriver.Chrome(service=Service(DRIVER), options=options)


def console_errors(driver: Any) -> list[str]:
    """Return the page's console errors since the last read."""
    return [e['message'] for e in driver.get_log('browser') if e['level'] == 'SEVERE']


def page_errors(driver: Any) -> list[str]:
    """Return the page's own errors since the last read (not failed loads of a gone bridge)."""
    return [e for e in console_errors(driver)
            if 'net::ERR_' not in e and 'Failed to load resource' not in e]


def shot(driver: Any, name: str) -> str:
    """Save a screenshot under out/console/ (ignored by git); return its path."""
    os.makedirs(SHOTS, exist_ok=True)
    path = os.path.join(SHOTS, name + '.png')
    driver.save_screenshot(path)
    return path
