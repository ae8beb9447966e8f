"""
ROS refusals in the served language, over real rclpy and DDS.

The bridge is built as ``serve --lang zh`` builds it: the backend started inside
``speaking('zh')`` and the call pipeline set to ``zh``. A peer publishes joint
states stamped with simulation time to a wall-clock node, so a read is refused
with CLOCK_MISMATCH; the refusal reaches the client in Chinese, with the topic
name and numbers unchanged. Callbacks on the node's executor thread render in
the language the backend was started in.
"""

import threading

import anyio
from mcp import Client
from mcp_ros_bridge.backends.ros import RosBackend
from mcp_ros_bridge.capabilities import KINDS
from mcp_ros_bridge.catalog.loader import load_catalog
from mcp_ros_bridge.contract.results import error_block
from mcp_ros_bridge.messages import current_language, speaking
from mcp_ros_bridge.server.bridge import BridgeServer
from mcp_ros_bridge.server.calls import CallSettings
import mcp_types as types
import pytest
import ros_support

pytestmark = [pytest.mark.ros, pytest.mark.anyio]
pytest.importorskip('rclpy', reason='rclpy does not import: the ros layer needs it')
pytest.importorskip('rosgraph_msgs.msg', reason='rosgraph_msgs (the /clock type) is missing')


@pytest.fixture
async def bridge(tmp_path):
    """Return (bridge, backend, config) served in Chinese; a peer stamps with sim time."""
    path, config = ros_support.config_dir(tmp_path)
    peer = ros_support.Peer('zh_peer')
    clock = ros_support.SimClock(peer)
    ros_support.SensorPublisher(peer, config, now_ns=clock.now_ns)
    with speaking('zh'):  # as serve(): the backend starts in the served language
        backend = RosBackend(config, node_name='bridge_zh')
        await backend.start()
    try:
        assert await backend.wait_for_sensors(10.0) == []
        server = BridgeServer(load_catalog(path, 'zh', kinds=KINDS), backend,
                              CallSettings(lang='zh'), lang='zh')
        yield server, backend, config
        server.close()
    finally:
        await backend.close()
        peer.close()


@pytest.mark.parametrize('mode', ('legacy', '2026-07-28'))
async def test_clock_mismatch_refusal_reads_chinese(bridge, mode):
    server, _, config = bridge
    topic = config.ros.topics['joint_states'].name
    with anyio.fail_after(30):
        async with Client(server.server, mode=mode) as client:
            result = await client.call_tool('get_joint_states', {})
    assert result.is_error
    err = error_block(result)
    assert err['code'] == 'CLOCK_MISMATCH'
    text = '\n'.join(c.text for c in result.content if isinstance(c, types.TextContent))
    assert f'{topic} 的时间戳是仿真时间' in text, text
    assert '本节点使用墙上时钟（use_sim_time 为 false）' in text, text
    assert 'use_sim_time:=true' in text and 'is stamped with' not in text, text


async def test_executor_callbacks_render_in_the_starters_language(bridge):
    _, backend, _ = bridge
    seen, fired = [], threading.Event()
    node = backend.runtime.node

    def on_timer():
        seen.append(current_language())
        fired.set()

    timer = node.create_timer(0.01, on_timer)
    try:
        assert await anyio.to_thread.run_sync(fired.wait, 10.0)
    finally:
        timer.cancel()
        node.destroy_timer(timer)
    assert seen[0] == 'zh' and current_language() == 'en'
