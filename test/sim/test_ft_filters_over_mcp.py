"""Over MCP on the simulation: the Kalman filter smooths the wrist torques like its forces."""

import anyio
from mcp import Client
from mcp_ros_bridge.capabilities.weighing import samples_after
import numpy as np
import pytest

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.sim, pytest.mark.anyio]

WINDOW_S = 0.1  # 50 samples of the simulation's 500 Hz sensor
AXES = ['Fz', 'Mx', 'My']


async def _values(c: Client, args: dict) -> tuple[list[float], float]:
    r = (await c.call_tool('read_ft_sensor', {'axes': AXES, **args})).structured_content
    return [r['values'][a] for a in AXES], r['stamp']


async def test_kalman_cuts_torque_noise_like_force_noise(sim_bridge):
    """At rest, 40 reads of fresh windows: Fz (0.05 N noise) and Mx, My (0.002 Nm) alike."""
    raw, kal = [], []
    stamp = 0.0
    async with Client(sim_bridge.server, mode='legacy') as c:
        with anyio.fail_after(120):
            for _ in range(40):
                await samples_after(sim_bridge.backend, WINDOW_S, stamp)  # a window of new noise
                values, stamp = await _values(c, {'filter': 'kalman', 'window_s': WINDOW_S})
                kal.append(values)
                raw.append((await _values(c, {'filter': 'raw'}))[0])
    factor = np.var(raw, axis=0) / np.var(kal, axis=0)    # variance: about 3² = 9 each
    assert factor.min() > 3.0, dict(zip(AXES, factor))
    assert factor.max() / factor.min() < 3.0, dict(zip(AXES, factor))
