"""Texts the simulation makes in its own tasks follow the language the server was started in."""

import re

from mcp_ros_bridge.messages import speaking
import pytest
from sim_support import calls_in_chinese, drive_into_table, load_config, running

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.sim, pytest.mark.anyio]


async def test_contact_abort_message_in_the_served_language():
    """The contact guard runs in the physics task; started under zh, it reports in Chinese."""
    with speaking('zh'):
        async with running(load_config(workspace_min_z=-0.2)) as b:
            result = await drive_into_table(b)
    assert result.status == 'CONTACT_ABORT', result.message
    assert result.message.startswith('接触力 ') and '超过 30 N 的限值' in result.message


ENGLISH = re.compile(r'\b(followed|holding position|nothing was|Opened|the path|fingers)\b')


@pytest.mark.parametrize('mode', ['legacy', '2026-07-28'])
async def test_cartesian_gripper_and_stop_results_read_chinese(mode):
    """Under --lang zh the simulation's own result messages are Chinese, numbers unchanged."""
    results = dict(zip((tool for tool, _ in CALLS), await calls_in_chinese(CALLS, mode, 120.0)))
    for tool, r in results.items():
        text = r.content[0].text
        message = (r.structured_content or {}).get('message', '')
        assert HAN.search(text) and HAN.search(message), (tool, text, message)
        assert not ENGLISH.search(text + message), (tool, text, message)
    assert '已在' in results['plan_trajectory'].structured_content['message']
    assert results['release_object'].structured_content['message'].startswith('已张开到 ')


CALLS = [('plan_trajectory', {'waypoints': [{'x': 0.35, 'y': 0.0, 'z': 0.4},
                                            {'x': 0.35, 'y': 0.1, 'z': 0.4}]}),
         ('release_object', {'width_m': 0.06}), ('stop_arm', {})]
HAN = re.compile(r'[\u4e00-\u9fff]')
