"""
The static load on the wrist F/T sensor during a motion: the gripper's weight and a held object's.

The force guard limits the contact force, not the sensor's raw reading: a
3 kg gripper reads 29 N at rest, more than a 25 N contact limit. The expected
load is ``(gripper mass + held mass) * g`` with ``g`` the gravity vector in the
sensor frame, from the sensor's orientation (FK of the newest joint states:
:mod:`.kinematics`), refreshed while the arm turns. The held mass is weighed once at
the start of the motion, only while the gripper holds an object, and never
more than the heaviest catalog object: a contact present at the start is not
mistaken for a load. The static-load math is :mod:`mcp_ros_bridge.geometry`'s.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from mcp_ros_bridge.backends.port import Pose
from mcp_ros_bridge.backends.ros.sensors import WrenchBuffer
from mcp_ros_bridge.catalog.robot import RobotConfig
from mcp_ros_bridge.geometry import gravity_in_sensor, held_mass_kg
import numpy as np

WEIGH_S = 0.1  # the held mass is weighed on the newest 0.1 s of samples at the start


class StaticLoad:
    """The force (N, sensor frame) the gripper and what it holds put on the sensor at rest."""

    def __init__(self, config: RobotConfig, pose_of: Callable[[str, str], Awaitable[Pose]],
                 buffer: WrenchBuffer, holding: bool) -> None:
        """Weigh with ``buffer``'s samples; ``pose_of(frame, link)`` gives the sensor's pose."""
        self._config, self._pose_of, self._buffer = config, pose_of, buffer
        self._holding = holding
        self.held_kg: float | None = None  # weighed on the first call

    async def force(self) -> np.ndarray:
        """Return the expected static force now (raises BackendError without an orientation)."""
        c = self._config
        pose = await self._pose_of(c.base_frame, c.ft_frame)
        g = gravity_in_sensor(pose.orientation)
        if self.held_kg is None:
            self.held_kg = self._weigh(g) if self._holding else 0.0
        return np.asarray((c.gripper_mass_kg + self.held_kg) * g)

    def _weigh(self, g: np.ndarray) -> float:
        tail = self._buffer.tail(4096)
        if not tail:
            return 0.0
        rows = [r[2][:3] for r in tail if r[0] >= tail[-1][0] - WEIGH_S]
        net = np.mean(rows, axis=0) - self._config.gripper_mass_kg * g
        heaviest = max((o.mass_kg for o in self._config.objects.values()), default=0.0)
        return min(max(held_mass_kg(net, g), 0.0), heaviest)
