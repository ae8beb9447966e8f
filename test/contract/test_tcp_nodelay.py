"""
Responses leave at once: every listening socket's connections have ``TCP_NODELAY``.

Without it, uvicorn's response head and body are two small writes and Nagle holds
the body until the client's delayed ACK of the head, 40 ms or more on Linux, on
every call of a keep-alive connection. The real server runs in a subprocess (MCP
over HTTP, and the console on its own port beside stdio); the test speaks raw
HTTP/1.1 over one keep-alive socket, reads the option on the server's own end of
that connection (``pidfd_getfd``: a copy of the server's descriptor), and times
sequential calls against the stall: the fastest of 20 must beat 30 ms, which a
stalled connection never does and a loaded machine does many times over.
"""

from __future__ import annotations

from collections.abc import Iterator
import contextlib
import ctypes
import errno
import json
import os
import queue
import re
import socket
import subprocess
import sys
import threading
import time
from typing import Any

from bridge_kit import REPO
import h11
import pytest
from server_process import PORT_LINE, serve_argv, server_env

STALL_FREE_MS = 30.0  # the delayed-ACK stall alone is >= 40 ms
CONSOLE_LINE = re.compile(r'http://127\.0\.0\.1:(\d+)/console')
SYS_PIDFD_GETFD = {'x86_64': 438, 'aarch64': 438}.get(os.uname().machine)


@contextlib.contextmanager
def server(*flags: str, line: re.Pattern[str]) -> Iterator[tuple[int, int]]:
    """Run the server with ``flags`` until its log shows ``line``; yield (pid, port)."""
    proc = subprocess.Popen([sys.executable, *serve_argv(*flags)], cwd=REPO,
                            env=server_env(None), stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    ports: queue.Queue[int] = queue.Queue()

    def read_log() -> None:
        assert proc.stderr is not None
        for text in proc.stderr:
            m = line.search(text)
            if m:
                ports.put(int(m.groups()[-1]))

    threading.Thread(target=read_log, daemon=True).start()
    try:
        yield proc.pid, ports.get(timeout=90)
    finally:
        proc.kill()
        proc.wait(timeout=10)


class RawClient:
    """HTTP/1.1 requests, one after another, on one keep-alive socket."""

    def __init__(self, port: int) -> None:
        """Connect to ``port`` on loopback."""
        self.port = port
        self.sock = socket.create_connection(('127.0.0.1', port), timeout=30)
        self.http = h11.Connection(h11.CLIENT)

    def request(self, method: str, target: str, body: Any = None,
                headers: tuple[tuple[str, str], ...] = ()) -> tuple[h11.Response, bytes]:
        """Send one request, read its whole response; return it and its body."""
        data = b'' if body is None else json.dumps(body).encode()
        head = [('Host', f'127.0.0.1:{self.port}'), ('Content-Length', str(len(data))),
                ('Content-Type', 'application/json'),
                ('Accept', 'application/json, text/event-stream'), *headers]
        self.sock.sendall(self.http.send(h11.Request(method=method, target=target,
                                                     headers=head))
                          + self.http.send(h11.Data(data=data))
                          + self.http.send(h11.EndOfMessage()))
        response, chunks = None, []
        while True:
            event = self.http.next_event()
            if event is h11.NEED_DATA:
                self.http.receive_data(self.sock.recv(65536))
            elif isinstance(event, h11.Response):
                response = event
            elif isinstance(event, h11.Data):
                chunks.append(event.data)
            elif isinstance(event, h11.EndOfMessage):
                break
        self.http.start_next_cycle()
        assert response is not None
        return response, b''.join(chunks)

    def timed(self, calls: int, *args: Any, **kwargs: Any) -> list[float]:
        """Return the wall ms of ``calls`` sequential requests (each answered 200)."""
        found = []
        for _ in range(calls):
            t0 = time.perf_counter()
            response, _ = self.request(*args, **kwargs)
            found.append((time.perf_counter() - t0) * 1000.0)
            assert response.status_code == 200
        return found


def server_nodelay(pid: int, client: socket.socket) -> int:
    """Return TCP_NODELAY of the server's end of ``client``'s connection (a copied descriptor)."""
    if SYS_PIDFD_GETFD is None:
        pytest.skip(f'pidfd_getfd number unknown on {os.uname().machine}')
    libc = ctypes.CDLL(None, use_errno=True)
    pidfd = os.pidfd_open(pid)
    try:
        for fd in os.listdir(f'/proc/{pid}/fd'):
            with contextlib.suppress(OSError):
                if not os.readlink(f'/proc/{pid}/fd/{fd}').startswith('socket:'):
                    continue
            copy = libc.syscall(SYS_PIDFD_GETFD, pidfd, int(fd), 0)
            if copy < 0:
                code = ctypes.get_errno()
                if code in (errno.EPERM, errno.ENOSYS):
                    pytest.skip(f'pidfd_getfd refused here: {os.strerror(code)}')
                continue
            with socket.socket(fileno=copy) as sock:
                if sock.type != socket.SOCK_STREAM or sock.family != client.family:
                    continue
                with contextlib.suppress(OSError):
                    if sock.getpeername() == client.getsockname():
                        return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
    finally:
        os.close(pidfd)
    raise AssertionError(f'no socket of process {pid} is connected to {client.getsockname()}')


def test_mcp_over_http_answers_without_the_delayed_ack_stall() -> None:
    """Sequential tools/call on one connection: server end has NODELAY, no 40 ms stall."""
    with server('--transport', 'http', '--port', '0', line=PORT_LINE) as (pid, port):
        client = RawClient(port)
        response, _ = client.request('POST', '/mcp', {
            'jsonrpc': '2.0', 'id': 1, 'method': 'initialize', 'params': {
                'protocolVersion': '2025-11-25', 'capabilities': {},
                'clientInfo': {'name': 'raw', 'version': '0'}}})
        session = (('mcp-session-id', dict(response.headers)[b'mcp-session-id'].decode()),
                   ('mcp-protocol-version', '2025-11-25'))
        client.request('POST', '/mcp', {'jsonrpc': '2.0', 'method': 'notifications/initialized'},
                       session)
        call = {'jsonrpc': '2.0', 'id': 2, 'method': 'tools/call',
                'params': {'name': 'get_joint_states', 'arguments': {}}}
        client.timed(2, 'POST', '/mcp', call, session)  # warm: first calls start the backend
        times = client.timed(20, 'POST', '/mcp', call, session)
        assert min(times) < STALL_FREE_MS, f'every call stalled: {times}'
        assert server_nodelay(pid, client.sock) == 1


def test_console_port_beside_stdio_answers_without_the_stall() -> None:
    """The console's own port (stdio beside it) gets NODELAY too."""
    with server('--console-port', '0', line=CONSOLE_LINE) as (pid, port):
        client = RawClient(port)
        times = client.timed(20, 'GET', '/console')
        assert server_nodelay(pid, client.sock) == 1
        assert min(times) < STALL_FREE_MS, f'every request stalled: {times}'
