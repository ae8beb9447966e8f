"""
Plans kept for later: a ``plan_id`` names one checked plan, runs it once, expires after a TTL.

A plan-only motion stores its :class:`Plan` here; ``execute_plan`` takes it out
(single use: a second call with the id is refused) and the backend refuses it
when the arm is no longer at its start (``STALE_PLAN``). Nothing moves on a refusal.
"""

from __future__ import annotations

from collections.abc import Callable
import secrets
import time
from typing import Any

from mcp_ros_bridge.backends.port import BackendError, Plan
from mcp_ros_bridge.messages import t

PLAN_TTL_S = 120.0
KEPT = 64  # at most this many unused plans are kept; the oldest go first


class PlanStore:
    """Single-use plan ids with a time to live."""

    def __init__(self, ttl_s: float = PLAN_TTL_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """Keep plans for ``ttl_s`` by ``clock``."""
        self.ttl_s, self.clock = ttl_s, clock
        self._plans: dict[str, tuple[float, Plan]] = {}
        self._used: dict[str, str] = {}  # id -> why it cannot run again (used, expired)

    def keep(self, plan: Plan) -> str:
        """Store ``plan``; return its new id."""
        if len(self._plans) >= KEPT:
            self._used[next(iter(self._plans))] = 'expired'
            del self._plans[next(iter(self._plans))]
        plan_id = 'plan-' + secrets.token_hex(6)
        self._plans[plan_id] = (self.clock(), plan)
        return plan_id

    def peek(self, plan_id: str) -> Plan | None:
        """Return the kept plan of ``plan_id`` (None when it cannot run); it stays kept."""
        found = self._plans.get(plan_id)
        if found is None or self.clock() - found[0] > self.ttl_s:
            return None
        return found[1]

    def take(self, plan_id: str) -> Plan:
        """Return the plan and forget it; refuse an unknown, used or expired id."""
        found = self._plans.pop(plan_id, None)
        if found is None:
            why = self._used.get(plan_id, 'unknown')
            raise BackendError(f'PLAN_{why.upper()}', t(f'plan_id_{why}', plan_id=plan_id),
                               advice=t('plan_id_fix'), details={'field': 'plan_id'})
        made, plan = found
        if self.clock() - made > self.ttl_s:
            self._used[plan_id] = 'expired'
            raise BackendError('PLAN_EXPIRED', t('plan_id_expired', plan_id=plan_id),
                               advice=t('plan_id_fix'),
                               details={'field': 'plan_id', 'ttl_s': self.ttl_s})
        self._used[plan_id] = 'used'
        return plan


def plan_facts(plan: Plan) -> dict[str, Any]:
    """Return what a person or an agent is shown of a plan (SI, rounded)."""
    facts: dict[str, Any] = {'duration_s': round(plan.duration_s, 3),
                             'path_length_m': round(plan.path_length_m, 4),
                             'peak_tip_speed_mps': round(plan.peak_tip_speed_mps, 4),
                             'peak_joint_speed_rad_s': round(plan.peak_joint_speed_rad_s, 4)}
    target = plan.target
    if target is not None:
        facts['target_m'] = {k: round(float(v), 4) for k, v in zip('xyz', target.position)}
    if plan.start.held:
        facts['object'] = plan.start.held
    return facts


def chain_facts(plans: list[Plan]) -> dict[str, Any]:
    """Return the facts of a job's chain of arm plans: time and path summed, speeds the peak."""
    each = [plan_facts(p) for p in plans]
    facts: dict[str, Any] = {
        'motions': len(each),
        'duration_s': round(sum(f['duration_s'] for f in each), 3),
        'path_length_m': round(sum(f['path_length_m'] for f in each), 4),
        'peak_tip_speed_mps': max((f['peak_tip_speed_mps'] for f in each), default=0.0),
        'peak_joint_speed_rad_s': max((f['peak_joint_speed_rad_s'] for f in each), default=0.0)}
    last = each[-1] if each else {}  # the job's target: where its last motion ends
    if 'target_m' in last:
        facts['target_m'] = last['target_m']
    return facts
