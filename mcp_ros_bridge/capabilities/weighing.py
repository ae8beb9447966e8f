"""
Gravity compensation of the gripper on the wrist F/T sensor, and weighing.

The sensor reports the load the gripper (and whatever it holds) exerts on the
flange, in the sensor frame; the static-load math is :mod:`mcp_ros_bridge.geometry`'s
(the force guard uses the same). Windows are in seconds, whatever the sensor's rate.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
import math
import time

from mcp_ros_bridge.backends.port import BackendError, RobotBackend, WrenchSamples
from mcp_ros_bridge.capabilities.base import CallContext
from mcp_ros_bridge.catalog.robot import RobotConfig
from mcp_ros_bridge.geometry import gravity_in_sensor, held_mass_kg, tool_wrench
from mcp_ros_bridge.messages import t
import numpy as np

__all__ = ['gravity_in_sensor', 'gravity_of', 'gripper_gravity', 'held_mass_kg',
           'samples_after', 'steady', 'tool_wrench', 'window_samples']

STEADY_N = 0.04  # a spread of the quarter means below this (about 4 g) is steady at any noise
# Beyond it, a spread is a change of load once it exceeds this many standard deviations of a
# quarter's mean, from the sensor's own noise: pure noise exceeds it less than once in 1e5.
NOISE_SPREAD = 8.0


def sample_noise(along: np.ndarray) -> float:
    """Return the noise of one sample, from successive differences (a slow change adds little)."""
    return float(np.diff(along).std()) / math.sqrt(2.0)


def steady(samples: np.ndarray, g_sensor: np.ndarray) -> bool:
    """
    Return True when the load along gravity was constant across the sample window.

    The window is cut in quarters; the spread of their means is judged against
    what the sensor's measured noise alone would make it, so a still arm reads
    steady whatever the sensor's noise, and a load change above it does not.
    """
    if samples.shape[0] < 20:
        return True
    along = samples[:, :3] @ (g_sensor / np.linalg.norm(g_sensor))
    quarters = np.array_split(along, 4)
    means = [q.mean() for q in quarters]
    quarter_sd = sample_noise(along) / math.sqrt(min(len(q) for q in quarters))
    return bool(max(means) - min(means) <= max(STEADY_N, NOISE_SPREAD * quarter_sd))


PROBE_SAMPLES = 64   # read first to learn the sensor's rate
MAX_SAMPLES = 4096   # the most a backend keeps (the ROS buffer's length)


def _span(w: WrenchSamples, window_s: float) -> WrenchSamples:
    """Return the samples of ``w`` within ``window_s`` of its newest one (at least that one)."""
    if not w.stamps:
        return w
    start = w.stamps[-1] - window_s
    first = next((i for i, s in enumerate(w.stamps) if s >= start), len(w.stamps) - 1)
    return replace(w, samples=w.samples[first:], stamps=w.stamps[first:])


async def window_samples(backend: RobotBackend, window_s: float) -> WrenchSamples:
    """
    Return the newest wrench samples spanning ``window_s`` seconds, whatever the rate.

    A first short read measures the rate; a longer one follows only when the
    window needs more samples. Nothing waits: the samples are those already in.
    """
    if window_s <= 0.0:
        return await backend.wrench_samples(1)  # the newest sample alone
    w = await backend.wrench_samples(PROBE_SAMPLES)
    if w.rate_hz > 0.0:
        need = min(MAX_SAMPLES, math.ceil(window_s * w.rate_hz) + 1)
        if need > len(w.samples):
            w = await backend.wrench_samples(need)
    return _span(w, window_s)


async def samples_after(backend: RobotBackend, window_s: float,
                        since: float) -> WrenchSamples:
    """Return a window of ``window_s`` seconds of samples all newer than ``since`` (bounded)."""
    w = await window_samples(backend, window_s)
    deadline = time.monotonic() + window_s + 1.0
    while time.monotonic() < deadline and w.stamps and w.stamps[-1] - window_s < since:
        await asyncio.sleep(min(0.05, since + window_s - w.stamps[-1]))
        w = await window_samples(backend, window_s)
    return w


async def gripper_gravity(ctx: CallContext) -> tuple[np.ndarray, np.ndarray] | str:
    """Return the gripper's static wrench and gravity in the sensor frame, or why not."""
    return await gravity_of(ctx.backend, ctx.robot)


async def gravity_of(backend: RobotBackend,
                     r: RobotConfig) -> tuple[np.ndarray, np.ndarray] | str:
    """Return the static wrench of ``r``'s gripper and gravity in its sensor frame, or why not."""
    try:
        pose = await backend.end_effector_pose(r.base_frame, r.ft_frame)
    except BackendError as exc:
        return t('sensor_orientation_unknown', message=exc.message)
    g = gravity_in_sensor(pose.orientation)
    return tool_wrench(r.gripper_mass_kg, r.gripper_com_m, g), g
