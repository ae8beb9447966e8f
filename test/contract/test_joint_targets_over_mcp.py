"""Issue 19: joint targets are never truncated, from the lint command to tools/call."""

from __future__ import annotations

import os
import subprocess
import sys

import anyio
from bridge_kit import error_code, make_bridge, MODES, REPO, text_of
from mcp import Client
import pytest
from six_joints import HOME6, write_six_joint_config

pytestmark = [pytest.mark.contract, pytest.mark.anyio]


def test_lint_prints_the_joint_count_finding_with_file_and_line(tmp_path) -> None:
    """`mcp-ros-bridge lint` on the 6-joint arm with a 7-value tool: exit 1, file:line, fix."""
    cfg = write_six_joint_config(str(tmp_path), tools_fixed=False)
    env = {**os.environ, 'PYTHONPATH': REPO + os.pathsep + os.environ.get('PYTHONPATH', '')}
    run = subprocess.run([sys.executable, '-m', 'mcp_ros_bridge.cli', 'lint', cfg],
                         capture_output=True, text=True, env=env, timeout=120, check=False)
    assert run.returncode == 1, run.stdout + run.stderr
    with open(os.path.join(cfg, 'tools.yaml'), encoding='utf-8') as f:
        line = 1 + next(i for i, text in enumerate(f.read().splitlines())
                        if text.strip() == 'maxItems: 7')
    found = [row for row in run.stdout.splitlines() if 'joint-count' in row]
    assert found, run.stdout
    assert f'tools.yaml:{line}' in run.stdout and 'move_arm_joints' in found[0]
    assert 'set minItems: 6, maxItems: 6' in run.stdout


@pytest.mark.parametrize('mode', MODES)
async def test_six_values_move_and_a_seventh_value_is_refused(tmp_path, mode: str) -> None:
    """On the fixed 6-joint catalog six values move; [..., 123456.0] is refused, nothing moves."""
    bridge, backend = make_bridge(write_six_joint_config(str(tmp_path), tools_fixed=True))
    async with Client(bridge.server, mode=mode) as client:
        with anyio.fail_after(30):
            bad = await client.call_tool('move_arm_joints', {'positions': HOME6 + [123456.0]})
            assert bad.is_error and error_code(bad) == 'INVALID_ARGUMENTS', text_of(bad)
            assert 'positions' in text_of(bad)
            assert backend.motion_calls == []
            ok = await client.call_tool('move_arm_joints', {'positions': HOME6})
            assert not ok.is_error, text_of(ok)
    sent = backend.motion_calls[0][1].positions
    assert list(sent) == [f'panda_joint{k}' for k in range(1, 7)]
    assert list(sent.values()) == HOME6
    bridge.close()
