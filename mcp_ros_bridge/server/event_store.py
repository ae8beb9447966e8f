"""
Resumable Streamable HTTP (2025-11-25 sessions): events kept per session, bounded in bytes.

Every SSE event the server sends on a request or session stream is kept, so a host
whose connection drops can reconnect with ``Last-Event-ID`` and receive what it
missed (progress, then the result). Events belong to one stream of one session: a
resume replays only that stream's later events, and only to the session that owns
them; another session's, a deleted session's or an unknown id replays nothing.

An event id is ``<stream token>-<random>``: the token names the stream inside its
session, so a resume whose own id was already dropped still finds the stream and
gets what is left (a gap, never someone else's data). The oldest events go first
when a session passes ``session_bytes`` or all sessions pass ``total_bytes``; an
event larger than a session's budget is kept as a gap marker only.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
import secrets

from mcp.server.streamable_http import EventCallback, EventId, EventMessage, EventStore, StreamId
from mcp_types import jsonrpc_message_adapter, JSONRPCError, JSONRPCMessage, JSONRPCResponse

# Milliseconds a client should wait before reconnecting (the SSE ``retry`` field).
RETRY_MS = 1000
SESSION_BYTES = 8 * 1024 * 1024
TOTAL_BYTES = 64 * 1024 * 1024
EVENT_OVERHEAD = 160  # bytes of bookkeeping counted per event besides its JSON


@dataclass
class _Event:
    session: str
    stream: StreamId
    json: str | None  # None: a priming event, or a payload too large to keep (a gap)
    size: int


@dataclass
class _Session:
    size: int = 0
    events: OrderedDict[EventId, None] = field(default_factory=OrderedDict)
    tokens: dict[StreamId, str] = field(default_factory=dict)
    streams: dict[str, StreamId] = field(default_factory=dict)  # token -> stream
    counts: dict[StreamId, int] = field(default_factory=dict)
    done: set[StreamId] = field(default_factory=set)  # streams whose response is stored


class EventLog:
    """The events of all sessions, oldest first, within a byte budget per session and in total."""

    def __init__(self, session_bytes: int = SESSION_BYTES, total_bytes: int = TOTAL_BYTES
                 ) -> None:
        """Create an empty log."""
        self.session_bytes, self.total_bytes = session_bytes, total_bytes
        self.bytes = 0
        self._events: OrderedDict[EventId, _Event] = OrderedDict()
        self._sessions: dict[str, _Session] = {}

    def view(self, session: str, on_answered: Callable[[str, str], None] | None = None
             ) -> SessionEvents:
        """Return the event store of one session (what its transport is given)."""
        self._sessions.setdefault(session, _Session())
        return SessionEvents(self, session, on_answered)

    def forget(self, session: str) -> None:
        """Drop every event of ``session`` (it ended)."""
        state = self._sessions.pop(session, None)
        for event_id in state.events if state else ():
            self.bytes -= self._events.pop(event_id).size

    def store(self, session: str, stream: StreamId, message: JSONRPCMessage | None) -> EventId:
        """Keep one event of ``session``'s ``stream`` and return its new id."""
        state = self._sessions.get(session)
        if state is None:  # the session has ended: nothing of it is kept
            return f'gone-{secrets.token_hex(8)}'
        token = state.tokens.get(stream)
        if token is None:
            token = state.tokens[stream] = secrets.token_hex(6)
            state.streams[token] = stream
        text = None if message is None else \
            message.model_dump_json(by_alias=True, exclude_unset=True)
        if text is not None and len(text) + EVENT_OVERHEAD > self.session_bytes:
            text = None
        event_id = f'{token}-{secrets.token_hex(8)}'
        event = _Event(session, stream, text, EVENT_OVERHEAD + len(text or ''))
        self._events[event_id] = event
        state.events[event_id] = None
        state.size += event.size
        self.bytes += event.size
        state.counts[stream] = state.counts.get(stream, 0) + 1
        if isinstance(message, (JSONRPCResponse, JSONRPCError)):
            state.done.add(stream)
        elif message is None:
            state.done.discard(stream)  # a new request reusing a finished request's id
        while state.size > self.session_bytes:
            self._drop(next(iter(state.events)))
        while self.bytes > self.total_bytes:
            self._drop(next(iter(self._events)))
        return event_id

    def _drop(self, event_id: EventId) -> None:
        event = self._events.pop(event_id)
        state = self._sessions[event.session]
        del state.events[event_id]
        state.size -= event.size
        self.bytes -= event.size
        state.counts[event.stream] -= 1
        if not state.counts[event.stream] and event.stream in state.done:
            del state.counts[event.stream], state.streams[state.tokens.pop(event.stream)]
            state.done.discard(event.stream)

    async def replay(self, session: str, last_event_id: EventId, send: EventCallback
                     ) -> StreamId | None:
        """Send ``session``'s later events of ``last_event_id``'s stream; see SessionEvents."""
        state = self._sessions.get(session)
        stream = state.streams.get(last_event_id.partition('-')[0]) if state else None
        if state is None or stream is None:
            return None
        ids = list(state.events)
        start = ids.index(last_event_id) + 1 if last_event_id in state.events else 0
        later = [(i, self._events[i].json) for i in ids[start:]
                 if self._events[i].stream == stream]
        for event_id, text in later:
            if text is not None:
                await send(EventMessage(jsonrpc_message_adapter.validate_json(text), event_id))
        return None if stream in state.done else stream


class SessionEvents(EventStore):
    """The event store one session's transport sees: only that session's events."""

    def __init__(self, log: EventLog, session: str,
                 on_answered: Callable[[str, str], None] | None = None) -> None:
        """Bind to ``session`` in ``log``; ``on_answered(session, id)`` hears each response."""
        self.log, self.session, self.on_answered = log, session, on_answered

    async def store_event(self, stream_id: StreamId, message: JSONRPCMessage | None
                          ) -> EventId:
        """Keep one event (None is a priming event) and return its new id."""
        event_id = self.log.store(self.session, stream_id, message)
        if self.on_answered and isinstance(message, (JSONRPCResponse, JSONRPCError)):
            self.on_answered(self.session, stream_id)
        return event_id

    async def replay_events_after(self, last_event_id: EventId, send_callback: EventCallback
                                  ) -> StreamId | None:
        """
        Send this session's events of the id's stream that came after it.

        Returns the stream id while its call is still running (the SDK then
        forwards what comes next), None once the stream has ended with its
        response (the replayed stream closes) or the id is not this session's.
        """
        return await self.log.replay(self.session, last_event_id, send_callback)
