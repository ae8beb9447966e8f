"""The clearance in motion results, over MCP on the simulation, checked against physics."""

import anyio
from mcp import Client
import pytest

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.sim, pytest.mark.anyio]


def _body_z(bridge, name: str) -> float:
    w = bridge.backend.world
    return float(w.data.xpos[w.model.body(name).id][2])


@pytest.mark.parametrize('mode', ['legacy', '2026-07-28'])
async def test_a_line_down_to_just_above_the_cylinder_reports_its_clearance(sim_bridge, mode):
    """Fingertips 5 mm over the cylinder's top: nearest cylinder, ~5 mm; the table gap too."""
    async with Client(sim_bridge.server, mode=mode) as c:
        with anyio.fail_after(120):
            top = _body_z(sim_bridge, 'cylinder') + 0.05
            tip_z = top + 0.005 + 0.009  # the pads reach 9 mm below the fingertip centre
            r = await c.call_tool('plan_trajectory', {'waypoints': [
                {'x': 0.3, 'y': 0.35, 'z': 0.2}, {'x': 0.3, 'y': 0.35, 'z': tip_z}]})
    text = r.content[0].text
    assert not r.is_error, text
    c = r.structured_content['clearance']
    assert c['nearest'] == 'cylinder' and abs(c['distance_m'] - 0.005) < 0.002, c
    assert abs(c['table_m'] - (tip_z - 0.009)) < 0.002, c
    assert 'Nearest object: cylinder, 5 mm from the hand' in text, text
