"""
Gravity compensation of the gripper on the wrist F/T sensor, and weighing.

The sensor reports the load the gripper (and whatever it holds) exerts on the
flange, in the sensor frame: at rest that is ``m * g`` for the gravity vector
``g`` (m/s^2) expressed in the sensor frame, and ``c x (m * g)`` as torque for
the centre of mass ``c`` (m, sensor frame). The base frame's z axis points up.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
import time
from typing import Any

from mcp_ros_bridge.backends.port import BackendError
from mcp_ros_bridge.capabilities.base import CallContext
from mcp_ros_bridge.messages import t
import numpy as np
from transforms3d.quaternions import quat2mat

GRAVITY = 9.81  # m/s^2 along -z of the base frame


def gravity_in_sensor(q_sensor_in_base: Sequence[float]) -> np.ndarray:
    """Return the gravity vector (m/s^2) in the sensor frame, given its orientation (wxyz)."""
    rot = quat2mat(np.asarray(q_sensor_in_base, dtype=float))
    return np.asarray(rot.T @ np.array([0.0, 0.0, -GRAVITY]))


def tool_wrench(mass_kg: float, com_m: Sequence[float], g_sensor: np.ndarray) -> np.ndarray:
    """Return the wrench (N, Nm) a static tool of this mass and centre of mass reads."""
    force = mass_kg * g_sensor
    return np.concatenate([force, np.cross(np.asarray(com_m, dtype=float), force)])


def held_mass_kg(net_wrench: Sequence[float], g_sensor: np.ndarray) -> float:
    """Return the mass (kg) whose weight explains the net force along gravity."""
    return float(np.dot(np.asarray(net_wrench[:3], dtype=float), g_sensor) / GRAVITY ** 2)


STEADY_N = 0.04  # largest spread of the quarter means of the load along gravity (about 4 g)


def steady(samples: np.ndarray, g_sensor: np.ndarray) -> bool:
    """Return True when the load along gravity was constant across the sample window."""
    if samples.shape[0] < 20:
        return True
    along = samples[:, :3] @ (g_sensor / np.linalg.norm(g_sensor))
    means = [q.mean() for q in np.array_split(along, 4)]
    return bool(max(means) - min(means) <= STEADY_N)


async def samples_after(backend: Any, count: int, since: float) -> Any:
    """Return the newest ``count`` wrench samples once all are newer than ``since`` (bounded)."""
    w = await backend.wrench_samples(count)
    deadline = time.monotonic() + count / max(w.rate_hz, 1.0) + 1.0
    while time.monotonic() < deadline:
        fresh = sum(1 for t in w.stamps if t > since)
        if fresh >= count:
            break
        await asyncio.sleep(min(0.05, (count - fresh) / max(w.rate_hz, 1.0)))
        w = await backend.wrench_samples(count)
    return w


async def gripper_gravity(ctx: CallContext) -> tuple[np.ndarray, np.ndarray] | str:
    """Return the gripper's static wrench and gravity in the sensor frame, or why not."""
    r = ctx.robot
    try:
        pose = await ctx.backend.end_effector_pose(r.base_frame, r.ft_frame)
    except BackendError as exc:
        return t('sensor_orientation_unknown', message=exc.message)
    g = gravity_in_sensor(pose.orientation)
    return tool_wrench(r.gripper_mass_kg, r.gripper_com_m, g), g
