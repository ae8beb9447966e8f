"""
Idempotency keys for write tools: a repeat returns the first result, never moves twice.

A repeat while the first call still runs waits for it. Reusing a key with
different arguments is refused, since it almost always means a confused agent.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
import hashlib
import json
import time
from typing import Any, Generic, TypeVar

T = TypeVar('T')


class KeyReuseError(Exception):
    """An idempotency key came back with different arguments."""


@dataclass
class _Entry(Generic[T]):
    fingerprint: str
    future: asyncio.Future
    created: float


def fingerprint(tool: str, args: dict[str, Any]) -> str:
    """Hash a tool name and its arguments (without the key itself)."""
    body = {k: v for k, v in args.items() if k != 'idempotency_key'}
    blob = json.dumps([tool, body], sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


class IdempotencyCache:
    """Remembers results by (session scope, tool, key) for ``ttl_s`` seconds."""

    def __init__(self, ttl_s: float = 600.0, max_entries: int = 1024) -> None:
        """Configure the time to live and the bound on remembered keys."""
        self.ttl_s = ttl_s
        self.max_entries = max_entries
        self._entries: dict[tuple[str, str], _Entry] = {}

    def _evict(self, now: float) -> None:
        stale = [k for k, e in self._entries.items()
                 if e.future.done() and now - e.created > self.ttl_s]
        for k in stale:
            del self._entries[k]
        while len(self._entries) > self.max_entries:
            oldest = min(self._entries, key=lambda k: self._entries[k].created)
            del self._entries[oldest]

    def known(self, tool: str, key: str) -> bool:
        """Return True when ``key`` is remembered (running or finished) for ``tool``."""
        self._evict(time.monotonic())
        return (tool, key) in self._entries

    async def run(self, tool: str, key: str, args: dict[str, Any],
                  work: Callable[[], Awaitable[T]]) -> tuple[T, bool]:
        """Run ``work`` once per key; return (result, replayed)."""
        now = time.monotonic()
        self._evict(now)
        fp = fingerprint(tool, args)
        entry = self._entries.get((tool, key))
        if entry is not None:
            if entry.fingerprint != fp:
                raise KeyReuseError(
                    f'idempotency_key {key!r} was already used for {tool} with different '
                    'arguments; use a new key for a new request')
            return await asyncio.shield(entry.future), True
        fut: asyncio.Future = asyncio.get_running_loop().create_future()
        self._entries[(tool, key)] = _Entry(fp, fut, now)
        try:
            result = await work()
        except BaseException as exc:
            # A failed or cancelled first call is not remembered: a retry may run.
            del self._entries[(tool, key)]
            if isinstance(exc, Exception):
                fut.set_exception(exc)
                fut.exception()  # retrieved here, so an unawaited future logs nothing
            else:
                fut.cancel()
            raise
        fut.set_result(result)
        return result, False
