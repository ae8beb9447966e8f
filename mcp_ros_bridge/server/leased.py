"""
The lease gate of the call pipeline: which session's motions may drive the arm.

Every call of the holder renews its lease; a motion (not a preview) takes it or is
refused ``ROBOT_LEASED`` while another session holds it; ``release_robot``, the
holder's session ending or its silence for ``lease_ttl_s`` end it. The holder is
its session (``identity.session_scope``); 2026-07-28 has no sessions, so there it
is the network address and the client's own name (clientInfo): two clients of one
name at one address share a lease. A lease coordinates cooperating clients; it is
not authentication (that is the bearer token's and the operator's).
"""

from __future__ import annotations

import time

from mcp_ros_bridge.capabilities.base import LeaseRelease
from mcp_ros_bridge.contract.results import error_result
from mcp_ros_bridge.messages import t
from mcp_ros_bridge.safety.lease import LeaseBook, RobotLeased
from mcp_ros_bridge.server.identity import (client_connection, client_name, RequestContext,
                                            scope_or_none)
import mcp_types as types

LEASED_CODE = 'ROBOT_LEASED'


IN_PROCESS = 'in-process'  # a call made without a request (a bench, a test driving the pipeline)


def lease_scope(ctx: RequestContext) -> str:
    """Return who holds a lease taken by this call (its session, else address and name)."""
    scope = scope_or_none(ctx)
    if scope is None:
        return IN_PROCESS
    if scope.startswith(('session:', 'connection:')):
        return scope
    return f'{scope} client:{client_name(ctx)}'


def leased_result(tool: str, exc: RobotLeased, ttl_s: float) -> types.CallToolResult:
    """Return the ROBOT_LEASED error of ``tool``: who holds the arm, since and until when."""
    lease = exc.lease
    since = time.strftime('%H:%M:%S UTC', time.gmtime(lease.since))
    return error_result(t('robot_leased', tool=tool, client=lease.client, since=since,
                          left=f'{exc.left_s:.0f}', ttl=f'{ttl_s:.0f}'), LEASED_CODE,
                        {'held_by': lease.client, 'since': round(lease.since, 3),
                         'expires_in_s': round(exc.left_s, 1), 'lease_ttl_s': ttl_s})


class LeaseGate:
    """The robot's :class:`LeaseBook`, keyed by the caller's session."""

    def __init__(self, ttl_s: float) -> None:
        """Leases run ``ttl_s`` after the holder's last call (0: off)."""
        self.book = LeaseBook(ttl_s)

    def renew(self, ctx: RequestContext) -> None:
        """Keep the caller's lease, if it holds one (any call renews it)."""
        self.book.renew(lease_scope(ctx))

    def claim(self, ctx: RequestContext, tool: str) -> types.CallToolResult | None:
        """Take or renew the caller's lease; return ROBOT_LEASED while another holds it."""
        scope = lease_scope(ctx)
        try:
            taken = self.book.claim(scope, '' if scope == IN_PROCESS else client_name(ctx))
        except RobotLeased as exc:
            return leased_result(tool, exc, self.book.ttl_s)
        if taken and scope.startswith('connection:'):
            # its connection closing (stdio EOF, an in-memory client leaving) ends the lease
            client_connection(ctx).exit_stack.callback(self.book.release, scope)
        return None

    def release(self, scope: str) -> LeaseRelease:
        """End the lease of ``scope`` (release_robot); say who holds the arm otherwise."""
        if self.book.ttl_s <= 0:
            return LeaseRelease(False, leasing=False)
        if self.book.release(scope) is not None:
            return LeaseRelease(True)
        other = self.book.current()
        if other is None:
            return LeaseRelease(False)
        return LeaseRelease(False, other.client, other.left_s(time.monotonic()))

    def session_ended(self, session: str) -> None:
        """Drop the lease of an HTTP session that ended (its deadman)."""
        self.book.release(f'session:{session}')
