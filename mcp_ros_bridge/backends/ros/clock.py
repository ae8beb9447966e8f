"""
Which clock a time belongs to, and the error when stamps and the node clock disagree.

A simulator (Gazebo with ``ros_gz_bridge``) publishes ``/clock`` starting near
zero; drivers that use it stamp messages with simulation time. A node with
``use_sim_time`` false reads the wall clock, about 1.8e9 s since 1970. Any wall
time is later than :data:`WALL_CLOCK_MIN_S` (2001-09-09) and any plausible
simulation time is earlier (31 years of simulated time), so one comparison
tells the two apart; a sample age of 1.8e9 s is a clock mix-up, not a dead driver.
"""

from __future__ import annotations

from mcp_ros_bridge.backends.port import BackendError
from mcp_ros_bridge.backends.sensor_checks import WALL_CLOCK_MIN_S
from mcp_ros_bridge.messages import t


def is_wall_time(t_s: float) -> bool:
    """Return True when ``t_s`` (seconds) is a wall-clock time, False for simulation time."""
    return t_s >= WALL_CLOCK_MIN_S


def check_stamp(topic: str, stamp_s: float, now_s: float) -> None:
    """Raise CLOCK_MISMATCH when ``stamp_s`` and the node time ``now_s`` use different clocks."""
    if stamp_s <= 0.0 or is_wall_time(stamp_s) == is_wall_time(now_s):
        return
    details = {'topic': topic, 'stamp_s': round(stamp_s, 3), 'node_time_s': round(now_s, 3)}
    if is_wall_time(now_s):
        raise BackendError(
            'CLOCK_MISMATCH', t('clock_sim_stamps', topic=topic, stamp_s=stamp_s,
                                age_s=now_s - stamp_s),
            advice=t('clock_fix_sim'), details=details)
    raise BackendError(
        'CLOCK_MISMATCH', t('clock_wall_stamps', topic=topic, stamp_s=stamp_s, now_s=now_s),
        advice=t('clock_fix_wall'), details=details)


def no_clock_error() -> BackendError:
    """Return the error for use_sim_time true before any /clock message arrived."""
    return BackendError('CLOCK_MISMATCH', t('clock_none'), advice=t('clock_fix_none'),
                        details={'topic': '/clock', 'node_time_s': 0.0})
