"""
The stdio read stream, guarded: every line gets an answer, and deep nesting is refused.

The SDK parses each stdin line with pydantic-core (whose own guard stops at about
250 levels, without Python recursion) and drops a line it cannot parse without an
answer, so the host waited forever. Here an unparseable line is answered with
JSON-RPC -32700, and a request nested deeper than MAX_JSON_DEPTH (the HTTP limit)
with -32600 naming its id, before any handler sees it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
import logging
from typing import Any

import anyio
from mcp.server.stdio import stdio_server
from mcp.shared._stream_protocols import ReadStream, WriteStream
from mcp.shared.message import SessionMessage
from mcp_ros_bridge.messages import t
from mcp_ros_bridge.server.json_depth import MAX_JSON_DEPTH, SHALLOW_EXAMPLE
from mcp_types import (ErrorData, INVALID_REQUEST, JSONRPCError, JSONRPCNotification,
                       JSONRPCRequest, PARSE_ERROR, RequestId)
from pydantic import ValidationError

log = logging.getLogger('mcp_ros_bridge')


def value_depth(value: Any) -> int:
    """Return how deeply dicts and lists nest in ``value`` (0 for a scalar), iteratively."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item \
            if isinstance(item, list) else None
        if children is not None:
            deepest = max(deepest, depth)
            stack.extend((child, depth + 1) for child in children)
    return deepest


def _detail(exc: Exception) -> str:
    errors = exc.errors() if isinstance(exc, ValidationError) else []
    return str(errors[0]['msg'])[:200] if errors else type(exc).__name__


def _error(request_id: RequestId | None, code: int, text: str) -> SessionMessage:
    return SessionMessage(JSONRPCError(jsonrpc='2.0', id=request_id,
                                       error=ErrorData(code=code, message=text)))


async def _guard(source: ReadStream[SessionMessage | Exception],
                 sink: Any, write: WriteStream[SessionMessage]) -> None:
    too_deep = t('transport_too_deep', limit=MAX_JSON_DEPTH, example=SHALLOW_EXAMPLE)
    async with source, sink:
        async for item in source:
            if isinstance(item, Exception):
                await write.send(_error(None, PARSE_ERROR, too_deep if 'recursion' in str(item)
                                        else t('transport_parse_error', detail=_detail(item),
                                               example=SHALLOW_EXAMPLE)))
                continue
            message = item.message
            if isinstance(message, (JSONRPCRequest, JSONRPCNotification)) and \
                    1 + value_depth(message.params) > MAX_JSON_DEPTH:
                if isinstance(message, JSONRPCRequest):
                    await write.send(_error(message.id, INVALID_REQUEST, too_deep))
                else:
                    log.warning('dropped a notification nested deeper than %d levels',
                                MAX_JSON_DEPTH)
                continue
            await sink.send(item)


@asynccontextmanager
async def guarded_stdio_server() -> AsyncIterator[
        tuple[ReadStream[SessionMessage | Exception], WriteStream[SessionMessage]]]:
    """Serve stdio like the SDK's ``stdio_server``, with the guard on the read side."""
    async with stdio_server() as (read, write):
        sink, guarded = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        async with anyio.create_task_group() as tg:
            tg.start_soon(_guard, read, sink, write)
            yield guarded, write
            tg.cancel_scope.cancel()
