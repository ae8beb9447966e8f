"""stop_arm during planning on real physics: the stop wins, the planned motion never runs."""

import threading

import anyio
from mcp import Client
from mcp_ros_bridge.server.app import build, ServeOptions
import numpy as np
import pytest

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.sim, pytest.mark.anyio]

FAR = [1.0, -0.3, 0.0, -2.0, 0.0, 1.8, 0.785]


def _arm(result):
    return np.array([j['position'] for j in result.structured_content['joints']
                     if j['unit'] == 'rad'])


@pytest.mark.parametrize('mode', ['legacy', '2026-07-28'])
async def test_stop_during_planning_wins_and_the_plan_never_executes(mode):
    """The planner is held inside its worker thread; stop_arm ends the call before it moves."""
    bridge, backend = await build(ServeOptions(sim_speed=0, watch=False))
    entered, gate = threading.Event(), threading.Event()
    plan = backend.planner.joint_trajectory

    def held_plan(*args, **kwargs):
        entered.set()
        gate.wait(60)
        return plan(*args, **kwargs)

    backend.planner.joint_trajectory = held_plan
    results = {}
    try:
        async with Client(bridge.server, mode=mode) as c:
            with anyio.fail_after(90):
                before = _arm(await c.call_tool('get_joint_states', {}))
                async with anyio.create_task_group() as tg:
                    async def mover():
                        results['move'] = await c.call_tool(
                            'move_arm_joints', {'positions': FAR, 'velocity_scaling': 0.5})

                    tg.start_soon(mover)
                    assert await anyio.to_thread.run_sync(entered.wait, 60)
                    stop = await c.call_tool('stop_arm', {})
                    assert 'move' in results, 'the planning call ended with the stop'
                    gate.set()
                await backend.advance(1.0)
                after = _arm(await c.call_tool('get_joint_states', {}))
                idle = await c.call_tool('stop_arm', {})
                backend.planner.joint_trajectory = plan
                again = await c.call_tool('move_arm_joints', {'positions': FAR})
    finally:
        gate.set()
        await backend.close()
    assert stop.structured_content['stopped_motion'] is True, stop.content[0].text
    # The text and the fields agree: a motion call was stopped, not "nothing was moving".
    assert stop.structured_content['status'] == 'STOPPED', stop.structured_content
    for said in (stop.content[0].text, stop.structured_content['message']):
        assert 'before the arm moved' in said and 'nothing was moving' not in said, said
    assert 'No motion was running' in idle.content[0].text
    assert results['move'].is_error
    assert results['move'].structured_content['status'] == 'STOPPED'
    assert np.allclose(before, after, atol=1e-3), 'the planned motion never executed'
    assert idle.structured_content['stopped_motion'] is False, idle.content[0].text
    assert not again.is_error, again.content[0].text
