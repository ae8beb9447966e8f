"""
The simulation's sensor reads, validated as the ROS backend's are.

Physics can produce NaN or absurd values (an unstable model, a bad plugin):
the world counts each invalid F/T row as it is written and leaves it out of
reads (:meth:`.world.World.wrench`); joint states are checked when read. A
stream with no valid recent sample, or non-finite joint states, raise
SENSOR_FAULT, and motions refuse to start while F/T rows are being rejected.
"""

from __future__ import annotations

from mcp_ros_bridge.backends.port import JointStates, WrenchSamples
from mcp_ros_bridge.backends.sensor_checks import (check_joint_arrays, fault_error,
                                                   Rejection, Rejections)
import numpy as np

from .world import World

WRENCH = 'sim/wrench'  # the stream names errors use, as topics on ROS
JOINTS = 'sim/joint_states'
SPARE_ROWS = 32  # rows read beyond a window, so a few rejected ones do not shorten it


def joint_states(world: World, age_s: float) -> JointStates:
    """Return arm and finger positions, velocities and efforts; SENSOR_FAULT unless finite."""
    qpos, qvel, qfrc, stamp = world.snapshot()
    qi = np.concatenate([world.arm_qpos, world.finger_qpos])
    di = np.concatenate([world.arm_dof, world.finger_dof])
    names = world.robot.arm_joints + world.robot.finger_joints
    pos, vel, eff = qpos[qi].tolist(), qvel[di].tolist(), qfrc[di].tolist()
    bad = check_joint_arrays(names, pos, vel, eff)
    if bad is not None:
        rejections = Rejections()
        raise fault_error(JOINTS, rejections.add(bad[0], bad[1], bad[2], stamp), rejections)
    return JointStates(names, tuple(pos), tuple(vel), tuple(eff), stamp, age_s, 'sim')


def wrench_samples(world: World, count: int, frame: str, age_s: float,
                   max_age_s: float) -> WrenchSamples:
    """Return up to ``count`` newest valid F/T rows; SENSOR_FAULT when none is recent."""
    rows, stamps = world.wrench(count + SPARE_ROWS)
    rows, stamps = rows[-count:], stamps[-count:]
    rejections = world.ft_rejections
    if not len(stamps) or world.time - float(stamps[-1]) > max_age_s:
        newest = rejections.newest or Rejection('non_finite', 'Fx', 'nan', world.time, 0.0)
        raise fault_error(WRENCH, newest, rejections)
    return WrenchSamples(tuple(tuple(r) for r in rows.tolist()), tuple(stamps.tolist()),
                         frame, age_s, 1.0 / world.model.opt.timestep, 'sim',
                         rejected=rejections.counts())


def check_healthy(world: World, max_age_s: float) -> None:
    """Raise SENSOR_FAULT when an F/T row was rejected within ``max_age_s`` or joints are bad."""
    recent = world.ft_rejections.recent(max_age_s)
    if recent is not None:
        raise fault_error(WRENCH, recent, world.ft_rejections)
    joint_states(world, 0.0)
