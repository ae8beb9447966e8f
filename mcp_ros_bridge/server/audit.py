"""
The audit log: one JSON line per tool call, secrets redacted, size capped, rotated.

Redaction is by pattern: an argument whose name contains token, secret, key,
auth, passw, passphrase, pwd, cookie, session or credential (``idempotency_key``
excepted: it is not a secret) is replaced by ``***``; inside any string value
``Bearer X``, ``Bearer:X``, ``bearer=X`` and ``Basic <base64>`` are masked (a
Basic credential is told from the English word by a digit, ``+``, ``/`` or ``=``). Long
strings, long lists, unknown tool names and whole lines are capped. When the
file passes ``max_bytes`` it is rotated to ``FILE.1`` … ``FILE.<backups>``.
"""

from __future__ import annotations

from collections.abc import Callable
import json
import os
import re
import threading
import time
from typing import Any, TextIO

SECRET_NAME = re.compile(r'token|secret|key|auth|pass(w|phrase)|pwd|cookie|session|credential',
                         re.IGNORECASE)
NOT_SECRET = frozenset({'idempotency_key'})
BEARER = re.compile(r'(?i)\b(bearer)(\s*[:=]\s*|\s+)[^\s"\',;&]+')
BASIC = re.compile(r'(?i)\b(basic\s+)(?=[A-Za-z0-9+/]*[0-9+/=])[A-Za-z0-9+/]{4,}={0,2}')
MAX_STRING = 200
MAX_ITEMS = 50
MAX_TOOL_NAME = 64
MAX_LINE = 4096


def redact(value: Any) -> Any:
    """Return ``value`` with secret-named fields and bearer strings masked, long data cut."""
    if isinstance(value, dict):
        return {str(k)[:MAX_STRING]: ('***' if SECRET_NAME.search(str(k)) and
                                      str(k) not in NOT_SECRET else redact(v))
                for k, v in list(value.items())[:MAX_ITEMS]}
    if isinstance(value, list):
        return [redact(v) for v in value[:MAX_ITEMS]]
    if isinstance(value, str):
        value = BASIC.sub(r'\1***', BEARER.sub(r'\1\2***', value))
        if len(value) > MAX_STRING:
            return value[:MAX_STRING] + f'...(+{len(value) - MAX_STRING} chars)'
    return value


def _now() -> str:
    return (time.strftime('%Y-%m-%dT%H:%M:%S', time.gmtime()) +
            f'.{int(time.time() * 1000) % 1000:03d}Z')


class AuditLog:
    """Appends JSON lines to a file (none without a path) and hands each entry to listeners."""

    def __init__(self, path: str | None, max_bytes: int = 10_000_000,
                 backups: int = 3) -> None:
        """Open ``path`` for appending (line buffered); rotate past ``max_bytes``."""
        self.path, self.max_bytes, self.backups = path, max_bytes, backups
        self._lock = threading.Lock()
        self.listeners: list[Callable[[dict[str, Any]], None]] = []  # the operator console
        # Held open for the server's lifetime; closed by close().
        self._file: TextIO | None = self._open(path) if path else None

    @staticmethod
    def _open(path: str) -> TextIO:
        return open(path, 'a', encoding='utf-8', buffering=1)

    def record(self, tool: str, args: Any, outcome: str, duration_s: float,
               **extra: Any) -> None:
        """Write one entry: time, tool, redacted arguments, duration, outcome."""
        if self._file is None and not self.listeners:
            return
        entry = {'time': _now(), 'tool': redact(str(tool)[:MAX_TOOL_NAME]), 'args': redact(args),
                 'duration_ms': round(duration_s * 1000.0, 2), 'outcome': outcome}
        entry.update(extra)
        line = json.dumps(entry, default=str)
        if len(line) > MAX_LINE:
            entry['args'] = f'(omitted: {len(line)} bytes over the {MAX_LINE}-byte line cap)'
            line = json.dumps(entry, default=str)[:MAX_LINE]
        for listener in self.listeners:
            listener(entry)
        if self._file is None:
            return
        with self._lock:
            self._file.write(line + '\n')
            if self._file.tell() >= self.max_bytes:
                self._rotate()

    def note(self, event: str, **fields: Any) -> None:
        """Hand a robot or operator event (a deadman stop, a reload) to the listeners only."""
        if self.listeners:
            entry = {'time': _now(), 'event': event, **redact(fields)}
            for listener in self.listeners:
                listener(entry)

    def _rotate(self) -> None:
        assert self._file is not None and self.path is not None
        self._file.close()
        for n in range(self.backups - 1, 0, -1):
            if os.path.exists(f'{self.path}.{n}'):
                os.replace(f'{self.path}.{n}', f'{self.path}.{n + 1}')
        os.replace(self.path, f'{self.path}.1')
        self._file = self._open(self.path)

    def close(self) -> None:
        """Close the file."""
        if self._file is not None:
            self._file.close()
            self._file = None
