"""Texts the simulation makes in its own tasks follow the language the server was started in."""

from mcp_ros_bridge.backends.port import CartesianGoal, PoseGoal
from mcp_ros_bridge.messages import speaking
import pytest
from sim_support import down, limits, load_config, running

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.sim, pytest.mark.anyio]


async def test_contact_abort_message_in_the_served_language():
    """The contact guard runs in the physics task; started under zh, it reports in Chinese."""
    with speaking('zh'):
        async with running(load_config(workspace_min_z=-0.2)) as b:
            assert (await b.move_to_pose(PoseGoal(down(0.35, -0.25, 0.08), limits()))).succeeded
            result = await b.follow_cartesian_path(CartesianGoal(
                [down(0.35, -0.25, -0.1)], limits(0.5, force=30.0, cart=0.1),
                avoid_collisions=False))
    assert result.status == 'CONTACT_ABORT', result.message
    assert result.message.startswith('接触力 ') and '超过 30 N 的限值' in result.message
