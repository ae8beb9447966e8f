"""
The result of a motion that a stop or a vanished client ended, or kept from starting.

A motion stopped midway reports how long it held the arm and, when the backend
can tell (read once the arm is still, bounded), the pose where the arm stopped,
so the caller knows where the arm is without another call.
"""

from __future__ import annotations

import logging
import time

import anyio
from mcp_ros_bridge.backends.port import BackendError, RobotBackend
from mcp_ros_bridge.capabilities import Outcome
from mcp_ros_bridge.catalog.loader import ToolSpec
from mcp_ros_bridge.catalog.robot import RobotConfig
from mcp_ros_bridge.contract.results import outcome_result
from mcp_ros_bridge.failure import Failure
from mcp_ros_bridge.geometry import describe_pose, pose_to_dict
from mcp_ros_bridge.messages import MESSAGES, t
from mcp_ros_bridge.safety.arbiter import RunningMotion
import mcp_types as types

log = logging.getLogger('mcp_ros_bridge.calls')
POSE_READ_S = 2.0  # the arm stays held meanwhile; a motion sent now waits at most stop_wait_s


async def note_where_stopped(motion: RunningMotion, backend: RobotBackend,
                             robot: RobotConfig) -> None:
    """Record how long ``motion`` ran and the pose of the stopped arm (none if unreadable)."""
    motion.ran_s = time.monotonic() - motion.started
    with anyio.move_on_after(POSE_READ_S, shield=True) as bound:
        try:
            motion.stopped_at = await backend.end_effector_pose(robot.base_frame,
                                                                robot.end_effector)
        except BackendError as exc:
            log.info('no pose after the stop: %s', exc.message)
    if bound.cancelled_caught:
        log.warning('no pose after the stop within %.1f s', POSE_READ_S)


def stopped_result(spec: ToolSpec, why: str,
                   motion: RunningMotion | None = None) -> types.CallToolResult:
    """Render a motion that was stopped midway (``motion``) or never started (None)."""
    started = motion is not None
    reason = t(why) if why in MESSAGES else why  # stop reasons are message ids
    text = t('stopped_started' if started else 'stopped_not_started', tool=spec.name,
             why=reason)
    structured: dict[str, object] = {'status': 'STOPPED', 'duration_s': 0.0}
    if motion is not None:
        ran_s = motion.ran_s if motion.ran_s is not None else time.monotonic() - motion.started
        structured['duration_s'] = round(ran_s, 3)
        if motion.stopped_at is not None:
            text += t('motion_now_at', pose=describe_pose(motion.stopped_at))
            if 'final_pose' in (spec.output_schema or {}).get('properties', {}):
                structured['final_pose'] = pose_to_dict(motion.stopped_at)
    structured['message'] = text
    return outcome_result(Outcome(text, structured, Failure('STOPPED', text,
                                                            details={'started': started})),
                          spec.output_schema)
