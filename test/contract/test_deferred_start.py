"""
The server answers while its backend starts; calls wait for it; a failed start ends the server.

``serve`` without a backend passed in creates and starts the named backend in
the background (:mod:`mcp_ros_bridge.backends.deferred`), so ``tools/list``
does not wait for MuJoCo or rclpy. The subprocess test below breaks rclpy
on purpose to see the failure path over real stdio.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys

import anyio
from bridge_kit import REPO
from doubles import RecordingBackend
from mcp import Client, StdioServerParameters
from mcp_ros_bridge.backends.deferred import DeferredBackend, serve_while_starting
from mcp_ros_bridge.backends.port import BackendError
import pytest
from server_process import serve_argv, server_env

pytestmark = pytest.mark.anyio


async def test_calls_wait_for_the_start_then_reach_the_backend() -> None:
    created = RecordingBackend()
    gate = asyncio.Event()

    def create() -> RecordingBackend:
        return created

    backend = DeferredBackend('sim', create)
    original_start = created.start

    async def slow_start() -> None:
        await gate.wait()
        await original_start()
    created.start = slow_start
    call = asyncio.ensure_future(backend.joint_states())
    starting = asyncio.ensure_future(backend.start())
    await asyncio.sleep(0)
    assert not call.done() and created.calls == []
    gate.set()
    states = await asyncio.wait_for(call, 30.0)
    await asyncio.wait_for(starting, 30.0)
    assert states.names[0] == 'panda_joint1'
    assert created.calls == [('start', None), ('joint_states', None)]  # the call came after
    assert backend.info is created.info
    await backend.close()


async def test_a_failed_start_is_unavailable_and_stops_serving() -> None:
    def create() -> RecordingBackend:
        raise ImportError('no robot library here')

    backend = DeferredBackend('ros', create)
    never = asyncio.Event()
    serving = asyncio.ensure_future(never.wait())
    with pytest.raises(ImportError, match='no robot library here'):
        await asyncio.wait_for(serve_while_starting(backend, serving), 30.0)
    assert serving.cancelled()
    with pytest.raises(BackendError) as err:
        await backend.stop()
    assert err.value.code == 'UNAVAILABLE' and 'no robot library here' in err.value.message
    await backend.close()  # nothing started, nothing to close


async def test_serving_that_ends_first_waits_for_the_start_and_close_closes() -> None:
    created = RecordingBackend()
    backend = DeferredBackend('sim', lambda: created)

    async def serving() -> None:
        return None
    await asyncio.wait_for(serve_while_starting(backend, serving()), 30.0)
    assert backend.info is created.info  # the start was awaited, not cancelled
    await backend.close()


async def test_cli_exits_with_one_clear_line_when_the_backend_cannot_start(tmp_path) -> None:
    broken = tmp_path / 'rclpy'
    broken.mkdir()
    (broken / '__init__.py').write_text("raise ImportError('rclpy is broken here')\n")
    env = server_env(None)
    env['PYTHONPATH'] = os.pathsep.join([str(tmp_path), env.get('PYTHONPATH', REPO)])
    process = await anyio.open_process(
        [sys.executable, '-m', 'mcp_ros_bridge.cli', 'serve', '--backend', 'ros', '--no-watch'],
        cwd=REPO, env=env)
    hello = {'jsonrpc': '2.0', 'id': 1, 'method': 'initialize', 'params': {
        'protocolVersion': '2025-11-25', 'capabilities': {},
        'clientInfo': {'name': 'test', 'version': '1'}}}
    try:
        await process.stdin.send((json.dumps(hello) + '\n').encode())
        with anyio.fail_after(90):
            chunks = [chunk async for chunk in process.stderr]
            rc = await process.wait()  # stdin is still open: the failed start ends the server
    finally:
        if process.returncode is None:
            process.kill()
            with anyio.move_on_after(10, shield=True):
                await process.wait()
    lines = b''.join(chunks).decode('utf-8', 'replace').strip().splitlines()
    assert rc == 2
    assert [line for line in lines if line.startswith('mcp-ros-bridge:')] == [
        'mcp-ros-bridge: rclpy is broken here']


@pytest.mark.parametrize('mode', ['legacy', '2026-07-28'])
async def test_plan_only_as_the_first_call_over_stdio_waits_for_the_backend(mode) -> None:
    """plan_only is decided by the started backend, not by the placeholder while it starts."""
    params = StdioServerParameters(command=sys.executable, args=serve_argv(), cwd=REPO,
                                   env=server_env(None))
    with anyio.fail_after(120):
        async with Client(params, mode=mode) as client:
            r = await client.call_tool('move_arm_relative',
                                       {'offset': {'z': 0.05}, 'plan_only': True})
    assert not r.is_error, r.content[0].text
    assert r.structured_content['status'] == 'PLANNED'
    assert r.structured_content['path_length_m'] > 0.0
