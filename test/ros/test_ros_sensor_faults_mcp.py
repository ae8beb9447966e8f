"""
Invalid sensor data as an MCP client sees it: an isError SENSOR_FAULT, never NaN or null.

The shipped catalog served by ``BridgeServer`` over a real RosBackend (real rclpy,
DDS on localhost) in both protocol generations; a peer publishes the wrench
with NaN forces, then valid ones again.
"""

import asyncio
import math
import time

import anyio
from mcp import Client
from mcp_ros_bridge.backends.ros import RosBackend
from mcp_ros_bridge.capabilities import KINDS
from mcp_ros_bridge.catalog.loader import load_catalog
from mcp_ros_bridge.contract.results import error_block
from mcp_ros_bridge.server.bridge import BridgeServer
from mcp_ros_bridge.server.calls import CallSettings
import mcp_types as types
import pytest
import ros_support

pytestmark = [pytest.mark.ros, pytest.mark.anyio]
pytest.importorskip('rclpy', reason='rclpy does not import: the ros layer needs it')


def text_of(result: types.CallToolResult) -> str:
    """Join the text blocks of a result."""
    return '\n'.join(c.text for c in result.content if isinstance(c, types.TextContent))


@pytest.mark.parametrize('mode', ['legacy', '2026-07-28'])
async def test_read_ft_sensor_on_a_nan_stream_is_an_error_naming_topic_and_reason(
        peer, tmp_path, mode):
    config_dir, config = ros_support.config_dir(tmp_path, max_age_s=0.3)
    pub = ros_support.SensorPublisher(peer, config, force=(math.nan, math.nan, math.nan))
    backend = RosBackend(config, node_name='bridge_faults_mcp')
    await backend.start()
    bridge = BridgeServer(load_catalog(config_dir, kinds=KINDS), backend,
                          CallSettings(motion_rate_per_s=1000.0, motion_burst=1000))
    topic = config.ros.topics['wrench'].name
    try:
        assert await backend.wait_for_sensors(10.0) == []
        with anyio.fail_after(30):
            async with Client(bridge.server, mode=mode) as client:
                result = await client.call_tool('read_ft_sensor', {'filter': 'raw'})
                assert result.is_error, text_of(result)
                assert result.structured_content is None  # no null values posing as data
                block = error_block(result)
                assert block['code'] == 'SENSOR_FAULT'
                assert block['details']['topic'] == topic
                assert block['details']['reason'] == 'non_finite'
                assert block['details']['rejected']['non_finite'] >= 1
                text = text_of(result)
                assert topic in text and 'not a finite number' in text and 'Fx=' not in text
                pub.force = (1.0, 2.0, 3.0)  # the driver recovers: reads work by themselves
                deadline = time.monotonic() + 10.0
                while (result := await client.call_tool('read_ft_sensor',
                                                        {'filter': 'raw'})).is_error:
                    assert time.monotonic() < deadline, text_of(result)
                    await asyncio.sleep(0.02)
                s = result.structured_content
                assert s['values']['Fz'] == 3.0 and s['rejected']['non_finite'] >= 1
                assert 'invalid sample(s) rejected since start' in text_of(result)
    finally:
        bridge.close()
        await backend.close()
