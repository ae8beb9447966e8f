"""
HTTP connections, bounded: slow or idle ones cannot starve a stop.

uvicorn accepts connections until the process runs out of file descriptors and
never times out a connection that has not sent a whole request head. Here:

* the soft ``RLIMIT_NOFILE`` is raised to the hard limit at start, and at most
  ``ceiling`` connections (well below that limit) are served; asyncio accepts at
  most ACCEPT_BATCH at once (the listen backlog), so a burst cannot overshoot;
* a connection must deliver each request head within ``head_timeout_s`` (from
  its start, or from its previous response), else it is closed;
* when the ceiling is reached, a new connection evicts the oldest one that is
  waiting (no request being served: slow headers, idle keep-alive). Calls in
  flight and open SSE streams are never evicted;
* failing that, it evicts the oldest connection still receiving its request body
  from the address with the most of them (slow bodies count per address);
* when every connection is busy, ``reserve`` more are admitted as *reserved*:
  they may carry only a stop (see :mod:`stop_reserve`), so ``stop_arm`` from an
  open session, its cancellations, its DELETE (the deadman) and the console's
  STOP still get in;
* a console event stream leaves the book for a pool of its own
  (``viewer_pool``, the oldest dropped): viewers never compete with stops.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field
import logging
import resource
import time
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

FD_MARGIN = 64  # descriptors kept for everything else (files, DDS sockets, the listener)
STOP_RESERVE = 8
# Connections asyncio accepts in one go (uvicorn's backlog) before any is admitted; a burst
# can be accepted while the evicted ones of the last are still closing, so three are kept.
ACCEPT_BATCH = 32
H11_MAX_HEAD_BYTES = 16 * 1024  # a longer request head is refused (uvicorn's h11 limit)
RESERVED_HEAD_S = 2.0  # a reserved connection must send its head quickly; it is not evictable
VIEWER_POOL = 16  # console event streams kept open at once, outside the ceiling
LOG_EVERY_S = 10.0  # a failing accept() is logged at most this often, one line
log = logging.getLogger('mcp_ros_bridge')


def raise_file_limit() -> int:
    """Raise the soft RLIMIT_NOFILE to the hard limit (bounded); return the soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 1 << 20 if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


def connection_ceiling(wanted: int, files: int) -> int:
    """Return how many connections to serve: ``wanted``, but room left below ``files``."""
    return max(1, min(wanted, files - FD_MARGIN - STOP_RESERVE - VIEWER_POOL - 3 * ACCEPT_BATCH))


class QuietAcceptErrors:
    """An asyncio exception handler: a failing ``accept()`` is one line now and then."""

    def __init__(self) -> None:
        """Start with nothing logged."""
        self.last, self.missed = -LOG_EVERY_S, 0

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """Log accept failures rate-limited, without a traceback; others as asyncio does."""
        if 'accept' not in str(context.get('message', '')):
            loop.default_exception_handler(context)
            return
        now = time.monotonic()
        if now - self.last < LOG_EVERY_S:
            self.missed += 1
            return
        log.warning('accepting a connection failed (%s); %d more such failures since the last '
                    'line', context.get('exception'), self.missed)
        self.last, self.missed = now, 0


@dataclass
class ConnectionBook:
    """The open connections (oldest first), how many may be open, and which are reserved."""

    ceiling: int
    head_timeout_s: float
    reserve: int = STOP_RESERVE
    viewer_pool: int = VIEWER_POOL
    connections: dict[Any, None] = field(default_factory=dict)  # protocol -> None, oldest first
    viewers: dict[Any, None] = field(default_factory=dict)  # console streams, oldest first
    by_client: dict[tuple[Any, ...], Any] = field(default_factory=dict)  # address -> protocol
    reserved: set[Any] = field(default_factory=set)  # client addresses of reserved connections
    evicted: int = 0
    refused: int = 0

    def admit(self, protocol: GuardedH11Protocol) -> bool:
        """Make room for ``protocol``; return False when it must be closed at once."""
        if len(self.connections) >= self.ceiling:
            waiting = next((p for p in self.connections if p.waiting), None)
            waiting = waiting or self._slow_body()
            if waiting is not None:
                self.evicted += 1
                waiting.drop()
            elif len(self.connections) < self.ceiling + self.reserve:
                self.reserved.add(tuple(protocol.client or ()))
            else:
                self.refused += 1
                return False
        self.connections[protocol] = None
        self.by_client[tuple(protocol.client or ())] = protocol
        return True

    def _slow_body(self) -> GuardedH11Protocol | None:
        """Return the oldest body still arriving, of the address with the most of them."""
        slow: list[GuardedH11Protocol] = [p for p in self.connections
                                          if p.receiving and not self.is_reserved(p.client)]
        if not slow:
            return None
        worst = Counter(p.client[0] if p.client else '' for p in slow).most_common(1)[0][0]
        return next(p for p in slow if (p.client[0] if p.client else '') == worst)

    def become_viewer(self, client: Any) -> None:
        """Move the connection from ``client`` into the viewer pool; drop the oldest viewer."""
        protocol = self.by_client.get(tuple(client or ()))
        if protocol is None or protocol not in self.connections:
            return
        del self.connections[protocol]
        self.viewers[protocol] = None
        while len(self.viewers) > self.viewer_pool:
            next(iter(self.viewers)).drop()

    def leave(self, protocol: GuardedH11Protocol) -> None:
        """Forget a closed connection."""
        self.connections.pop(protocol, None)
        self.viewers.pop(protocol, None)
        client = tuple(protocol.client or ())
        self.reserved.discard(client)
        if self.by_client.get(client) is protocol:
            del self.by_client[client]

    def is_reserved(self, client: Any) -> bool:
        """Return True when the connection from ``client`` (host, port) is a reserved one."""
        return tuple(client or ()) in self.reserved


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, admitted by a :class:`ConnectionBook`, with a head deadline."""

    book: ConnectionBook  # set on the subclass :func:`guarded_protocol` makes
    _deadline: asyncio.TimerHandle | None = None

    @property
    def idle(self) -> bool:
        """Tell whether no request is being served on this connection."""
        return self.cycle is None or self.cycle.response_complete

    @property
    def receiving(self) -> bool:
        """Tell whether a request's body is still arriving (nothing answered yet)."""
        cycle = self.cycle
        return cycle is not None and cycle.more_body and not cycle.response_started

    @property
    def waiting(self) -> bool:
        """Tell whether the connection may be evicted: idle and not a reserved one."""
        return self.idle and not self.book.is_reserved(self.client)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Admit the connection (or close it) and start its head deadline."""
        super().connection_made(transport)
        if not self.book.admit(self):
            self.drop()
            return
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        """Forget the connection."""
        self.book.leave(self)
        if self._deadline is not None:
            self._deadline.cancel()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        """Restart the head deadline: the next request head must come in time too."""
        super().on_response_complete()
        if self in self.book.viewers:  # a console stream's connection ends with its stream
            self.book.leave(self)
            self.transport.close()
            return
        self._arm()

    def drop(self) -> None:
        """Close the connection now."""
        self.book.leave(self)
        self.transport.abort()

    def _arm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        timeout = self.book.head_timeout_s
        if self.book.is_reserved(self.client):
            timeout = min(timeout, RESERVED_HEAD_S)
        self._deadline = self.loop.call_later(timeout, self._check)

    def _check(self) -> None:
        if self.idle and not self.transport.is_closing():
            self.drop()


def guarded_protocol(book: ConnectionBook) -> type[GuardedH11Protocol]:
    """Return the protocol class uvicorn should use, bound to ``book``."""
    return type('BookedH11Protocol', (GuardedH11Protocol,), {'book': book})
