"""
Fitting the objects to an arm: the TCP fingers down over the box.

The hand lies along the declared TCP (``ros.tcp``), so nothing of it is free to
fit. An arm too short for the Panda scene's slots gets them moved in, 20 % at a
time, until the TCP reaches fingers down ``gripper.approach_m`` (plus
:data:`SPARE_M`) above the box's centre, where a pick starts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import mujoco
import numpy as np

from .kinematics import Kinematics
from .sim_robot import SimRobot
from .urdf_source import Unsupported

SCALES = (1.0, 0.8, 0.6, 0.4)  # 0.4: the SO-101's reach (0.2 m to the box)
DOWN = np.array([0.0, 1.0, 0.0, 0.0])  # fingers down, the tools' default orientation
SPARE_M = 0.02  # the probe sits this much higher than the pick's start: room to move there


def _reaches_down(robot: SimRobot, home: Sequence[float], above_m: float) -> bool:
    """Return True when the TCP reaches above the box fingers down."""
    model = robot.build_model()
    box = model.body(robot.objects[0]).id if robot.objects else -1
    data = mujoco.MjData(model)
    mujoco.mj_kinematics(model, data)
    probe = (data.xpos[box] if box >= 0 else np.array([0.5, 0.0, 0.025])) + (0, 0, above_m + SPARE_M)
    adr = np.array([model.jnt_qposadr[model.joint(j).id] for j in robot.arm_joints])
    dof = np.array([model.jnt_dofadr[model.joint(j).id] for j in robot.arm_joints])
    kin = Kinematics(model, adr, dof, 0.02, robot)
    kin.set_state(data.qpos.copy())
    rng = np.random.default_rng(0)
    q, _ = kin.solve(probe, DOWN, np.asarray(home, float), rng, 12, 1e-4, 1e-3)
    return q is not None


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
           above_m: float) -> SimRobot:
    """
    Return ``assemble(0, scale)`` for the first scale that fits, else scale 1.

    A home posture that puts the robot into the table or an object refuses
    (:class:`.urdf_source.Unsupported`): the world would start in collision.
    """
    robot = None
    for scale in SCALES:
        plain = assemble(0.0, scale)
        if _reaches_down(plain, home, above_m):
            robot = plain
            break
    robot = robot or assemble(0.0, 1.0)
    hits = _home_collisions(robot, home)
    if hits:
        raise Unsupported('sim_home_collides', contacts=', '.join(hits),
                          home=', '.join(f'{v:g}' for v in home))
    return robot
