"""Texts the simulation makes in its own tasks follow the language the server was started in."""

from mcp_ros_bridge.messages import speaking
import pytest
from sim_support import drive_into_table, load_config, running

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.sim, pytest.mark.anyio]


async def test_contact_abort_message_in_the_served_language():
    """The contact guard runs in the physics task; started under zh, it reports in Chinese."""
    with speaking('zh'):
        async with running(load_config(workspace_min_z=-0.2)) as b:
            result = await drive_into_table(b)
    assert result.status == 'CONTACT_ABORT', result.message
    assert result.message.startswith('接触力 ') and '超过 30 N 的限值' in result.message
