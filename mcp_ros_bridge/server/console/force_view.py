"""
The console's force view: every sensor sample of an interval folded into its min and max.

One sample per page update hides a contact shorter than the update period; so
each interval reads every sample newer than the last interval's and reports the
min and max of Fx, Fy, Fz and the force magnitude, net of the gripper's weight
and the tare exactly as ``read_ft_sensor`` computes them (capabilities/weighing.py,
capabilities/tare.py), beside the contact-force limit. The peak of the running
(then the last) motion is kept too.
"""

from __future__ import annotations

import time
from typing import Any

from mcp_ros_bridge.backends.port import RobotBackend
from mcp_ros_bridge.capabilities.memory import RobotMemory
from mcp_ros_bridge.capabilities.weighing import gravity_of, window_samples
from mcp_ros_bridge.catalog.robot import RobotConfig
import numpy as np

FIRST_WINDOW_S = 0.2  # the first interval of a page: the newest samples this long
OVERLAP_S = 0.1  # each read reaches back this much before the last one (no gap between)


class ForceView:
    """The force intervals of one console (the sampler calls :meth:`interval`)."""

    def __init__(self, memory: RobotMemory) -> None:
        """Subtract the tare kept in the robot's ``memory``."""
        self.memory = memory
        self.last_stamp: float | None = None
        self.motion_tool, self.motion_peak_n = '', 0.0
        self._running = False
        self._read_at = 0.0

    async def interval(self, backend: RobotBackend, robot: RobotConfig) -> dict[str, Any]:
        """Return the min/max of the samples since the last call (raises as the read does)."""
        now = time.monotonic()
        window = FIRST_WINDOW_S if self.last_stamp is None else now - self._read_at + OVERLAP_S
        self._read_at = now
        w = await window_samples(backend, window)
        last = self.last_stamp
        rows = [r for r, s in zip(w.samples, w.stamps) if last is None or s > last]
        # every sample since the last interval was read, or some were lost between
        whole = last is None or not w.stamps or w.stamps[0] <= last
        if w.stamps:
            self.last_stamp = w.stamps[-1]
        gravity = await gravity_of(backend, robot)
        tare = self.memory.tare if isinstance(gravity, tuple) else None
        net = 'none' if not isinstance(gravity, tuple) else 'tared' if tare else 'gripper_weight'
        view: dict[str, Any] = {'samples': len(rows), 'net_of': net, 'frame': w.frame_id,
                                'rate_hz': round(w.rate_hz, 1), 'age_s': round(w.age_s, 3),
                                'limit_n': robot.limits.contact_force_limit_n,
                                'whole': whole}
        if not isinstance(gravity, tuple):
            view['raw_because'] = gravity
        if rows:
            force = np.asarray(rows, dtype=float)[:, :3]
            if isinstance(gravity, tuple):
                force = force - gravity[0][:3] - (0.0 if tare is None else tare.offset[:3])
            table = np.column_stack([force, np.linalg.norm(force, axis=1)])
            view['min_n'] = [round(float(v), 3) for v in table.min(axis=0)]
            view['max_n'] = [round(float(v), 3) for v in table.max(axis=0)]
            if self._running:
                self.motion_peak_n = max(self.motion_peak_n, view['max_n'][3])
        view['motion'] = {'tool': self.motion_tool, 'peak_n': round(self.motion_peak_n, 3),
                          'running': self._running}
        return view

    def motion(self, tool: str | None) -> None:
        """Say which motion runs now (None: none); a new motion starts a new peak."""
        if tool is not None and not self._running:
            self.motion_tool, self.motion_peak_n = tool, 0.0
        self._running = tool is not None
