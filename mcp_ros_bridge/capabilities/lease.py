"""``release_robot``: the session that drives the arm hands it over (safety/lease.py)."""

from __future__ import annotations

from typing import Any

from mcp_ros_bridge.capabilities.base import BOOL, CallContext, Kind, Outcome, output_schema, STR
from mcp_ros_bridge.messages import t


RELEASE_OUTPUT = output_schema({'released': BOOL, 'held_by': STR}, ['released', 'held_by'])
RELEASE = {'readOnlyHint': False, 'destructiveHint': False, 'idempotentHint': True,
           'openWorldHint': False}


async def run_release(ctx: CallContext, args: dict[str, Any]) -> Outcome:
    """Release the caller's lease of the arm, if it holds it."""
    if ctx.release_lease is None:
        raise RuntimeError('release_robot runs only in the call pipeline')
    answer = ctx.release_lease()
    content = {'released': answer.released, 'held_by': answer.held_by}
    if not answer.leasing:
        return Outcome(t('lease_off'), content)
    if answer.released:
        return Outcome(t('lease_released'), content)
    if answer.held_by:
        return Outcome(t('lease_held_by_other', client=answer.held_by,
                         left=f'{answer.left_s:.0f}'), content)
    return Outcome(t('lease_not_held'), content)


KINDS = [Kind('release_lease', run_release, RELEASE_OUTPUT, frozenset(), RELEASE,
              returns='returns_release_lease')]
