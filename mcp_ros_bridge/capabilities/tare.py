"""
Taring the wrist F/T sensor: zero the gripper-compensated reading at a chosen moment.

The tare is the mean wrench net of the gripper's weight over a still window, in
the sensor frame; later gripper-compensated readings subtract it, so they are
the load added since the tare (a container's contents, a residual sensor bias).
It is kept for the server's life in :attr:`CallContext.shared`, for every client.
"""

from __future__ import annotations

from dataclasses import dataclass
import time
from typing import Any

from mcp_ros_bridge.backends.port import AXES, BackendError
from mcp_ros_bridge.capabilities.base import (BOOL, CallContext, fmt, Kind, NUM, Outcome,
                                              output_schema)
from mcp_ros_bridge.capabilities.weighing import gripper_gravity, held_mass_kg, steady
import numpy as np

KEY = 'ft_tare'

TARE_OUTPUT = output_schema({
    'tared': BOOL, 'offset': {'type': 'object', 'additionalProperties': NUM},
    'offset_mass_g': NUM, 'samples_used': {'type': 'integer'},
}, ['tared'])


@dataclass(frozen=True)
class Tare:
    """A stored tare: the compensated wrench (sensor frame) and when it was taken."""

    offset: np.ndarray
    taken_mono: float

    def age_s(self) -> float:
        """Return how long ago the tare was taken, in seconds."""
        return time.monotonic() - self.taken_mono


def current(ctx: CallContext) -> Tare | None:
    """Return the tare in force, or None."""
    tare = ctx.shared.get(KEY)
    return tare if isinstance(tare, Tare) else None


async def run_tare(ctx: CallContext, args: dict[str, Any]) -> Outcome:
    """Store the mean gripper-compensated wrench of a still window as the tare, or clear it."""
    if args['clear']:
        had = ctx.shared.pop(KEY, None) is not None
        return Outcome('Tare cleared; readings are net of the gripper only.' if had else
                       'No tare was set; readings are net of the gripper only.', {'tared': False})
    gravity = await gripper_gravity(ctx)
    if isinstance(gravity, str):
        raise BackendError('UNAVAILABLE', f'cannot tare: {gravity}; nothing changed',
                           advice='check get_end_effector_pose, then tare again')
    w = await ctx.backend.wrench_samples(int(args['window']))
    arr = np.asarray(w.samples, dtype=float)
    if not steady(arr, gravity[1]):
        raise BackendError('INVALID_GOAL', 'the load changed during the tare window; the tare '
                           'is unchanged', advice='hold the arm still (no motion, no contact) '
                           'and call tare_ft_sensor again',
                           details={'field': 'window', 'value': args['window']})
    offset = arr.mean(axis=0) - gravity[0]
    ctx.shared[KEY] = Tare(offset, time.monotonic())
    grams = round(held_mass_kg(offset, gravity[1]) * 1000.0, 1)
    values = {a: round(float(v), 4) for a, v in zip(AXES, offset)}
    return Outcome(f'Tared over {arr.shape[0]} samples: read_ft_sensor now reports the load '
                   f'added since now (the tare holds {fmt(grams, 1)} g net of the gripper). '
                   'Tare again after changing the tool; clear with {"clear": true}.',
                   {'tared': True, 'offset': values, 'offset_mass_g': grams,
                    'samples_used': int(arr.shape[0])})


KINDS = [
    Kind('tare_wrench', run_tare, TARE_OUTPUT, frozenset({'window', 'clear'}),
         {'readOnlyHint': False, 'destructiveHint': False, 'idempotentHint': False,
          'openWorldHint': False},
         returns='returns_tare'),
]
