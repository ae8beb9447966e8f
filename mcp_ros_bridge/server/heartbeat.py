"""
Heartbeat deadman: a client that stops answering pings during a motion counts as gone.

Off by default (``heartbeat_timeout_s`` 0). When on, a motion call pings its
client (MCP ``ping``) while the motion runs; a ping unanswered within the
timeout (a frozen or partitioned client) stops the motion as for a vanished
requester. A client that answers a ping with an error is alive. Sessions with
no back channel for server requests (2026-07-28, which forbids them) cannot be
pinged: there the watch does nothing.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
import logging
from typing import Any

import anyio
from mcp.shared.exceptions import MCPError, NoBackChannelError
from mcp.shared.message import ServerMessageMetadata
import mcp_types as types

log = logging.getLogger('mcp_ros_bridge.heartbeat')
MAX_INTERVAL_S = 1.0  # pings at least this often (and twice per timeout)


async def _ping_until_silent(session: Any, request_id: Any, timeout_s: float,
                             on_silent: Callable[[], None]) -> None:
    interval = min(MAX_INTERVAL_S, timeout_s / 2)
    # On the call's own channel: on HTTP the POST's stream, open while the call runs.
    related = ServerMessageMetadata(related_request_id=request_id)
    while True:
        if not session.can_send_request:
            log.info('heartbeat: this session cannot be pinged; not watched')
            return
        with anyio.move_on_after(timeout_s) as waited:
            try:
                await session.send_request(types.PingRequest(), types.EmptyResult,
                                           metadata=related)
            except NoBackChannelError:
                log.info('heartbeat: this session cannot be pinged; not watched')
                return
            except MCPError:
                pass  # an error answer is an answer: the client is alive
            except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                on_silent()  # the stream to the client is gone
                return
        if waited.cancelled_caught:
            on_silent()
            return
        await anyio.sleep(interval)


@asynccontextmanager
async def watching(session: Any, request_id: Any, timeout_s: float,
                   on_silent: Callable[[], None]) -> AsyncIterator[None]:
    """Ping the client of call ``request_id`` while the body runs; ``on_silent`` if it goes."""
    if timeout_s <= 0:
        yield
        return
    async with anyio.create_task_group() as tg:
        tg.start_soon(_ping_until_silent, session, request_id, timeout_s, on_silent)
        try:
            yield
        finally:
            tg.cancel_scope.cancel()
