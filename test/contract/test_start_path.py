"""
Both entry points take one start path: the backend is created, started and closed once.

``mcp-ros-bridge serve`` and the ROS node executable build the same
``ServeOptions`` and go through ``server.app.serve``. The backend factory and
the stdio transport are replaced at their seams so the test can count; the
real rclpy version of this path is in test/ros/test_ros_entry.py.
"""

from __future__ import annotations

from typing import Any

from doubles import RecordingBackend
from mcp_ros_bridge import cli, ros_entry
from mcp_ros_bridge.server import app
from mcp_ros_bridge.server.bridge import BridgeServer
import pytest


class ReadyRecordingBackend(RecordingBackend):
    """The recording double with a ROS backend's readiness wait."""

    async def ready(self, timeout_s: float) -> list[str]:
        self.calls.append(('ready', timeout_s))
        return []


@pytest.fixture
def seams(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Record what the factory is asked for; serve one joint-state read, then end."""
    seen: dict[str, Any] = {'made': []}

    def make_backend(name: str, robot: Any, **options: Any) -> RecordingBackend:
        backend = ReadyRecordingBackend()
        seen['made'].append((name, options, backend))
        return backend

    async def serve_stdio(bridge: BridgeServer) -> None:
        await bridge.backend.joint_states()  # waits for the start, as every call does

    monkeypatch.setattr(app, 'make_backend', make_backend)
    monkeypatch.setattr(app, '_serve_stdio', serve_stdio)
    return seen


def _one_backend(seen: dict[str, Any]) -> tuple[dict[str, Any], list[tuple[str, Any]]]:
    assert len(seen['made']) == 1, seen['made']
    name, options, backend = seen['made'][0]
    assert name == 'ros'
    return options, backend.calls


def test_cli_serve_starts_waits_and_closes_the_backend_once(seams: dict[str, Any]) -> None:
    code = cli.main(['serve', '--backend', 'ros', '--no-watch', '--node-name', 'arm_bridge',
                     '--namespace', '/lab', '--ready-wait-s', '7.5'])
    assert code == 0
    options, calls = _one_backend(seams)
    assert options['node_name'] == 'arm_bridge' and options['namespace'] == '/lab'
    assert calls == [('start', None), ('ready', 7.5), ('joint_states', None),
                     ('close', None)]


def test_ros_node_takes_the_same_path(seams: dict[str, Any],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip('rclpy', reason='the node executable needs rclpy')
    values = {name: default for name, (default, _) in ros_entry.PARAMETERS.items()}
    values.update(watch=False, ready_wait_s=4.0)
    monkeypatch.setattr(ros_entry, 'read_parameters', lambda ros_args: values)
    ros_args = ['-r', '__node:=arm_bridge', '-r', '__ns:=/lab']
    assert ros_entry.main(['--ros-args', *ros_args]) == 0
    options, calls = _one_backend(seams)
    assert options['ros_args'] == ros_args and options['node_name'] == ros_entry.NODE_NAME
    assert calls == [('start', None), ('ready', 4.0), ('joint_states', None),
                     ('close', None)]
