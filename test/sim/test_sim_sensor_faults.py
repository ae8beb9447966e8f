"""
The simulation's sensor path fails closed: invalid F/T rows are never data, never motion.

The fault is injected where physics would produce it: the F/T sensor's output
array the stepping thread reads each step becomes NaN (or absurdly large), so
every row written from then on is invalid. Reads, motion starts and a running
motion must all end in SENSOR_FAULT, through the port and over MCP.
"""

import asyncio

import anyio
from mcp import Client
from mcp_ros_bridge.backends.port import BackendError, CartesianGoal, PoseGoal
from mcp_ros_bridge.contract.results import error_block
import numpy as np
import pytest
from sim_support import down, limits, running

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.sim, pytest.mark.anyio]


def break_sensor(backend, value=np.nan):
    """Make every F/T row from the next step on ``value`` on all axes; return the restorer."""
    world = backend.world
    real = world._sensor
    world._sensor = np.full(6, value)

    def restore():
        world._sensor = real
    return restore


@pytest.mark.parametrize('value,reason', [(np.nan, 'non_finite'), (1e6, 'out_of_range')])
async def test_invalid_rows_are_a_sensor_fault_not_data(value, reason):
    async with running() as b:
        assert (await b.wrench_samples(10)).rejected == {}
        restore = break_sensor(b, value)
        await b.advance(0.2)  # 100 invalid rows
        with pytest.raises(BackendError) as err:
            await b.wrench_samples(50)
        assert err.value.code == 'SENSOR_FAULT'
        details = err.value.details
        assert details['topic'] == 'sim/wrench' and details['reason'] == reason
        assert details['rejected'][reason] >= 100
        assert 'sim/wrench has no valid recent sample' in err.value.message
        restore()
        await b.advance(0.2)
        fresh = await b.wrench_samples(50)  # valid rows again: served, the rejects counted
        assert np.isfinite(np.array(fresh.samples)).all() and len(fresh.samples) == 50
        assert fresh.rejected[reason] >= 100


async def test_a_motion_is_refused_on_an_invalid_stream_and_nothing_moves():
    async with running() as b:
        before = (await b.joint_states()).positions
        break_sensor(b)
        await b.advance(0.05)
        with pytest.raises(BackendError, match='SENSOR_FAULT'):
            await b.move_to_pose(PoseGoal(down(0.4, 0.0, 0.3), limits()))
        after = (await b.joint_states()).positions
        assert np.allclose(before, after, atol=1e-4)


async def test_a_running_motion_stops_when_the_sensor_turns_invalid():
    async with running(speed=1.0) as b:
        assert (await b.move_to_pose(PoseGoal(down(0.4, 0.2, 0.3), limits()))).succeeded
        motion = asyncio.ensure_future(b.follow_cartesian_path(CartesianGoal(
            [down(0.4, -0.2, 0.3)], limits(0.3, cart=0.05))))
        while b.world.busy('arm') is None:  # until the motion runs on the stepping thread
            await b.advance(0.01)
        break_sensor(b)
        result = await asyncio.wait_for(motion, 30.0)
        assert result.status == 'FAILED', result.message
        assert result.details['code'] == 'SENSOR_FAULT'
        assert result.details['reason'] == 'non_finite'
        assert 'force guard stopped the motion' in result.message
        assert result.fraction < 0.9
        assert max(abs(v) for v in (await b.joint_states()).velocities[:7]) < 0.05


def test_non_finite_joint_states_are_a_sensor_fault():
    from mcp_ros_bridge.backends.sim import sensor_path
    from mcp_ros_bridge.backends.sim.world import World
    world = World()
    qpos, qvel, qfrc, stamp = world.snapshot()
    qvel = qvel.copy()
    qvel[world.arm_dof[3]] = np.inf
    world.latest = (qpos, qvel, qfrc, stamp)
    with pytest.raises(BackendError) as err:
        sensor_path.joint_states(world, 0.0)
    assert err.value.code == 'SENSOR_FAULT'
    assert err.value.details['field'] == 'velocity[panda_joint4]'
    with pytest.raises(BackendError, match='SENSOR_FAULT'):
        sensor_path.check_healthy(world, 0.5)


async def test_read_ft_sensor_over_mcp_is_an_error_never_nan(sim_bridge):
    break_sensor(sim_bridge.backend)
    await sim_bridge.backend.advance(0.1)
    with anyio.fail_after(60):
        async with Client(sim_bridge.server, mode='legacy') as c:
            result = await c.call_tool('read_ft_sensor', {'filter': 'raw'})
    assert result.is_error and result.structured_content is None
    block = error_block(result)
    assert block['code'] == 'SENSOR_FAULT' and block['details']['reason'] == 'non_finite'
    text = result.content[0].text
    assert 'SENSOR_FAULT' in text and 'nan' in text.lower() and 'Fx=' not in text
