"""Schema-valid but absurd inputs are refused at once over a real stdio server; reads go on."""

from __future__ import annotations

import sys
from typing import Any

import anyio
from bridge_kit import HOME, REPO, text_of
from mcp import Client, StdioServerParameters
import pytest
from server_process import serve_argv, server_env, SIM

pytestmark = [pytest.mark.contract, pytest.mark.anyio]

FAR = [1.0, *HOME[1:]]  # one radian of joint 1: 0.6 s at full speed


@pytest.mark.skipif(not SIM, reason='the simulation needs mujoco (pip install mujoco)')
async def test_absurdly_slow_motion_is_refused_while_a_read_answers() -> None:
    """
    velocity_scaling 1e-5 once built a 5.8 GB trajectory; 1e-300 raised OverflowError.

    Both are refused before anything moves, naming the field and the slowest allowed
    value, while a concurrent read is answered.
    """
    params = StdioServerParameters(command=sys.executable, args=serve_argv(), cwd=REPO,
                                   env=server_env(None))
    with anyio.fail_after(300):  # generous: server start-up on a loaded machine
        async with Client(params) as client:
            before = (await client.call_tool('get_joint_states', {})).structured_content
            for scaling in (1e-5, 1e-300):
                results: dict[str, Any] = {}

                async def absurd(scaling: float = scaling, out: dict = results) -> None:
                    out['move'] = await client.call_tool(
                        'move_arm_joints', {'positions': FAR, 'velocity_scaling': scaling})

                async def read(out: dict = results) -> None:
                    out['read'] = await client.call_tool('get_joint_states', {})

                async with anyio.create_task_group() as tg:
                    tg.start_soon(absurd)
                    tg.start_soon(read)
                assert not results['read'].is_error, text_of(results['read'])
                text = text_of(results['move'])
                assert results['move'].is_error and 'LIMIT_EXCEEDED' in text, text
                assert f'velocity_scaling {scaling:g}' in text
                assert 'velocity_scaling >= 0.00' in text  # the slowest this motion allows
            after = (await client.call_tool('get_joint_states', {})).structured_content
            assert [j['position'] for j in after['joints'][:7]] == pytest.approx(
                [j['position'] for j in before['joints'][:7]], abs=1e-4)
