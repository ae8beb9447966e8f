"""
Idempotency keys for write tools: a repeat returns the first result, never moves twice.

Keys belong to one client session (scope). A repeat while the first call still
runs waits for it. Reusing a key with different arguments is refused, since it
almost always means a confused agent; numbers compare by value (``180.0`` is
``180``). Only a result worth repeating is replayed: a stopped, failed or
cancelled first call lets a later retry run (and says what happened).
Nothing is evicted within the TTL; memory is bounded by refusing new keys when
a session (or the number of sessions) is full.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
import hashlib
import json
import time
from typing import Any, Generic, TypeVar

from mcp_ros_bridge.messages import t

T = TypeVar('T')
_ABANDONED = object()  # the first call was cancelled or raised


class KeyReuseError(Exception):
    """An idempotency key came back with different arguments."""


class FirstCallAbandoned(Exception):
    """A repeat waited for a first call that was cancelled; nothing to replay."""


class KeysExhausted(Exception):
    """No room for another key in this session within the TTL."""


@dataclass
class _Entry(Generic[T]):
    fingerprint: str
    future: asyncio.Future[Any]
    created: float
    replay: bool = True
    outcome: str = ''  # what a first call that is not replayed ended with


@dataclass
class Answer(Generic[T]):
    """What :meth:`IdempotencyCache.run` returns."""

    result: T
    replayed: bool = False
    earlier: str = ''  # how an earlier, unreplayable call with this key ended


def _normalised(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _normalised(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_normalised(v) for v in value]
    return value


def fingerprint(tool: str, args: dict[str, Any]) -> str:
    """Hash a tool name and its arguments (without the key; numbers by value)."""
    body = {k: v for k, v in args.items() if k != 'idempotency_key'}
    blob = json.dumps([tool, _normalised(body)], sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


class IdempotencyCache:
    """Remembers results by (session scope, tool, key) for ``ttl_s`` seconds."""

    def __init__(self, ttl_s: float = 600.0, per_scope: int = 4096, total: int = 16384,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """Configure the time to live and the bounds on remembered keys (per session, all)."""
        self.ttl_s, self.per_scope, self.total = ttl_s, per_scope, total
        self.clock = clock
        self._scopes: dict[object, dict[tuple[str, str], _Entry[Any]]] = {}

    def _live(self, scope: object) -> dict[tuple[str, str], _Entry[Any]]:
        now = self.clock()
        entries = self._scopes.get(scope, {})
        for k in [k for k, e in entries.items()
                  if e.future.done() and now - e.created > self.ttl_s]:
            del entries[k]
        return entries

    def known(self, scope: object, tool: str, key: str) -> bool:
        """Return True when a repeat of ``key`` would wait for or replay a first call."""
        entry = self._live(scope).get((tool, key))
        return entry is not None and (entry.replay or not entry.future.done())

    def _claim(self, scope: object, tool: str, key: str, fp: str) -> _Entry[Any]:
        entries = self._live(scope)
        if (tool, key) not in entries and len(entries) >= self.per_scope:
            raise KeysExhausted(t('keys_session', count=self.per_scope, ttl=f'{self.ttl_s:g}'))
        if (tool, key) not in entries:
            for s in [s for s in self._scopes if not self._live(s)]:
                del self._scopes[s]
            if sum(len(e) for e in self._scopes.values()) >= self.total:
                raise KeysExhausted(t('keys_server', count=self.total))
        self._scopes[scope] = entries
        entry: _Entry[Any] = _Entry(fp, asyncio.get_running_loop().create_future(),
                                    self.clock())
        entries[(tool, key)] = entry
        return entry

    async def run(self, scope: object, tool: str, key: str, args: dict[str, Any],
                  work: Callable[[], Awaitable[T]],
                  replayable: Callable[[T], tuple[bool, str]]) -> Answer[T]:
        """
        Run ``work`` once per key, or wait for / replay the first run.

        ``replayable(result)`` says whether a result may answer a later repeat,
        and what it was (e.g. ``'STOPPED'``). A repeat that waited for the
        first run gets its result whatever it was; one that comes after an
        unreplayable result runs the work again.
        """
        fp = fingerprint(tool, args)
        entry: _Entry[Any] | None = self._live(scope).get((tool, key))
        if entry is not None and entry.fingerprint != fp:
            raise KeyReuseError(t('key_reused', key=repr(key), tool=tool))
        if entry is not None and not entry.future.done():
            await asyncio.wait({entry.future})  # never cancels the first call's future
            if entry.future.result() is _ABANDONED:
                raise FirstCallAbandoned(t('key_abandoned', key=repr(key)))
            return Answer(entry.future.result(), True, '' if entry.replay else entry.outcome)
        if entry is not None and entry.replay:
            return Answer(entry.future.result(), replayed=True)
        earlier = entry.outcome if entry is not None else ''
        entry = self._claim(scope, tool, key, fp)
        try:
            result = await work()
        except BaseException:
            # A failed or cancelled call is not remembered: a retry runs again.
            entries = self._scopes.get(scope, {})
            if entries.get((tool, key)) is entry:
                del entries[(tool, key)]
            entry.future.set_result(_ABANDONED)
            raise
        entry.replay, entry.outcome = replayable(result)
        entry.future.set_result(result)
        return Answer(result, earlier=earlier)
