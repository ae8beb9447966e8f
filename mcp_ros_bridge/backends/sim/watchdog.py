"""
Contact force guard: unexpected contact forces on the robot, every step.

A cheap test on ``cfrc_ext`` (computed each step because the model has
force sensors) finds candidate steps; only then are the individual contacts
resolved, ignoring the fingers' contacts with the object they hold.
"""

from __future__ import annotations

import mujoco
import numpy as np

from .sim_robot import PANDA, SimRobot


class ContactGuard:
    """Measure the unexpected contact force on the robot."""

    def __init__(self, model: mujoco.MjModel, robot: SimRobot = PANDA) -> None:
        """Index the robot's bodies (the arm's links less its base, the hand) and geoms."""
        self.m = model
        names = robot.arm_links[1:] + robot.hand_bodies
        self.bodies = np.array([model.body(n).id for n in names])
        lo, hi = int(self.bodies.min()), int(self.bodies.max()) + 1
        contiguous = hi - lo == len(self.bodies)
        self._rows = slice(lo, hi) if contiguous else self.bodies
        self.robot = np.zeros(model.ngeom, dtype=bool)
        self.robot[np.isin(model.geom_bodyid, self.bodies)] = True
        fingers = [model.body(n).id for n in robot.finger_bodies]
        self.finger_geom = np.isin(model.geom_bodyid, fingers)
        self._f6 = np.zeros(6)

    def quick(self, d: mujoco.MjData) -> float:
        """Return the summed external force on the robot bodies (a cheap pre-filter)."""
        return float(np.abs(d.cfrc_ext[self._rows, 3:]).sum())

    def measure(self, d: mujoco.MjData, held: int) -> tuple[float, dict[str, float]]:
        """Return total unexpected normal force (N) and the force per geom pair."""
        m, total = self.m, 0.0
        pairs: dict[str, float] = {}
        for i in range(d.ncon):
            g1, g2 = d.contact.geom1[i], d.contact.geom2[i]
            r1, r2 = self.robot[g1], self.robot[g2]
            if not (r1 or r2):
                continue
            mine, other = (g1, g2) if r1 else (g2, g1)
            if held >= 0 and self.finger_geom[mine] and m.geom_bodyid[other] == held:
                continue
            mujoco.mj_contactForce(m, d, i, self._f6)
            f = abs(float(self._f6[0]))
            total += f
            key = f'{_name(m, mine)}<->{_name(m, other)}'
            pairs[key] = pairs.get(key, 0.0) + f
        return total, pairs


def _name(m: mujoco.MjModel, g: int) -> str:
    return str(m.geom(g).name or m.body(m.geom_bodyid[g]).name)
