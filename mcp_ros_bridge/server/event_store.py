"""
A bounded in-memory event store: resumable Streamable HTTP (2025-11-25 sessions).

Every SSE event the server sends on a request or session stream is kept here, so
a host whose connection drops can reconnect with ``Last-Event-ID`` and receive
what it missed (progress, then the result). Event ids are random, so one client
cannot guess another's; the oldest events go first once ``max_events`` is reached.
"""

from __future__ import annotations

from collections import OrderedDict
import secrets

from mcp.server.streamable_http import EventCallback, EventId, EventMessage, EventStore, StreamId
from mcp_types import JSONRPCMessage

# Milliseconds a client should wait before reconnecting (the SSE ``retry`` field).
RETRY_MS = 1000


class BoundedEventStore(EventStore):
    """Keeps the latest ``max_events`` events of all streams, in order."""

    def __init__(self, max_events: int = 10_000) -> None:
        """Create an empty store."""
        self.max_events = max_events
        self._events: OrderedDict[EventId, tuple[StreamId, JSONRPCMessage | None]] = \
            OrderedDict()

    async def store_event(self, stream_id: StreamId, message: JSONRPCMessage | None
                          ) -> EventId:
        """Keep one event (None is a priming event) and return its new id."""
        event_id = secrets.token_hex(12)
        self._events[event_id] = (stream_id, message)
        while len(self._events) > self.max_events:
            self._events.popitem(last=False)
        return event_id

    async def replay_events_after(self, last_event_id: EventId, send_callback: EventCallback
                                  ) -> StreamId | None:
        """Send the events of ``last_event_id``'s stream that came after it."""
        if last_event_id not in self._events:
            return None
        stream_id = self._events[last_event_id][0]
        later = list(self._events.items())
        start = next(i for i, (eid, _) in enumerate(later) if eid == last_event_id) + 1
        for event_id, (stream, message) in later[start:]:
            if stream == stream_id and message is not None:
                await send_callback(EventMessage(message, event_id))
        return stream_id
