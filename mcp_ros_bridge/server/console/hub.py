"""
The console's event stream: each event fanned out to every open page, the latest kept.

Events are server-sent event frames (``event: kind`` + one JSON ``data`` line).
A new page first gets the latest event of each kind and the recent audit trail,
then live events. A page that reads too slowly loses its oldest frames, never
the server's memory. The first page to open and the last to close are reported
(the sampler runs only in between).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
import json
import time
from typing import Any

QUEUE_FRAMES = 256
AUDIT_KEPT = 200  # reads included: the page shows motions and decisions unless asked
CLOSE = ''  # the frame that ends a stream
PRIVATE = frozenset({'audit', 'image'})  # for the operator's eyes only


def frame(kind: str, data: dict[str, Any]) -> str:
    """Return one SSE frame; ``sent`` is the wall time it left the bridge (latency figures)."""
    body = json.dumps({**data, 'sent': time.time()}, ensure_ascii=False, default=str)
    return f'event: {kind}\ndata: {body}\n\n'


class EventHub:
    """Fans events out to the open console streams."""

    def __init__(self, first_opened: Callable[[], None], last_closed: Callable[[], None]) -> None:
        """Call ``first_opened`` when the first stream opens, ``last_closed`` after the last."""
        self._queues: dict[asyncio.Queue[str], bool] = {}  # each stream: may it see all?
        self._latest: dict[str, str] = {}
        self._audit: deque[str] = deque(maxlen=AUDIT_KEPT)
        self._first, self._last = first_opened, last_closed
        self.operators = 0  # open streams whose page holds the operator's secret
        self.closed = False

    @property
    def viewers(self) -> int:
        """Return how many streams are open."""
        return len(self._queues)

    def publish(self, kind: str, data: dict[str, Any]) -> None:
        """Send an event to every stream; audit events are kept as a trail, others as latest."""
        text = frame(kind, data)
        if kind == 'audit':
            self._audit.append(text)
        else:
            self._latest[kind] = text
        for queue, operator in self._queues.items():
            if operator or kind not in PRIVATE:
                _put(queue, text)

    @asynccontextmanager
    async def stream(self, operator: bool) -> AsyncIterator[asyncio.Queue[str]]:
        """
        Open a stream: a queue that starts with the latest state (and audit trail: ``operator``).

        A stream without the operator's secret never gets the audit trail or the camera.
        """
        queue: asyncio.Queue[str] = asyncio.Queue(QUEUE_FRAMES)
        latest = [text for kind, text in self._latest.items() if operator or kind not in PRIVATE]
        for text in [*latest, *(self._audit if operator else []),
                     *([CLOSE] if self.closed else [])]:
            _put(queue, text)
        self._queues[queue] = operator
        self.operators += operator
        if len(self._queues) == 1:
            self._first()
        try:
            yield queue
        finally:
            self._queues.pop(queue, None)
            self.operators -= operator
            if not self._queues:
                self._last()

    def close(self) -> None:
        """End every open stream (and those opened later)."""
        self.closed = True
        for queue in self._queues:
            _put(queue, CLOSE)


def _put(queue: asyncio.Queue[str], text: str) -> None:
    if queue.full():
        queue.get_nowait()  # a slow page loses its oldest frame
    queue.put_nowait(text)
