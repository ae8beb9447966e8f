"""
Descriptions are data, not code: crafted URDFs through ``init`` and ``serve`` (the CLI).

An entity-expansion document, an 800-link chain, limits of 1e308 or a negative
velocity are refused in one line before anything is written; a collision mesh that
leaves the description's directory (``../``, an absolute path, a symlink) is refused
by the simulation in one line naming the link. On main the entities were expanded
(695 MB), the chain took minutes, 1e308 crashed and the meshes were read.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from bridge_kit import REPO  # noqa: I100 - on the path robot_data sets (conftest)

pytestmark = [pytest.mark.robots]


def _cli(*argv: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get('PYTHONPATH', ''))
    return subprocess.run([sys.executable, '-m', 'mcp_ros_bridge.cli', *argv], cwd=REPO,
                          env=env, capture_output=True, text=True, timeout=180, check=False)


def _arm(links: int = 4, limit: str = 'lower="-2" upper="2" velocity="1" effort="10"',
         mesh: str = '') -> str:
    """Return a serial arm of ``links`` links (boxes; link 1 uses ``mesh`` when given)."""
    geometry = '<box size="0.04 0.04 0.1"/>'
    out = ['<robot name="crafted">']
    for k in range(links):
        shape = f'<mesh filename="{mesh}"/>' if mesh and k == 1 else geometry
        out.append(f'<link name="l{k}"><inertial><mass value="0.5"/><inertia ixx="0.001" '
                   'iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial>'
                   f'<collision><geometry>{shape}</geometry></collision></link>')
        if k:
            out.append(f'<joint name="j{k}" type="revolute"><parent link="l{k - 1}"/>'
                       f'<child link="l{k}"/><origin xyz="0 0 0.1"/>'
                       f'<axis xyz="{"0 0 1" if k == 1 else "0 1 0"}"/>'
                       f'<limit {limit}/></joint>')
    return '\n'.join(out + ['</robot>'])


def _refused(tmp_path, text: str) -> str:
    path = tmp_path / 'desc' / 'urdf' / 'arm.urdf'
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding='utf-8')
    init = _cli('init', '--urdf', str(path), '--out', str(tmp_path / 'cfg'))
    assert init.returncode == 2, (init.stdout, init.stderr)
    assert not os.path.exists(tmp_path / 'cfg')
    (line,) = init.stderr.strip().splitlines()
    assert 'Traceback' not in line
    return line


def test_entity_expansion_is_refused_unexpanded(tmp_path):
    laughs = ''.join(f'<!ENTITY e{k} "{f"&e{k - 1};" * 10 if k else "x" * 100}">'
                     for k in range(8))
    text = f'<?xml version="1.0"?><!DOCTYPE robot [{laughs}]>' + _arm().replace(
        'name="crafted"', 'name="&e7;"')
    line = _refused(tmp_path, text)
    assert 'DOCTYPE or entities' in line and 'arm.urdf' in line, line


def test_an_800_link_chain_is_refused_in_one_line(tmp_path):
    line = _refused(tmp_path, _arm(800))
    assert '799 joints, over 32' in line and '--base LINK --tip LINK' in line, line


@pytest.mark.parametrize('limit,said', [
    ('lower="-1e308" upper="1e308" velocity="1" effort="10"', 'beyond 1000 rad'),
    ('lower="-2" upper="2" velocity="-1" effort="0"', 'velocity -1.0 must be above 0'),
])
def test_absurd_limits_are_refused_naming_the_joint(tmp_path, limit, said):
    line = _refused(tmp_path, _arm(limit=limit))
    assert "arm joint 'j1'" in line and said in line and 'e.g.' in line, line


def _serve_line(config: str) -> str:
    """Start ``serve`` on the simulation; return its one ``mcp-ros-bridge:`` line on exit."""
    hello = {'jsonrpc': '2.0', 'id': 0, 'method': 'initialize', 'params': {
        'protocolVersion': '2025-11-25', 'capabilities': {},
        'clientInfo': {'name': 't', 'version': '1'}}}
    proc = subprocess.Popen(
        [sys.executable, '-m', 'mcp_ros_bridge.cli', 'serve', '--config', config,
         '--sim-speed', '0', '--no-watch'], cwd=REPO, stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=dict(os.environ, PYTHONPATH=REPO))
    try:
        assert proc.stdin is not None and proc.stderr is not None
        proc.stdin.write(json.dumps(hello) + '\n')
        proc.stdin.flush()  # stdin stays open, as a host keeps it: the backend's failure ends it
        proc.wait(timeout=120)
        err = proc.stderr.read()
    finally:
        proc.kill()
        if proc.stdin is not None:
            proc.stdin.close()
    assert proc.returncode != 0, err
    (line,) = [x for x in err.splitlines() if x.startswith('mcp-ros-bridge:')]
    return line


def _desc_with_mesh(tmp_path, how: str) -> str:
    """Write a description whose link l1's mesh leaves it (``how``); return the URDF path."""
    secret = tmp_path / 'secret.stl'
    secret.write_text('solid secret\nendsolid secret\n', encoding='utf-8')
    desc = tmp_path / 'desc'
    (desc / 'meshes').mkdir(parents=True)
    mesh = {'dotdot': '../../secret.stl', 'absolute': str(secret),
            'symlink': '../meshes/link.stl'}[how]
    if how == 'symlink':
        os.symlink(secret, desc / 'meshes' / 'link.stl')
    (desc / 'urdf').mkdir()
    (desc / 'urdf' / 'arm.urdf').write_text(_arm(mesh=mesh), encoding='utf-8')
    return str(desc / 'urdf' / 'arm.urdf')


def test_a_mesh_outside_the_description_is_not_read_by_serve(tmp_path):
    pytest.importorskip('mujoco', reason='the simulation needs mujoco')
    urdf, config = _desc_with_mesh(tmp_path, 'dotdot'), str(tmp_path / 'cfg')
    init = _cli('init', '--urdf', urdf, '--out', config)
    assert init.returncode == 0, init.stderr
    line = _serve_line(config)
    assert 'link l1' in line and 'outside the description' in line, line
    assert str(tmp_path / 'desc') in line and 'package://' in line, line


@pytest.mark.parametrize('how', ['absolute', 'symlink'])
def test_absolute_and_symlinked_meshes_are_not_read(tmp_path, how):
    """The function serve builds the world with (a serve start each would cost ~20 s)."""
    pytest.importorskip('mujoco', reason='the simulation needs mujoco')
    from mcp_ros_bridge.backends.sim.urdf_source import arm_mjcf, Unsupported
    with pytest.raises(Unsupported) as refused:
        arm_mjcf(_desc_with_mesh(tmp_path, how), 'l3')
    assert refused.value.key == 'sim_urdf_mesh_outside'
    assert refused.value.fields['link'] == 'l1'
