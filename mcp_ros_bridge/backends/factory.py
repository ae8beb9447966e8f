"""Create the backend a user named; each backend's heavy imports happen only here."""

from __future__ import annotations

from collections.abc import Sequence

from mcp_ros_bridge.backends.port import RobotBackend
from mcp_ros_bridge.catalog.robot import RobotConfig

BACKENDS = ('sim', 'ros')


def make_backend(name: str, robot: RobotConfig, *, sim_speed: float, node_name: str,
                 namespace: str, use_sim_time: bool, ros_args: Sequence[str] = (),
                 seed: int = 0) -> RobotBackend:
    """Create (not start) the named backend; the sim ignores the ROS settings and vice versa."""
    if name == 'sim':
        from mcp_ros_bridge.backends.sim import SimBackend
        return SimBackend(robot, speed=sim_speed, seed=seed)
    if name == 'ros':
        from mcp_ros_bridge.backends.ros import RosBackend
        return RosBackend(robot, node_name=node_name, namespace=namespace,
                          ros_args=list(ros_args), use_sim_time=use_sim_time)
    raise ValueError(f'unknown backend {name!r}; use one of {", ".join(BACKENDS)}')
