"""
Real arms nobody here wrote (example-robot-data): init, lint, the generated tools, the calls.

For each arm the config comes from ``mcp-ros-bridge init`` (the CLI, as a user runs it),
lints without errors, and the shipped tools.yaml serves it: the joint array has the
arm's joint count, names and URDF limits less the margin, the texts name its frames,
and no other robot's names appear.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

from mcp import Client
from mcp_ros_bridge.capabilities import KINDS
from mcp_ros_bridge.catalog.description import parse_urdf
from mcp_ros_bridge.catalog.linter import lint_config
from mcp_ros_bridge.catalog.loader import load_catalog
from mcp_ros_bridge.contract.results import error_block
import pytest
from robot_data import arm_files, assert_published_bounds

from bridge_kit import make_bridge, REPO, text_of  # noqa: I100 - on the path robot_data sets

pytestmark = [pytest.mark.robots]


def _cli(*argv: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get('PYTHONPATH', ''))
    return subprocess.run([sys.executable, '-m', 'mcp_ros_bridge.cli', *argv], cwd=REPO,
                          env=env, capture_output=True, text=True, timeout=120, check=False)


def test_init_from_the_cli_writes_a_config_that_lints_clean(arm, tmp_path):
    urdf, srdf, _ = arm_files(arm)
    out = str(tmp_path / 'cfg')
    init = _cli('init', '--urdf', urdf, *(['--srdf', srdf] if srdf else []), '--out', out)
    assert init.returncode == 0, init.stderr
    assert 'robot.yaml' in init.stdout and 'mcp-ros-bridge lint' in init.stdout
    lint = _cli('lint', out)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    assert lint.stdout.splitlines()[-1].startswith('0 error(s)'), lint.stdout
    again = _cli('init', '--urdf', urdf, '--out', out)  # never overwritten silently
    assert again.returncode != 0 and '--force' in again.stderr


def test_tools_list_is_generated_from_the_description(arm_config):
    config, arm, count = arm_config
    catalog = load_catalog(config, kinds=KINDS)
    robot = catalog.robot
    with open(arm_files(arm)[0], encoding='utf-8') as f:
        urdf = parse_urdf(f.read())
    assert len(robot.arm_joints) == count
    positions = catalog.get('move_arm_joints').input_schema['properties']['positions']
    assert positions['minItems'] == positions['maxItems'] == count
    margin = robot.limits.joint_limit_margin_rad
    said = positions['description']  # the chain's ends; every name in order: get_robot_info
    assert f'{robot.arm_joints[0]} to {robot.arm_joints[-1]}' in said and 'get_robot_info' in said
    for item, name in zip(positions['prefixItems'], robot.arm_joints):
        joint = urdf.joint(name)
        if joint.kind != 'continuous':
            assert_published_bounds(item, joint.lower + margin, joint.upper - margin)
    assert positions['examples'][0] == list(robot.home)
    listing = json.dumps([t.description for t in catalog.tools]
                         + [json.dumps(t.input_schema) for t in catalog.tools])
    assert robot.base_frame in listing and robot.end_effector in listing
    assert f'{count} joint targets' in catalog.get('move_arm_joints').description
    assert robot.arm_joints[0] in listing and robot.arm_joints[-1] in listing
    if arm != 'panda':
        assert 'panda' not in listing.lower()
    assert '${' not in listing


def test_description_notes_are_lint_warnings(tmp_path):
    from mcp_ros_bridge.catalog.init_config import write_config
    urdf, srdf, _ = arm_files('kinova')
    write_config(str(tmp_path), urdf, srdf)
    notes = [f for f in lint_config(str(tmp_path), KINDS) if f.rule == 'description-note']
    assert any("SRDF state 'arm_up' left out" in f.message for f in notes)
    assert any('continuous' in f.message for f in notes)
    assert all(f.severity == 'warning' and f.file.endswith('robot.yaml') for f in notes)


@pytest.mark.anyio
@pytest.mark.parametrize('mode', ['legacy', '2026-07-28'])
async def test_joint_arrays_of_another_arm_are_checked_whole(tmp_path, mode):
    """A wrong count or an out-of-range value is refused naming the field; none is dropped."""
    from mcp_ros_bridge.catalog.init_config import write_config
    urdf, srdf, count = arm_files('ur5')
    write_config(str(tmp_path), urdf, srdf)
    bridge, backend = make_bridge(str(tmp_path))
    home = list(bridge.catalog.robot.home)
    async with Client(bridge.server, mode=mode) as client:
        for bad in (home + [123456.0], home[:-1], home[:-1] + [9.0]):
            result = await client.call_tool('move_arm_joints', {'positions': bad})
            assert result.is_error and error_block(result)['code'] == 'INVALID_ARGUMENTS'
            assert 'positions' in text_of(result)
        assert backend.motion_calls == []
        ok = await client.call_tool('move_arm_joints', {'positions': home})
    assert not ok.is_error, text_of(ok)
    (_, goal), = backend.motion_calls
    assert list(goal.positions) == list(bridge.catalog.robot.arm_joints)
    assert len(goal.positions) == count


def test_the_simulation_refuses_an_arm_it_cannot_build_in_one_line(tmp_path):
    """The server answers, then ends with one line: the client sees EOF, never a hang."""
    from mcp_ros_bridge.catalog.init_config import write_config
    urdf, srdf, _ = arm_files('kinova')
    # a copy of its package whose base mesh is PLY, a format neither MuJoCo nor the bridge reads
    package = os.path.dirname(os.path.dirname(urdf))
    copy = tmp_path / 'example-robot-data' / 'robots' / os.path.basename(package)
    shutil.copytree(package, copy)
    edited = copy / os.path.relpath(urdf, package)
    edited.write_text(edited.read_text(encoding='utf-8').replace('base.dae', 'base.ply'),
                      encoding='utf-8')
    config = str(tmp_path / 'kinova')
    write_config(config, str(edited), srdf)
    hello = {'jsonrpc': '2.0', 'id': 0, 'method': 'initialize', 'params': {
        'protocolVersion': '2025-11-25', 'capabilities': {},
        'clientInfo': {'name': 't', 'version': '1'}}}
    proc = subprocess.Popen(
        [sys.executable, '-m', 'mcp_ros_bridge.cli', 'serve', '--config', config,
         '--sim-speed', '0', '--no-watch'], cwd=REPO, stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=dict(os.environ, PYTHONPATH=REPO))
    try:
        assert proc.stdin is not None
        proc.stdin.write(json.dumps(hello) + '\n')
        proc.stdin.flush()  # stdin stays open, as a host keeps it
        proc.wait(timeout=120)
        assert proc.stdout is not None and proc.stderr is not None
        out, err = proc.stdout.read(), proc.stderr.read()
    finally:
        proc.kill()
        proc.stdin.close()
    assert proc.returncode != 0, err
    assert json.loads(out.splitlines()[0])['id'] == 0  # it served while the backend started
    (line,) = [x for x in err.splitlines() if x.startswith('mcp-ros-bridge:')]
    assert 'cannot build kinova' in line and 'base.ply' in line and '.dae' in line
    assert 'j2s6s200_link_base' in line and '.stl' in line and '--backend ros' in line


def test_init_names_the_hand_links_below_the_last_arm_joint(tmp_path):
    """The Panda's: hand and fingers (what a guarded move may touch with), no arm link."""
    from mcp_ros_bridge.catalog.init_config import write_config
    from mcp_ros_bridge.catalog.loader import load_robot
    urdf, srdf, _ = arm_files('panda')
    write_config(str(tmp_path), urdf, srdf)
    hand = set(load_robot(str(tmp_path))[0].hand_links)
    assert {'panda_hand', 'panda_leftfinger', 'panda_rightfinger'} <= hand, hand
    assert not hand & {f'panda_link{i}' for i in range(8)}, hand


def test_init_marks_the_limits_it_guesses_as_check(tmp_path):
    """The grip force range, tool speed, contact limit and guarded speed are guesses: CHECK."""
    from mcp_ros_bridge.catalog.init_config import write_config
    from mcp_ros_bridge.catalog.loader import load_robot
    urdf, srdf, _ = arm_files('ur5')
    out = str(tmp_path / 'ur5')
    write_config(out, urdf, srdf)
    with open(f'{out}/robot.yaml', encoding='utf-8') as f:
        lines = {ln.split(':')[0].strip(): ln for ln in f if ':' in ln}
    for key in ('min_force_n', 'max_force_n', 'max_cartesian_speed_mps',
                'contact_force_limit_n', 'max_guarded_speed_mps'):
        assert '# CHECK' in lines[key], lines[key]
    robot, _ = load_robot(out)
    assert robot.limits.max_guarded_speed_mps == 0.01  # the schema's default, written out
