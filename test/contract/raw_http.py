"""A handshake-era (2025-11-25) MCP session over raw HTTP requests, for transport tests."""

from __future__ import annotations

import itertools
import json
from typing import Any

import anyio
import httpx2

JSON_HEADERS = {'Accept': 'application/json, text/event-stream',
                'Content-Type': 'application/json'}
INIT_PARAMS = {'protocolVersion': '2025-11-25', 'capabilities': {},
               'clientInfo': {'name': 'raw', 'version': '0'}}


def sse_messages(text: str) -> list[dict[str, Any]]:
    """Return the JSON-RPC messages in an SSE (or plain JSON) response body."""
    if text.lstrip().startswith('{'):
        return [json.loads(text)]
    return [json.loads(line[5:]) for line in text.splitlines() if line.startswith('data:')
            and line[5:].strip()]


async def sse_events(lines: Any) -> Any:
    """Yield SSE events (dicts of field -> value) from an async line iterator."""
    event: dict[str, str] = {}
    async for line in lines:
        if not line:
            if event:
                yield event
            event = {}
            continue
        field, _, value = line.partition(':')
        event[field] = value.removeprefix(' ')


async def read_to_end(stream: Any) -> bytes:
    """Return everything ``stream`` sends until the server closes it."""
    answer = b''
    try:
        while True:
            answer += await stream.receive()
    except (anyio.EndOfStream, anyio.BrokenResourceError):
        pass
    return answer


class RawSession:
    """One MCP session: initialize, then numbered requests with the session headers."""

    def __init__(self, http: httpx2.AsyncClient, url: str, extra: dict[str, str]) -> None:
        """Remember the client, the endpoint and extra headers (auth, Host)."""
        self.http, self.url, self.extra = http, url, extra
        self.headers: dict[str, str] = {**JSON_HEADERS, **extra}
        self.ids = itertools.count(1)

    async def start(self) -> RawSession:
        """Initialize the session and send ``notifications/initialized``."""
        r = await self.http.post(self.url, headers=self.headers, json={
            'jsonrpc': '2.0', 'id': next(self.ids), 'method': 'initialize',
            'params': INIT_PARAMS})
        r.raise_for_status()
        self.headers['mcp-session-id'] = r.headers['mcp-session-id']
        self.headers['mcp-protocol-version'] = '2025-11-25'
        r = await self.http.post(self.url, headers=self.headers, json={
            'jsonrpc': '2.0', 'method': 'notifications/initialized'})
        r.raise_for_status()
        return self

    def call_body(self, name: str, arguments: dict[str, Any],
                  progress: str | None = None) -> dict[str, Any]:
        """Return a ``tools/call`` request with a fresh id."""
        params: dict[str, Any] = {'name': name, 'arguments': arguments}
        if progress:
            params['_meta'] = {'progressToken': progress}
        return {'jsonrpc': '2.0', 'id': next(self.ids), 'method': 'tools/call',
                'params': params}

    async def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """Call a tool and return its result (raises on a JSON-RPC error)."""
        body = self.call_body(name, arguments)
        r = await self.http.post(self.url, headers=self.headers, json=body)
        r.raise_for_status()
        for message in sse_messages(r.text):
            if message.get('id') == body['id']:
                if 'error' in message:
                    raise RuntimeError(message['error'])
                return message['result']
        raise AssertionError(f'no response to request {body["id"]} in {r.text!r}')

    async def delete(self) -> int:
        """End the session; return the HTTP status."""
        r = await self.http.delete(self.url, headers=self.headers)
        return r.status_code
