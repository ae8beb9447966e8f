"""
User approval through MCP elicitation, for tools marked ``requires_approval``.

Handshake-era clients (2025-11-25) are asked with an ``elicitation/create``
request inside the call; 2026-07-28 clients get an ``InputRequiredResult`` and
call again with the answer, which counts only together with the (sealed)
request state of a request this server issued. A client without elicitation
gets the configured policy (deny by default). Decline or cancel means nothing
moves. An :class:`OperatorDesk` (the operator console) is a second way to
decide: while a person is connected there, the call waits for whichever answers
first, the person or the host; a client without elicitation waits for the person.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable
import secrets
import time
from typing import Any, Protocol

import anyio
from mcp.server import ServerRequestContext
from mcp_ros_bridge.backends.port import Chain, Plan
from mcp_ros_bridge.messages import t
import mcp_types as types
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

KEY = 'approval'
STATE_PREFIX = 'approval:'
SCHEMA: dict[str, Any] = {
    'type': 'object',
    'properties': {'approve': {'type': 'boolean', 'title': 'Allow this motion?',
                               'description': 'Tick to let the robot move as described.'}},
    'required': ['approve'],
}
ELICITATION = types.ClientCapabilities(elicitation=types.ElicitationCapability())


class Denied(Exception):
    """The motion was not approved; the message says why."""


class OperatorDesk(Protocol):
    """A person who decides approvals beside the host (the operator console)."""

    def present(self) -> bool:
        """Return True while a person who may decide is connected."""

    async def decide(self, tool: str, message: str,
                     facts: dict[str, Any] | None = None) -> None:
        """Wait for the person's decision; raise :class:`Denied` unless they approve."""

    def offer(self, state: str, tool: str, message: str,
              facts: dict[str, Any] | None = None) -> None:
        """Show a request the host answers by calling again; the person may decide first."""

    def ruling(self, state: str) -> bool:
        """Withdraw ``state``; True if the person approved it, :class:`Denied` if they denied."""


def _verdict(result: types.ElicitResult) -> None:
    if result.action == 'accept' and (result.content or {}).get('approve') is True:
        return
    declined = result.action in ('decline', 'accept')
    raise Denied(t('approval_declined' if declined else 'approval_cancelled'))


class IssuedApprovals:
    """
    The approval requests this server issued and that are still unanswered.

    An answer counts only as the reply to one of these (each once, within the
    TTL); answers a client volunteers without being asked are ignored. The SDK
    seals each request state to the request it was issued on (tool and
    arguments), so an answer cannot be carried over to another call. A request
    may keep the plan it showed: the approved retry runs that plan.
    """

    def __init__(self, ttl_s: float = 600.0, limit: int = 256) -> None:
        """Remember at most ``limit`` open requests for ``ttl_s`` seconds each."""
        self.ttl_s, self.limit = ttl_s, limit
        self._open: OrderedDict[str, tuple[float, Plan | Chain | None]] = OrderedDict()

    def issue(self, plan: Plan | Chain | None = None) -> str:
        """Return the request state of a new approval request (showing ``plan``)."""
        nonce = secrets.token_urlsafe(16)
        self._open[nonce] = (time.monotonic(), plan)
        while len(self._open) > self.limit:
            self._open.popitem(last=False)
        return STATE_PREFIX + nonce

    def plan_of(self, state: str | None) -> Plan | Chain | None:
        """Return the plan the open request ``state`` showed (None: none, or not open)."""
        found = self._open.get(_nonce(state))
        return found[1] if found is not None else None

    def is_open(self, state: str | None) -> bool:
        """Return True if ``state`` names a request this server issued that is unanswered."""
        return _nonce(state) in self._open

    def settle(self, state: str | None) -> bool:
        """Consume the open request ``state`` names; False if this server did not issue it."""
        issued = self._open.pop(_nonce(state), None)
        return issued is not None and time.monotonic() - issued[0] <= self.ttl_s


def _nonce(state: str | None) -> str:
    """Return the nonce of a request state this server issues ('' for any other)."""
    return state[len(STATE_PREFIX):] if state and state.startswith(STATE_PREFIX) else ''


async def _first_decision(host: Callable[[], Awaitable[types.ElicitResult]],
                          person: Callable[[], Awaitable[None]]) -> None:
    """Return when the first of the host and the person approves; raise Denied if it denies."""
    denied: list[Denied] = []
    async with anyio.create_task_group() as tg:
        async def via_host() -> None:
            try:
                _verdict(await host())
            except Denied as exc:
                denied.append(exc)
            except Exception:  # noqa: BLE001 - the host cannot ask: the person still can
                return
            tg.cancel_scope.cancel()

        async def via_person() -> None:
            try:
                await person()
            except Denied as exc:
                denied.append(exc)
            tg.cancel_scope.cancel()

        tg.start_soon(via_host)
        tg.start_soon(via_person)
    if denied:
        raise denied[0]


async def request_approval(ctx: ServerRequestContext[Any, Any],
                           params: types.CallToolRequestParams, message: str,
                           policy: str, issued: IssuedApprovals,
                           desk: OperatorDesk | None = None, tool: str = '',
                           plan: Plan | Chain | None = None,
                           facts: dict[str, Any] | None = None
                           ) -> types.InputRequiredResult | None:
    """
    Ask the user (and the person at ``desk``); return None when approved, or a result to send.

    A 2026-07-28 request keeps ``plan`` (the plan or job chain it describes), which
    its approved retry runs; ``facts`` (the plan's) go to the person's card. Raises :class:`Denied`
    when the user declines or the client cannot ask.
    """
    modern = ctx.protocol_version in MODERN_PROTOCOL_VERSIONS
    answer = (params.input_responses or {}).get(KEY)
    person = desk if desk is not None and desk.present() else None
    if answer is not None and modern and issued.settle(params.request_state):
        if desk is not None and desk.ruling(params.request_state or ''):
            return None  # the person approved before the host answered
        if isinstance(answer, types.ElicitResult):
            _verdict(answer)
            return None
        raise Denied(t('approval_not_elicitation'))
    if not ctx.session.check_client_capability(ELICITATION):
        if person is not None:
            await person.decide(tool, message, facts)
            return None
        if policy == 'allow':
            return None
        raise Denied(t('approval_unsupported'))
    if modern:
        state = issued.issue(plan)
        if person is not None:
            person.offer(state, tool, message, facts)
        return types.InputRequiredResult(
            input_requests={KEY: types.ElicitRequest(params=types.ElicitRequestFormParams(
                message=message, requested_schema=SCHEMA))},
            request_state=state)

    async def host() -> types.ElicitResult:
        return await ctx.session.elicit_form(message, SCHEMA, related_request_id=ctx.request_id)
    if person is not None:
        await _first_decision(host, lambda: person.decide(tool, message, facts))
        return None
    _verdict(await host())
    return None
