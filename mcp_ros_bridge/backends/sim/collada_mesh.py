"""
COLLADA (.dae) collision meshes for MuJoCo, which reads none: converted once to STL.

The conversion uses ``trimesh`` with ``pycollada`` (the ``sim`` extra). Scene
nodes are flattened with their transforms into one mesh in the file's own
frame, as ROS tools show it (the ``up_axis`` tag is not applied: the
example-robot-data meshes that say Y_UP match their STL twins as authored);
the file's ``<unit meter=...>`` scales it to metres. A file is read at most
``MAX_BYTES`` and refused with a DOCTYPE or entities before parsing. The STL goes
to a cache named by the SHA-256 of the file's bytes, so a later start reads it
directly and an edited mesh is converted again.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import tempfile

from mcp_ros_bridge.backends.sim.urdf_errors import Unsupported

MAX_BYTES = 32 * 1024 * 1024
_UNIT = re.compile(rb'<unit\b[^>]*\bmeter\s*=\s*"([0-9.eE+-]+)"')


def cache_dir() -> str:
    """Return the directory of converted meshes (created if needed)."""
    root = os.environ.get('XDG_CACHE_HOME') or os.path.join(os.path.expanduser('~'), '.cache')
    path = os.path.join(root, 'mcp_ros_bridge', 'meshes')
    try:
        os.makedirs(path, exist_ok=True)
    except OSError:  # no writable home: a per-user directory under the temporary one
        path = os.path.join(tempfile.gettempdir(), f'mcp_ros_bridge-meshes-{os.getuid()}')
        os.makedirs(path, mode=0o700, exist_ok=True)
    return path


def stl_of(path: str, link: str) -> str:
    """Return an STL of the COLLADA mesh ``path`` (link ``link``'s), converting it once."""
    name = os.path.basename(path)
    with open(path, 'rb') as f:
        data = f.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise Unsupported('sim_dae_large', link=link, mesh=name, mb=str(MAX_BYTES >> 20))
    out = os.path.join(cache_dir(), hashlib.sha256(data).hexdigest() + '.stl')
    if os.path.isfile(out):
        return out
    if b'<!DOCTYPE' in data or b'<!ENTITY' in data:
        raise Unsupported('sim_dae_unreadable', link=link, mesh=name,
                          error='it declares a DOCTYPE or entities')
    try:
        import trimesh
    except ImportError:
        raise Unsupported('sim_dae_no_converter', link=link, mesh=name) from None
    try:
        mesh = trimesh.load(io.BytesIO(data), file_type='dae', force='mesh')
    except Exception as exc:  # noqa: BLE001 - any parse failure is this mesh's
        raise Unsupported('sim_dae_unreadable', link=link, mesh=name,
                          error=f'{type(exc).__name__}: {exc}'[:200]) from None
    if not isinstance(mesh, trimesh.Trimesh) or len(mesh.faces) == 0:
        raise Unsupported('sim_dae_unreadable', link=link, mesh=name, error='no triangles')
    unit = _UNIT.search(data)
    if unit is not None and float(unit.group(1)) > 0:
        mesh.apply_scale(float(unit.group(1)))  # type: ignore[no-untyped-call]
    partial = f'{out}.{os.getpid()}.part'
    mesh.export(partial, file_type='stl')
    os.replace(partial, out)  # whole or absent, also when two processes convert it at once
    return out
