"""
RosBackend starts its parts once and releases them once, on real rclpy.

A second ``start`` keeps the running parts; a second ``close`` does nothing;
calls after close are UNAVAILABLE; a start that fails half-way shuts down the
node it created (no executor thread is left spinning).
"""

import threading

from mcp_ros_bridge.backends.port import BackendError
from mcp_ros_bridge.backends.ros import RosBackend
import pytest
import ros_support

pytestmark = [pytest.mark.ros, pytest.mark.anyio]
pytest.importorskip('rclpy', reason='rclpy does not import: the ros layer needs it')


def _executor_threads():
    return [t for t in threading.enumerate() if t.name == 'ros-executor' and t.is_alive()]


async def test_parts_start_once_and_close_once():
    before = len(_executor_threads())
    backend = RosBackend(ros_support.robot_config(), node_name='bridge_lifecycle')
    with pytest.raises(BackendError) as err:
        _ = backend.parts
    assert err.value.code == 'UNAVAILABLE'
    await backend.start()
    parts = backend.parts
    await backend.start()
    assert backend.parts is parts and len(_executor_threads()) == before + 1
    assert parts.runtime.running_node.get_name() == 'bridge_lifecycle'
    await backend.close()
    assert parts.runtime.context is None and parts.runtime.node is None
    assert len(_executor_threads()) == before
    await backend.close()  # nothing left to release
    with pytest.raises(BackendError) as err:
        await backend.joint_states()
    assert err.value.code == 'UNAVAILABLE' and backend.runtime is None


async def test_a_start_that_fails_half_way_leaves_no_node_running(monkeypatch):
    from mcp_ros_bridge.backends.ros import parts

    def broken(*args, **kwargs):
        raise RuntimeError('the halt publisher could not be created')

    monkeypatch.setattr(parts, 'Halter', broken)
    before = len(_executor_threads())
    backend = RosBackend(ros_support.robot_config(), node_name='bridge_half_started')
    with pytest.raises(RuntimeError, match='halt publisher'):
        await backend.start()
    assert len(_executor_threads()) == before and backend.runtime is None
    with pytest.raises(BackendError):
        _ = backend.parts
