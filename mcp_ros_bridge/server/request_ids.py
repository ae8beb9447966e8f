"""
Request ids in flight per Streamable HTTP session: a second request with an id in use is refused.

The SDK keys a request's response stream by its JSON-RPC id; a duplicate id in one
session would take over the first call's stream and neither would get an answer.
An id is claimed when its POST arrives and freed when its response is stored (or
when the POST ended without opening a stream, or the session ended).
"""

from __future__ import annotations


class InFlight:
    """The ids of the requests each session has in flight."""

    def __init__(self) -> None:
        """Start with none."""
        self._ids: dict[str, dict[str, object]] = {}

    def claim(self, session: str, request_id: str) -> object | None:
        """Claim ``request_id``; return a claim token, or None when it is in flight already."""
        ids = self._ids.setdefault(session, {})
        if request_id in ids:
            return None
        token = ids[request_id] = object()
        return token

    def answered(self, session: str, request_id: str) -> None:
        """Free ``request_id``: its response was sent (or stored for a resume)."""
        self._ids.get(session, {}).pop(request_id, None)

    def release(self, session: str, request_id: str, token: object) -> None:
        """Free ``request_id`` if ``token`` still holds it (its POST ended without a stream)."""
        ids = self._ids.get(session, {})
        if ids.get(request_id) is token:
            del ids[request_id]

    def forget(self, session: str) -> None:
        """Forget an ended session."""
        self._ids.pop(session, None)
