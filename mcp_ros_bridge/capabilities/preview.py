"""
Plan-only motions: plan (and check) a motion, report it, move nothing.

A plan-only goal carries a path check that raises :class:`PlannedOnly` with
the whole planned tip path. Backends run the path check on the complete plan
before anything moves (the port's contract), so the motion stops there; only
backends that declare ``BackendInfo.previews_plans`` are asked.
"""

from __future__ import annotations

from collections.abc import Sequence
import itertools
import math
from typing import Any

from mcp_ros_bridge.backends.port import BackendError, Pose, RobotBackend
from mcp_ros_bridge.messages import t


class PlannedOnly(BackendError):
    """Raised by the preview path check: the planned path, never executed."""

    def __init__(self, poses: Sequence[Pose], times: Sequence[float]) -> None:
        """Keep the planned duration, tip path length and final pose."""
        super().__init__('PLANNED', t('plan_only_note'))
        self.duration_s = float(times[-1]) if times else 0.0
        self.path_length_m = sum(math.dist(a.position, b.position)
                                 for a, b in itertools.pairwise(poses))
        self.final_pose = poses[-1] if poses else None


def preview_check(poses: Sequence[Pose], times: Sequence[float]) -> None:
    """Stop the motion before it starts by raising :class:`PlannedOnly`."""
    raise PlannedOnly(poses, times)


async def previews_plans(backend: RobotBackend) -> bool:
    """Return whether ``backend`` previews plans, once a backend still starting is up."""
    return (await backend.wait_started()).previews_plans


def unsupported(tool_args: dict[str, Any]) -> BackendError:
    """Return the refusal for plan_only on a backend that cannot preview."""
    return BackendError('UNSUPPORTED', t('plan_only_unsupported'),
                        advice=t('plan_only_unsupported_fix'),
                        details={'field': 'plan_only', 'value': tool_args.get('plan_only')})
