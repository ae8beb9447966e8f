"""
A job preview is the run: pick_object with plan_only on the UR3 with its gripper, then for real.

The preview plans every motion of the pick from where the one before ends, so
its answer (PLANNED, or the failing step and code) is what the run then does.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import anyio
from mcp import Client
from mcp_ros_bridge.contract.results import error_block
import pytest
from robot_data import robots_dir

from bridge_kit import REPO  # noqa: I100 - on the path robot_data sets

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
pytestmark = [pytest.mark.robots, pytest.mark.sim]
HOME = [0.0, -1.5708, 1.5708, -1.5708, -1.5708, 0.0]  # the UR start posture a user sets


def _ur3_config(out: str) -> str:
    base = robots_dir()
    urdf = os.path.join(base, 'ur_description/urdf/ur3_gripper.urdf')
    srdf = os.path.join(base, 'ur_description/srdf/ur3_gripper.srdf')
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get('PYTHONPATH', ''))
    init = subprocess.run([sys.executable, '-m', 'mcp_ros_bridge.cli', 'init', '--urdf', urdf,
                           '--srdf', srdf, '--out', out], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert init.returncode == 0, init.stderr
    path = os.path.join(out, 'robot.yaml')  # init's all-zeros home lays the arm on the table
    with open(path, encoding='utf-8') as f:
        text = f.read()
    with open(path, 'w', encoding='utf-8') as f:
        f.write(re.sub(r'  postures:\n    home: \[[^\]]*\]', f'  postures:\n    home: {HOME}',
                       text))
    return out


def _answer(r) -> tuple[str, str]:
    """Return (status or failed step, code) of a pick answer."""
    if not r.is_error:
        return 'ok', ''
    block = error_block(r)
    return block['details']['failed_step'], block['code']


@pytest.mark.anyio
async def test_the_ur3_cylinder_pick_preview_agrees_with_the_run(tmp_path):
    """The preview's verdict on the cylinder (pass, or the failing step and code) is the run's."""
    from mcp_ros_bridge.server.app import build
    from mcp_ros_bridge.server.settings import ServeOptions
    config = _ur3_config(str(tmp_path / 'ur3'))
    bridge, backend = await build(ServeOptions(config_dir=config, sim_speed=0, watch=False))
    try:
        async with Client(bridge.server, mode='2026-07-28') as c:
            with anyio.fail_after(300):
                names = {o['name'] for o in (await c.call_tool('list_objects', {}))
                         .structured_content['objects']}
                assert 'cylinder' in names
                preview = await c.call_tool('pick_object', {'object': 'cylinder',
                                                            'plan_only': True})
                run = await c.call_tool('pick_object', {'object': 'cylinder'})
    finally:
        await backend.close()
    if not preview.is_error:
        assert preview.structured_content['status'] == 'PLANNED'
        steps = {s['step']: s['check'] for s in preview.structured_content['plan']}
        assert steps['descend'] == steps['lift'] == 'planned', steps
    assert _answer(preview) == _answer(run), (preview.content[0].text, run.content[0].text)
