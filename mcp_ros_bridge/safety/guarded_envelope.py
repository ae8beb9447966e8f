"""
The envelope of a guarded move: speed, contact threshold, cone, and the room the box leaves.

A guarded move goes "until contact", so an agent cannot know how far that is:
its straight line is cut where it would leave the workspace box (the result
says so) instead of being refused. It is refused, and nothing moves, when the
box leaves less than :data:`MIN_ROOM_M` along the direction, the finger axis is
outside the approach cone, or the speed, threshold or push cap is outside its limit (the
speed's: ``max_guarded_speed_mps``, where the impact stays under the contact-force cap; the
threshold's: the contact-force limit less the impact margin at that speed).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
import math

from mcp_ros_bridge.backends.port import GuardedGoal, Pose
from mcp_ros_bridge.messages import t
from mcp_ros_bridge.safety.goal_checks import Envelope, LimitError
from mcp_ros_bridge.safety.path_limits import Slack

MIN_ROOM_M = 0.001
# The impact of a guarded approach grows with its speed (~0.8 N per mm/s: the simulated
# Panda on a rigid table, bench/bench_guarded_move.py; the tool text says the same). The
# threshold stays this margin below the contact-force limit, so the force at the stop,
# which is the threshold plus the rise while the arm stops, never passes the limit.
IMPACT_N_PER_MPS = 800.0


def threshold_cap(limit_n: float, speed_mps: float) -> float:
    """Return the highest contact threshold (N) a guarded move may use at ``speed_mps``."""
    return max(0.0, limit_n - IMPACT_N_PER_MPS * speed_mps)


def room_along(p: Sequence[float], d: Sequence[float], lo: Sequence[float],
               hi: Sequence[float]) -> float:
    """Return how far (m) the point ``p`` may go along unit ``d`` and stay in the box."""
    room = math.inf
    for pi, di, a, b in zip(p, d, lo, hi):
        if di > 1e-12:
            room = min(room, (b - pi) / di)
        elif di < -1e-12:
            room = min(room, (pi - a) / -di)
    return room


async def check_guarded(envelope: Envelope, goal: GuardedGoal, start: Pose,
                        in_workspace: Callable[[Pose], Awaitable[Pose]],
                        notes: list[str]) -> tuple[GuardedGoal, bool]:
    """
    Return the checked goal (distance cut to the box) and whether the box cut it.

    ``start`` is the tip pose now in the goal's frame; ``in_workspace``
    expresses a pose in the workspace frame.
    """
    lim = envelope.limits
    top = min(lim.max_cartesian_speed_mps, lim.max_guarded_speed_mps)  # the impact's bound
    speed = envelope._bounded('speed_mps', goal.speed_mps, 0.0, top, True, notes)
    top_force = threshold_cap(lim.contact_force_limit_n, speed)
    try:
        force = envelope._bounded('contact_force_n', goal.force_threshold_n, 0.0, top_force,
                                  True, notes)
    except LimitError as exc:
        exc.failure = replace(exc.failure, advice=t(
            'guarded_threshold_fix', cap=f'{top_force:.4g}', speed=f'{speed:g}',
            limit=f'{lim.contact_force_limit_n:g}', per=f'{IMPACT_N_PER_MPS / 1000:g}'))
        raise
    cap = goal.push_force_cap_n if not goal.push_object else envelope._bounded(
        'max_force_n', goal.push_force_cap_n, 0.0, lim.contact_force_limit_n, True, notes)
    envelope.orientation(start.orientation, t('guarded_label'), path=True,
                         slack_deg=Slack().angle_deg)
    end = replace(start, position=tuple(  # type: ignore[arg-type]
        p + d for p, d in zip(start.position, goal.direction)))
    a, b = (await in_workspace(start)).position, (await in_workspace(end)).position
    ws = lim.workspace
    room = room_along(a, [bi - ai for ai, bi in zip(a, b)], ws.lo, ws.hi)
    if not room >= MIN_ROOM_M:
        raise LimitError(f"workspace ({t('guarded_label')})", tuple(round(v, 4) for v in a),
                         t('guarded_room_allowed', room=f'{max(room, 0.0):.4f}',
                           minimum=MIN_ROOM_M), t('guarded_room_fix'))
    cut = room < goal.max_distance_m
    return replace(goal, max_distance_m=min(goal.max_distance_m, room), speed_mps=speed,
                   force_threshold_n=force, push_force_cap_n=cap), cut
