"""
A ROS motion that ends off its goal reaches MCP with MoveIt's code and the measured error.

A ``BridgeServer`` on a real ``RosBackend`` talks to the typed move_group fakes
over DDS. The fake Cartesian planner goes somewhere else than the bridge asked
(``solution``), so the verified result is ``GOAL_NOT_REACHED``: that code, its
advice and the measured error must be in the result's ``_meta`` error block,
not a bare ``FAILED`` with empty details.
"""


from mcp import Client
from mcp_ros_bridge.contract.results import error_block
from mcp_ros_bridge.server.bridge import BridgeServer
from mcp_ros_bridge.server.calls import CallSettings
import pytest
import ros_support

pytestmark = [pytest.mark.ros_moveit, pytest.mark.anyio]
pytest.importorskip('rclpy', reason='rclpy does not import: the ros layer needs it')
moveit_rig = ros_support.import_moveit_rig()


@pytest.mark.parametrize('mode', ('legacy', '2026-07-28'))
async def test_goal_not_reached_keeps_its_code_and_measured_error_in_meta(tmp_path, mode):
    raw = moveit_rig.tagged_yaml(moveit_rig.new_tag())
    catalog = moveit_rig.ros_catalog(tmp_path, raw)
    async with moveit_rig.rigged(config=catalog.robot) as (backend, fake, _, _):
        fake.solution = [q + 0.05 for q in backend.config.home]  # not where it was sent
        bridge = BridgeServer(catalog, backend, CallSettings(motion_rate_per_s=1000.0,
                                                             motion_burst=1000))
        try:
            async with Client(bridge.server, mode=mode) as client:
                r = await client.call_tool('move_arm_relative', {'offset': {'z': 0.05}})
        finally:
            bridge.close()
    text = '\n'.join(c.text for c in r.content if c.type == 'text')
    assert r.is_error and r.structured_content['status'] == 'FAILED', text
    block = error_block(r)
    assert block['code'] == 'GOAL_NOT_REACHED', block
    details = block['details']
    assert details['status'] == 'FAILED' and details['advice'], details
    assert details['position_error_mm'] == r.structured_content['position_error_mm'] > 1.0
    assert 'get_joint_states' in text, 'the advice reaches the text too'
