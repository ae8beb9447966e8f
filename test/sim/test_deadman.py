"""Deadman: a client that vanishes mid-motion (no cancel message, just EOF) stops the arm."""

import anyio
from mcp.shared.memory import create_client_server_memory_streams
from mcp.shared.message import SessionMessage
from mcp_ros_bridge.server.app import build, ServeOptions
from mcp_types.jsonrpc import JSONRPCNotification, JSONRPCRequest
import numpy as np
import pytest

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.sim, pytest.mark.anyio]

INIT = {'protocolVersion': '2025-11-25', 'capabilities': {},
        'clientInfo': {'name': 'vanishing-client', 'version': '0'}}
FAR = [1.2, -0.2, 0.0, -1.8, 0.0, 1.9, 0.785]


def _arm_velocity(js) -> float:
    return float(np.max(np.abs(np.asarray(js.velocities[:7]))))


async def test_client_disconnect_mid_motion_stops_the_arm():
    """EOF on the client's stream cancels the running call; the arm halts and holds."""
    bridge, backend = await build(ServeOptions(sim_speed=1.0, watch=False))
    try:
        start = np.asarray((await backend.joint_states()).positions[:7])
        with anyio.fail_after(60):
            async with create_client_server_memory_streams() as (client, server):
                c_read, c_write = client
                s_read, s_write = server
                async with anyio.create_task_group() as tg:
                    tg.start_soon(bridge.server.run, s_read, s_write,
                                  bridge.server.create_initialization_options())

                    async def send(msg):
                        await c_write.send(SessionMessage(msg))

                    await send(JSONRPCRequest(jsonrpc='2.0', id=1, method='initialize',
                                              params=INIT))
                    await c_read.receive()
                    await send(JSONRPCNotification(jsonrpc='2.0',
                                                   method='notifications/initialized'))
                    await send(JSONRPCRequest(jsonrpc='2.0', id=2, method='tools/call', params={
                        'name': 'move_arm_joints', '_meta': {'progressToken': 'p'},
                        'arguments': {'positions': FAR, 'velocity_scaling': 0.1}}))
                    while True:  # wait until the arm is clearly moving (progress > 10 %)
                        msg = await c_read.receive()
                        root = getattr(msg, 'message', None)
                        params = getattr(root, 'params', None) or {}
                        if getattr(root, 'method', '') == 'notifications/progress' and \
                                params.get('progress', 0) > 0.1:
                            break
                    await c_write.aclose()  # the client vanishes: EOF, no cancellation
        await backend.advance(0.1)
        js = await backend.joint_states()
        assert _arm_velocity(js) < 0.02, js.velocities
        moved = np.asarray(js.positions[:7])
        assert np.linalg.norm(moved - start) > 0.02, 'the motion had started'
        assert np.linalg.norm(moved - np.asarray(FAR)) > 0.2, 'the motion did not finish'
        await backend.advance(0.5)
        held = np.asarray((await backend.joint_states()).positions[:7])
        assert np.allclose(held, moved, atol=2e-3), 'the arm holds where it stopped'
    finally:
        await backend.close()
