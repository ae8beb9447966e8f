"""
The console's state banner: what the robot is doing now, in one line the person can trust.

One state, from the bridge's own state (never guessed by the page): HELD (by
whom, since when) > STOPPING (a motion being stopped) > MOVING (which tool, how
far) > WAITING FOR YOU (n approvals) > IDLE; beside it, how the last motion
ended, the sensor faults of the newest sample and who holds the robot's lease.
The page adds NOT LIVE itself when it loses the bridge.
"""

from __future__ import annotations

import time
from typing import Any

from mcp_ros_bridge.safety.arbiter import MotionArbiter
from mcp_ros_bridge.safety.lease import Lease


def state_of(arbiter: MotionArbiter, waiting: int) -> str:
    """Return the one state word: held, stopping, moving, waiting or idle."""
    running = arbiter.running
    if arbiter.held_since is not None:
        return 'held'
    if running is not None:
        return 'stopping' if running.preempted_by else 'moving'
    return 'waiting' if waiting else 'idle'


def lease_view(lease: Lease | None, ttl_s: float) -> dict[str, Any] | None:
    """Return the lease as the page shows it: holder, since (wall time), expiry (None: free)."""
    if lease is None:
        return None
    return {'client': lease.client, 'since': round(lease.since, 3),
            'expires_in_s': round(lease.left_s(time.monotonic()), 1), 'ttl_s': ttl_s}


def last_motion(entry: dict[str, Any]) -> dict[str, Any]:
    """Return how a motion call ended, from its audit entry (ok, an error code, cancelled)."""
    return {'tool': entry.get('tool', ''), 'outcome': entry.get('outcome', ''),
            'code': entry.get('code') or '', 'ended': time.time()}


def banner(arbiter: MotionArbiter, hold: dict[str, Any], waiting: int,
           progress: tuple[float, str], faults: dict[str, str],
           last: dict[str, Any] | None, lease: dict[str, Any] | None) -> dict[str, Any]:
    """Return the banner event: the state and what goes with it."""
    running = arbiter.running
    state = state_of(arbiter, waiting)
    view: dict[str, Any] = {'state': state, 'waiting': waiting, 'faults': dict(faults),
                            'last': last, 'lease': lease}
    if state == 'held':
        view.update(since=hold.get('since'), by=hold.get('by', ''))
    if running is not None:
        view.update(tool=running.tool, fraction=round(max(0.0, min(1.0, progress[0])), 3),
                    started=round(time.time() - (time.monotonic() - running.started), 3),
                    why=running.preempted_by)
    return view
