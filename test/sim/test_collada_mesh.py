"""
COLLADA collision meshes converted for MuJoCo: units applied, cached by content, bad files refused.

The .dae files are written here by trimesh's own COLLADA exporter (a 0.1 m box,
then its unit tag edited); the conversion is read back as STL with trimesh.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from mcp_ros_bridge.backends.sim.collada_mesh import stl_of  # imports trimesh when called
from mcp_ros_bridge.backends.sim.urdf_errors import Unsupported
import pytest

trimesh = pytest.importorskip('trimesh', reason='.dae meshes need trimesh (the sim extra)')
pytest.importorskip('collada', reason='.dae meshes need pycollada (the sim extra)')

pytestmark = pytest.mark.sim


@pytest.fixture
def cache(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Convert into a cache of this test's own."""
    monkeypatch.setenv('XDG_CACHE_HOME', str(tmp_path / 'cache'))
    return tmp_path / 'cache' / 'mcp_ros_bridge' / 'meshes'


def _box_dae(path: Any, meter: str = '1') -> Any:
    text = trimesh.exchange.dae.export_collada(trimesh.creation.box((0.1, 0.2, 0.3)))
    text = text.decode() if isinstance(text, bytes) else text
    if meter != '1':
        text = text.replace('<asset>', f'<asset><unit name="x" meter="{meter}"/>', 1)
    path.write_text(text, encoding='utf-8')
    return path


def test_a_box_converts_to_the_same_box_and_a_second_start_reads_the_cache(
        tmp_path: Any, cache: Any) -> None:
    """Extents kept; the STL is named by the file's hash; an edited file converts again."""
    dae = _box_dae(tmp_path / 'box.dae')
    out = stl_of(str(dae), 'link_1')
    assert os.path.dirname(out) == str(cache)
    mesh = trimesh.load(out)
    assert mesh.extents == pytest.approx([0.1, 0.2, 0.3], abs=1e-6)
    stamp = os.stat(out).st_mtime_ns
    assert stl_of(str(dae), 'link_1') == out and os.stat(out).st_mtime_ns == stamp
    millimetres = stl_of(str(_box_dae(tmp_path / 'mm.dae', '0.001')), 'link_1')
    assert millimetres != out
    assert trimesh.load(millimetres).extents == pytest.approx([1e-4, 2e-4, 3e-4], abs=1e-9)


@pytest.mark.parametrize('text,says', [
    ('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><COLLADA>&a;</COLLADA>',
     'DOCTYPE'),
    ('<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1"/>',
     'sim_dae_unreadable'),
    ('not xml at all', 'sim_dae_unreadable')])
def test_a_bomb_an_empty_or_a_broken_file_is_refused_naming_the_link(
        tmp_path: Any, cache: Any, text: str, says: str) -> None:
    """Refused in one message naming the link and the mesh; nothing is cached."""
    bad = tmp_path / 'bad.dae'
    bad.write_text(text, encoding='utf-8')
    with pytest.raises(Unsupported) as refused:
        stl_of(str(bad), 'link_3')
    assert refused.value.key == 'sim_dae_unreadable'
    assert refused.value.fields['link'] == 'link_3' and refused.value.fields['mesh'] == 'bad.dae'
    assert says in refused.value.key + refused.value.fields['error']
    assert not cache.exists() or os.listdir(cache) == []


def test_without_trimesh_the_mesh_is_refused_naming_the_install(
        tmp_path: Any, cache: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """No converter installed: the message id that names pip install and the other ways."""
    dae = _box_dae(tmp_path / 'box.dae')
    monkeypatch.setitem(sys.modules, 'trimesh', None)
    with pytest.raises(Unsupported) as refused:
        stl_of(str(dae), 'link_1')
    assert refused.value.key == 'sim_dae_no_converter'
