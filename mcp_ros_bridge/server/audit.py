"""The audit log: one JSON line per tool call, with secrets redacted."""

from __future__ import annotations

import json
import threading
import time
from typing import Any, TextIO

DEFAULT_SECRET_FIELDS = frozenset({'token', 'password', 'secret', 'api_key', 'authorization',
                                   'bearer', 'credentials'})


def redact(value: Any, secret_fields: frozenset[str], max_len: int = 200) -> Any:
    """Return ``value`` with secret fields replaced and long strings shortened."""
    if isinstance(value, dict):
        return {k: ('***' if str(k).lower() in secret_fields else
                    redact(v, secret_fields, max_len)) for k, v in value.items()}
    if isinstance(value, list):
        return [redact(v, secret_fields, max_len) for v in value[:50]]
    if isinstance(value, str) and len(value) > max_len:
        return value[:max_len] + f'...(+{len(value) - max_len} chars)'
    return value


class AuditLog:
    """Appends JSON lines to a file; a no-op without a path."""

    def __init__(self, path: str | None,
                 secret_fields: frozenset[str] = DEFAULT_SECRET_FIELDS) -> None:
        """Open ``path`` for appending (line buffered)."""
        self.secret_fields = secret_fields
        self._lock = threading.Lock()
        # Held open for the server's lifetime; closed by close().
        self._file: TextIO | None = (
            open(path, 'a', encoding='utf-8', buffering=1) if path else None)  # noqa: SIM115

    def record(self, tool: str, args: Any, outcome: str, duration_s: float,
               **extra: Any) -> None:
        """Write one entry: time, tool, redacted arguments, duration, outcome."""
        if self._file is None:
            return
        entry = {'time': time.strftime('%Y-%m-%dT%H:%M:%S', time.gmtime()) +
                 f'.{int(time.time() * 1000) % 1000:03d}Z',
                 'tool': tool, 'args': redact(args, self.secret_fields),
                 'duration_ms': round(duration_s * 1000.0, 2), 'outcome': outcome}
        entry.update(extra)
        with self._lock:
            self._file.write(json.dumps(entry, default=str) + '\n')

    def close(self) -> None:
        """Close the file."""
        if self._file is not None:
            self._file.close()
            self._file = None
