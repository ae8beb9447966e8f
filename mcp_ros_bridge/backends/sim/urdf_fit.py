"""
Fitting the objects to an arm: the TCP fingers down over the box.

The hand lies along the declared TCP (``ros.tcp``), so nothing of it is free to
fit. An arm too short for the Panda scene's slots gets them moved in, 20 % at a
time, until the TCP reaches fingers down ``gripper.approach_m`` (plus
:data:`SPARE_M`) above the box's centre, where a pick starts; an object with
``start_xy_m`` in robot.yaml stays there. No fit refuses the start, naming the spots.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

import mujoco
import numpy as np

from .kinematics import Kinematics
from .mjcf import START_XY
from .sim_robot import SimRobot
from .urdf_source import Unsupported

SLOTS = (START_XY['box'], START_XY['cylinder'], (0.3, -0.35), (0.6, 0.3), (0.6, -0.3))  # m
SCALES = (1.0, 0.8, 0.6, 0.4)  # 0.4: the SO-101's reach (0.2 m to the box)
DOWN = np.array([0.0, 1.0, 0.0, 0.0])  # fingers down, the tools' default orientation
SPARE_M = 0.02  # the probe sits this much higher than the pick's start: room to move there


def _reaches_down(robot: SimRobot, home: Sequence[float], above_m: float, name: str,
                  xy: tuple[float, float] | None = None) -> tuple[bool, tuple[float, float]]:
    """
    Return whether the TCP reaches fingers down above object ``name``, and where (m).

    ``xy`` probes there instead, at the object's height.
    """
    model = robot.build_model()
    data = mujoco.MjData(model)
    mujoco.mj_kinematics(model, data)
    probe = data.xpos[model.body(name).id] + (0, 0, above_m + SPARE_M)
    if xy is not None:
        probe[:2] = xy
    adr = np.array([model.jnt_qposadr[model.joint(j).id] for j in robot.arm_joints])
    dof = np.array([model.jnt_dofadr[model.joint(j).id] for j in robot.arm_joints])
    kin = Kinematics(model, adr, dof, 0.02, robot)
    kin.set_state(data.qpos.copy())
    rng = np.random.default_rng(0)
    q, _ = kin.solve(probe, DOWN, np.asarray(home, float), rng, 12, 1e-4, 1e-3)
    return q is not None, (round(float(probe[0]), 3), round(float(probe[1]), 3))


def _home_collisions(robot: SimRobot, home: Sequence[float]) -> list[str]:
    """Return the contacts of the robot at ``home`` with the table, the objects or the floor."""
    model = robot.build_model()
    adr = np.array([model.jnt_qposadr[model.joint(j).id] for j in robot.arm_joints])
    dof = np.array([model.jnt_dofadr[model.joint(j).id] for j in robot.arm_joints])
    kin = Kinematics(model, adr, dof, 0.0, robot)
    kin.set_state(mujoco.MjData(model).qpos.copy())
    hits = kin.collisions(np.asarray(home, float), 0.0, ignore_hand_objects=False)
    return sorted({f'{h.geom1}<->{h.geom2}' for h in hits})


def fitted(assemble: Callable[[float, float], SimRobot], home: Sequence[float],
           above_m: float, placed: Collection[str] = ()) -> SimRobot:
    """
    Return ``assemble(0, scale)`` for the first scale whose first slot the TCP reaches over.

    The first slot is probed at the first object's height; objects in ``placed`` stand
    where robot.yaml starts them, whatever the scale. Refuses in one line
    (:class:`.urdf_source.Unsupported`) when the home posture puts the robot into the
    table or an object (the world would start in collision), when the TCP reaches
    fingers down over the first slot at no scale, or over a placed object: a pick could
    never start.
    """
    robot = assemble(0.0, SCALES[0])
    if not robot.objects:
        return robot
    first = robot.objects[0]
    misses: list[tuple[float, float]] = []
    for scale in SCALES:
        plain = robot if scale == SCALES[0] else assemble(0.0, scale)
        slot = (SLOTS[0][0] * scale, SLOTS[0][1] * scale)
        reached, spot = _reaches_down(plain, home, above_m, first, slot)
        if reached:
            robot, misses = plain, []
            break
        misses.append(spot)
    hits = _home_collisions(robot, home)
    if hits:
        raise Unsupported('sim_home_collides', contacts=', '.join(hits),
                          home=', '.join(f'{v:g}' for v in home))
    if misses:
        raise _out_of_reach(first, above_m, misses)
    for name in (n for n in robot.objects if n in placed):
        reached, spot = _reaches_down(robot, home, above_m, name)
        if not reached:
            raise _out_of_reach(name, above_m, [spot])
    return robot


def _out_of_reach(name: str, above_m: float, spots: list[tuple[float, float]]) -> Unsupported:
    return Unsupported('sim_objects_out_of_reach', box=name, above=f'{above_m + SPARE_M:g}',
                       spots='; '.join(f'{x:g}, {y:g}' for x, y in spots))
