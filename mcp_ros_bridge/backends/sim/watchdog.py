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
        self._robot: list[bool] = self.robot.tolist()
        self._finger: list[bool] = self.finger_geom.tolist()
        self._body: list[int] = model.geom_bodyid.tolist()
        self.geom_names = [model.geom(g).name for g in range(model.ngeom)]
        self._labels = [_name(model, g) for g in range(model.ngeom)]

    def quick(self, d: mujoco.MjData) -> float:
        """Return the summed external force on the robot bodies (a cheap pre-filter)."""
        return float(np.abs(d.cfrc_ext[self._rows, 3:]).sum())

    def measure(self, d: mujoco.MjData, held: int) -> tuple[float, dict[str, float]]:
        """Return total unexpected normal force (N) and the force per geom pair."""
        m, total = self.m, 0.0
        pairs: dict[str, float] = {}
        for i, g, o in self.robot_contacts(d, held):
            mujoco.mj_contactForce(m, d, i, self._f6)
            f = abs(float(self._f6[0]))
            total += f
            key = f'{self._labels[g]}<->{self._labels[o]}'
            pairs[key] = pairs.get(key, 0.0) + f
        return total, pairs

    def robot_contacts(self, d: mujoco.MjData, held: int,
                       held_counts: bool = False) -> list[tuple[int, int, int]]:
        """
        Return the contacts that load the robot as (index, robot-side geom, other geom).

        The grip (a finger on the held body) is left out. With ``held_counts`` the
        held body counts as part of the robot (its contacts with the world are
        loads; any robot geom on it is the grip). Plain lists: a step has a few
        contacts, where numpy's per-call cost would exceed the work.
        """
        robot, finger, body = self._robot, self._finger, self._body
        found = []
        for i, (g1, g2) in enumerate(d.contact.geom[:d.ncon].tolist()):
            r1, r2 = robot[g1], robot[g2]
            if held_counts and held >= 0:
                h1, h2 = body[g1] == held, body[g2] == held
                if (r1 and h2) or (r2 and h1) or not (r1 or r2 or h1 or h2):
                    continue
                first = r1 or h1
            elif not (r1 or r2):
                continue
            else:
                first = r1
                mine, other = (g1, g2) if r1 else (g2, g1)
                if held >= 0 and finger[mine] and body[other] == held:
                    continue
            found.append((i, g1, g2) if first else (i, g2, g1))
        return found


def _name(m: mujoco.MjModel, g: int) -> str:
    return str(m.geom(g).name or m.body(m.geom_bodyid[g]).name)
