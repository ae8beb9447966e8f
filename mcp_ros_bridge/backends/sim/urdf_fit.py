"""
Fitting the simulated hand and the objects to an arm: fingers down over the box.

The hand's roll about its axis is free (the URDF says nothing of a gripper): the
first of four quarter turns that lets the fingers point straight down above the
box wins, so the last joint need not sit at a limit for the usual grasp. An arm
too short for the Panda scene's slots gets them moved in, 20 % at a time.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
import math

import mujoco
import numpy as np

from .kinematics import Kinematics
from .sim_robot import SimRobot
from .urdf_source import Unsupported

ROLLS = (0.0, math.pi / 2, math.pi, -math.pi / 2)
SCALES = (1.0, 0.8, 0.6)
DOWN = np.array([0.0, 1.0, 0.0, 0.0])  # fingers down, the tools' default orientation
ABOVE_M = 0.12  # the probe: this far above the box's top, where a pick starts


def _roll_down(robot: SimRobot, home: Sequence[float]) -> float | None:
    """Return the first roll of the hand that reaches above the box fingers down, if any."""
    model = robot.build_model()
    box = model.body(robot.objects[0]).id if robot.objects else -1
    data = mujoco.MjData(model)
    mujoco.mj_kinematics(model, data)
    probe = (data.xpos[box] if box >= 0 else np.array([0.5, 0.0, 0.025])) + (0, 0, ABOVE_M)
    adr = np.array([model.jnt_qposadr[model.joint(j).id] for j in robot.arm_joints])
    dof = np.array([model.jnt_dofadr[model.joint(j).id] for j in robot.arm_joints])
    kin = Kinematics(model, adr, dof, 0.02, robot)
    kin.set_state(data.qpos.copy())
    rng = np.random.default_rng(0)
    for roll in ROLLS:
        goal = np.empty(4)  # a hand rolled by r points down when the unrolled one is at -r
        mujoco.mju_mulQuat(goal, DOWN, np.array([math.cos(roll / 2), 0, 0, -math.sin(roll / 2)]))
        q, _ = kin.solve(probe, goal, np.asarray(home, float), rng, 12, 1e-4, 1e-3)
        if q is not None:
            return roll
    return None


def _home_collisions(robot: SimRobot, home: Sequence[float]) -> list[str]:
    """Return the contacts of the robot at ``home`` with the table, the objects or the floor."""
    model = robot.build_model()
    adr = np.array([model.jnt_qposadr[model.joint(j).id] for j in robot.arm_joints])
    dof = np.array([model.jnt_dofadr[model.joint(j).id] for j in robot.arm_joints])
    kin = Kinematics(model, adr, dof, 0.0, robot)
    kin.set_state(mujoco.MjData(model).qpos.copy())
    hits = kin.collisions(np.asarray(home, float), 0.0, ignore_hand_objects=False)
    return sorted({f'{h.geom1}<->{h.geom2}' for h in hits})


def fitted(assemble: Callable[[float, float], SimRobot], home: Sequence[float]) -> SimRobot:
    """
    Return ``assemble(roll, scale)`` for the first scale and roll that fit, else (0, 1).

    A home posture that puts the robot into the table or an object refuses
    (:class:`.urdf_source.Unsupported`): the world would start in collision.
    """
    robot = None
    for scale in SCALES:
        plain = assemble(0.0, scale)
        roll = _roll_down(plain, home)
        if roll is not None:
            robot = plain if roll == 0.0 else assemble(roll, scale)
            break
    robot = robot or assemble(0.0, 1.0)
    hits = _home_collisions(robot, home)
    if hits:
        raise Unsupported('sim_home_collides', contacts=', '.join(hits),
                          home=', '.join(f'{v:g}' for v in home))
    return robot
