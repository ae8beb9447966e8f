"""
Approvals a person decides in the console (the :class:`OperatorDesk` of safety/approval.py).

Each waiting call gets a one-time id of its own (the request state a
2026-07-28 host answers with stays with the bridge). A decision counts once, for
that id only, and is written to the audit trail with who decided.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
import secrets
import time
from typing import Any

import anyio
from mcp_ros_bridge.messages import t
from mcp_ros_bridge.safety.approval import Denied
from mcp_ros_bridge.server.audit import AuditLog
from mcp_ros_bridge.server.console.hub import EventHub

OFFERS_KEPT = 64


@dataclass
class Waiting:
    """One call waiting for a decision."""

    key: str
    tool: str
    message: str
    state: str  # the host's request state ('' when the call itself waits)
    facts: dict[str, Any] | None = None  # the plan's, shown on the card
    since: float = field(default_factory=time.monotonic)
    decision: asyncio.Future[tuple[bool, str]] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future())


class ConsoleDesk:
    """The calls waiting for a person; decisions from the console's POST route."""

    def __init__(self, hub: EventHub, audit: AuditLog, wait_s: float) -> None:
        """Publish the queue on ``hub``; a call waits ``wait_s`` for the person at most."""
        self.hub, self.audit, self.wait_s = hub, audit, wait_s
        self.waiting: dict[str, Waiting] = {}

    def present(self) -> bool:
        """Return True while a page that may decide is open."""
        return self.hub.operators > 0

    async def decide(self, tool: str, message: str,
                     facts: dict[str, Any] | None = None) -> None:
        """Wait for the person; raise Denied when they deny or nobody decides in time."""
        entry = self._add(tool, message, '', facts)
        try:
            with anyio.fail_after(self.wait_s):
                approved, who = await entry.decision
        except TimeoutError:
            self.audit.record(tool, {'approval_id': entry.key}, 'expired', self.wait_s,
                              decided_by=t('approval_console_expired'))
            self.hub.publish('withdrawn', {'id': entry.key, 'why': 'expired'})
            raise Denied(t('approval_console_timeout', seconds=f'{self.wait_s:g}')) from None
        finally:
            self._drop(entry.key)
        if not approved:
            raise Denied(t('approval_console_denied', who=who))

    def offer(self, state: str, tool: str, message: str,
              facts: dict[str, Any] | None = None) -> None:
        """Show a request the host answers by calling again with ``state``."""
        self._add(tool, message, state, facts)
        offers = [w for w in self.waiting.values() if w.state]
        for old in offers[:max(0, len(offers) - OFFERS_KEPT)]:
            self._drop(old.key)

    def ruling(self, state: str) -> bool:
        """Withdraw the offer of ``state``: True if approved, Denied if denied, else False."""
        entry = next((w for w in self.waiting.values() if w.state and w.state == state), None)
        if entry is None:
            return False
        decided = entry.decision.done() and not entry.decision.cancelled()
        self._drop(entry.key)
        if not decided:
            return False
        approved, who = entry.decision.result()
        if not approved:
            raise Denied(t('approval_console_denied', who=who))
        return True

    def settle(self, approval_id: str, approve: bool, who: str) -> bool:
        """Record the person's decision on ``approval_id``; False if nothing waits for it."""
        entry = self.waiting.get(approval_id)
        if entry is None or entry.decision.done():
            return False
        entry.decision.set_result((approve, who))
        self.audit.record(entry.tool, {'approval_id': approval_id},
                          'approved' if approve else 'denied', 0.0, decided_by=who,
                          event='approval')
        self._publish()
        return True

    def withdraw_all(self, why: str, who: str) -> None:
        """Deny every undecided call (``why`` shown on its card), e.g. once the arm is held."""
        for entry in list(self.waiting.values()):
            if not entry.decision.done():
                self.hub.publish('withdrawn', {'id': entry.key, 'why': why})
                entry.decision.set_result((False, who))
                self.audit.record(entry.tool, {'approval_id': entry.key}, 'withdrawn', 0.0,
                                  decided_by=who)
        self._publish()

    def _add(self, tool: str, message: str, state: str,
             facts: dict[str, Any] | None = None) -> Waiting:
        entry = Waiting(secrets.token_urlsafe(12), tool, message, state, facts)
        self.waiting[entry.key] = entry
        self._publish()
        return entry

    def _drop(self, approval_id: str) -> None:
        entry = self.waiting.pop(approval_id, None)
        if entry is not None and not entry.decision.done():
            entry.decision.cancel()
        self._publish()

    def queue(self) -> list[dict[str, Any]]:
        """Return the waiting calls as the page shows them."""
        now = time.monotonic()
        return [{'id': w.key, 'tool': w.tool, 'message': w.message,
                 'waiting_s': round(now - w.since, 1),
                 'expires_in_s': None if w.state else round(self.wait_s - (now - w.since), 1),
                 'decided': w.decision.done() and not w.decision.cancelled(),
                 **({'facts': w.facts} if w.facts else {})}
                for w in self.waiting.values()]

    def _publish(self) -> None:
        self.hub.publish('approvals', {'waiting': self.queue()})
