"""
Taring the wrist F/T sensor: zero the gripper-compensated reading at a chosen moment.

The tare is the mean wrench net of the gripper's weight over a still window, in
the sensor frame; later gripper-compensated readings subtract it, so they are
the load added since the tare (a container's contents, a residual sensor bias).
It is kept for the server's life in the robot's memory (:mod:`.memory`), for every client.
"""

from __future__ import annotations

import time
from typing import Any

from mcp_ros_bridge.backends.port import AXES, BackendError
from mcp_ros_bridge.capabilities.base import (BOOL, CallContext, fmt, Kind, NUM, Outcome,
                                              output_schema)
from mcp_ros_bridge.capabilities.memory import Tare
from mcp_ros_bridge.capabilities.weighing import (gripper_gravity, held_mass_kg, steady,
                                                  window_samples)
from mcp_ros_bridge.messages import t
import numpy as np

TARE_OUTPUT = output_schema({
    'tared': BOOL, 'offset': {'type': 'object', 'additionalProperties': NUM},
    'offset_mass_g': NUM, 'samples_used': {'type': 'integer'},
}, ['tared'])


def current(ctx: CallContext) -> Tare | None:
    """Return the tare in force, or None."""
    return ctx.memory.tare


async def run_tare(ctx: CallContext, args: dict[str, Any]) -> Outcome:
    """Store the mean gripper-compensated wrench of a still window as the tare, or clear it."""
    if args['clear']:
        had, ctx.memory.tare = ctx.memory.tare is not None, None
        return Outcome(t('tare_cleared' if had else 'tare_none'), {'tared': False})
    gravity = await gripper_gravity(ctx)
    if isinstance(gravity, str):
        raise BackendError('UNAVAILABLE', t('tare_no_orientation', why=gravity),
                           advice=t('tare_no_orientation_fix'))
    w = await window_samples(ctx.backend, float(args['window_s']))
    arr = np.asarray(w.samples, dtype=float)
    if not steady(arr, gravity[1]):
        raise BackendError('INVALID_GOAL', t('tare_unsteady'), advice=t('tare_unsteady_fix'),
                           details={'field': 'window_s', 'value': args['window_s']})
    offset = arr.mean(axis=0) - gravity[0]
    ctx.memory.tare = Tare(offset, time.monotonic())
    grams = round(held_mass_kg(offset, gravity[1]) * 1000.0, 1)
    values = {a: round(float(v), 4) for a, v in zip(AXES, offset)}
    return Outcome(t('tare_taken', samples=arr.shape[0], grams=fmt(grams, 1)),
                   {'tared': True, 'offset': values, 'offset_mass_g': grams,
                    'samples_used': int(arr.shape[0])})


KINDS = [
    Kind('tare_wrench', run_tare, TARE_OUTPUT, frozenset({'window_s', 'clear'}),
         {'readOnlyHint': False, 'destructiveHint': False, 'idempotentHint': False,
          'openWorldHint': False},
         returns='returns_tare'),
]
