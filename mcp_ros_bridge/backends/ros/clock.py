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

WALL_CLOCK_MIN_S = 1e9
FIX_SIM = ('start the bridge with use_sim_time true: `ros2 launch mcp_ros_bridge '
           'bridge.launch.py use_sim_time:=true`, `mcp-ros-bridge serve --backend ros '
           '--use-sim-time`, or `--ros-args -p use_sim_time:=true`')
FIX_WALL = ('either give the publisher use_sim_time:=true too (controller_manager, '
            'robot_state_publisher, the sensor driver) or start the bridge without '
            'use_sim_time when no simulator runs')
NO_CLOCK = ('start the simulator and bridge its clock to ROS, e.g. `ros2 run ros_gz_bridge '
            'parameter_bridge /clock@rosgraph_msgs/msg/Clock[gz.msgs.Clock`; without a '
            'simulator, run the bridge without use_sim_time')


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
            'CLOCK_MISMATCH', f'{topic} is stamped with simulation time ({stamp_s:.3f} s) '
            f'but this node uses the wall clock (use_sim_time is false), so every sample '
            f'looks {now_s - stamp_s:.0f} s old', advice=FIX_SIM, details=details)
    raise BackendError(
        'CLOCK_MISMATCH', f'{topic} is stamped with wall-clock time ({stamp_s:.3f} s since '
        f'1970) but this node uses simulation time from /clock ({now_s:.3f} s, '
        f'use_sim_time is true)', advice=FIX_WALL, details=details)


def no_clock_error() -> BackendError:
    """Return the error for use_sim_time true before any /clock message arrived."""
    return BackendError('CLOCK_MISMATCH', 'use_sim_time is true but no message has arrived '
                        'on /clock yet, so sample ages cannot be computed', advice=NO_CLOCK,
                        details={'topic': '/clock', 'node_time_s': 0.0})
