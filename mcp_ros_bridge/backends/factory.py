"""Create the backend a user named; each backend's heavy imports happen only here."""

from __future__ import annotations

from typing import Any

from mcp_ros_bridge.backends.port import RobotBackend
from mcp_ros_bridge.catalog.robot import RobotConfig

BACKENDS = ('sim', 'ros')


def make_backend(name: str, robot: RobotConfig, **options: Any) -> RobotBackend:
    """Create the named backend."""
    if name == 'sim':
        from mcp_ros_bridge.backends.sim import SimBackend
        return SimBackend(robot, speed=float(options.get('sim_speed', 1.0)),
                          seed=int(options.get('seed', 0)))
    if name == 'ros':
        from mcp_ros_bridge.backends.ros import RosBackend
        keys = ('node_name', 'namespace', 'ros_args', 'use_sim_time')
        return RosBackend(robot, **{k: v for k, v in options.items() if k in keys})
    raise ValueError(f'unknown backend {name!r}; use one of {", ".join(BACKENDS)}')
