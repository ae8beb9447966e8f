"""
A URDF made ready for MuJoCo's importer, and the MJCF of the arm it compiles to.

Visual elements are dropped (the simulation collides and renders the collision
geometry), ``package://`` mesh paths are resolved to the package directory
above the URDF, and only the arm is kept: the base link becomes the root (the
world frame is the base frame; a torso, a mobile base, legs are left out), the
links below the tip are removed (a simulated parallel gripper takes their
place), and so is every branch off the chain that moves (another arm, a head,
wheels); a movable joint of the chain that is no arm joint is fixed at 0. Every
fixed link kept stays a body, so each URDF frame can be named. What MuJoCo
cannot load refuses in one line naming the element and the fix (:class:`Unsupported`).
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET

from mcp_ros_bridge.backends.sim.collada_mesh import stl_of
from mcp_ros_bridge.backends.sim.urdf_errors import Unsupported
from mcp_ros_bridge.catalog.description import check_text, DescriptionError, MAX_CHARS
import mujoco

__all__ = ['Unsupported', 'arm_mjcf', 'prepared_urdf']

MESH_FORMATS = ('.stl', '.obj', '.msh')  # what MuJoCo reads
READ_FORMATS = (*MESH_FORMATS, '.dae')  # .dae is converted to .stl (collada_mesh)
_COMPILER = {'strippath': 'false', 'discardvisual': 'true', 'fusestatic': 'false',
             'balanceinertia': 'true', 'angle': 'radian'}


def _package_dir(urdf_path: str, package: str) -> str | None:
    """
    Return the directory of ``package``: the URDF's nearest ancestor of that name.

    Else a directory of that name beside the URDF or beside its directory (a
    package copied next to it); never one elsewhere on the disk.
    """
    here = os.path.dirname(os.path.abspath(urdf_path))
    if not package or package in ('.', '..'):
        return None
    probe = here
    while True:
        if os.path.basename(probe) == package:
            return probe
        parent = os.path.dirname(probe)
        if parent == probe:
            break
        probe = parent
    for near in (here, os.path.dirname(here)):
        if os.path.isdir(os.path.join(near, package)):
            return os.path.join(near, package)
    return None


def _inside(path: str, root: str) -> bool:
    """Return True when ``path``, its symlinks followed, lies in ``root``."""
    real, top = os.path.realpath(path), os.path.realpath(root)
    return os.path.commonpath([real, top]) == top


def _resolve(urdf_path: str, link: str, filename: str) -> str:
    """Return the absolute path of a collision mesh, or raise :class:`Unsupported`."""
    name = filename
    # a mesh stays in the description: its package, else the directory above the URDF's
    root = os.path.dirname(os.path.dirname(os.path.abspath(urdf_path)))
    if name.startswith('package://'):
        package, _, rest = name[len('package://'):].partition('/')
        found = _package_dir(urdf_path, package)
        if found is None:
            raise Unsupported('sim_urdf_package', link=link, mesh=filename, package=package)
        root, name = found, os.path.join(found, rest)
    elif name.startswith('file://'):
        name = name[len('file://'):]
    name = os.path.join(os.path.dirname(os.path.abspath(urdf_path)), name)
    if not _inside(name, root):
        raise Unsupported('sim_urdf_mesh_outside', link=link, mesh=filename, root=root)
    ext = os.path.splitext(name)[1].lower()
    if ext not in READ_FORMATS:
        raise Unsupported('sim_urdf_mesh', link=link, mesh=os.path.basename(filename),
                          ext=ext or 'no extension', formats=', '.join(READ_FORMATS))
    if not os.path.isfile(name):
        raise Unsupported('sim_urdf_mesh_missing', link=link, mesh=name)
    return stl_of(name, link) if ext == '.dae' else name


def _kept(root: ET.Element, base: str, tip: str) -> set[str]:
    """Return the links of the chain ``base`` to ``tip`` and the rigid branches off it."""
    children: dict[str, list[str]] = {}
    parent: dict[str, str] = {}
    moving: set[str] = set()  # links with a movable joint at or below them
    for joint in root.iter('joint'):
        up, down = joint.find('parent'), joint.find('child')
        if up is not None and down is not None:
            children.setdefault(up.get('link', ''), []).append(down.get('link', ''))
            parent[down.get('link', '')] = up.get('link', '')
            if joint.get('type', 'fixed') != 'fixed':
                moving.add(down.get('link', ''))
    for link in list(moving):
        while link in parent and parent[link] not in moving:
            link = parent[link]
            moving.add(link)
    chain, link = [tip], tip
    while link != base and link in parent:
        link = parent[link]
        chain.append(link)
    kept = set(chain)
    # nothing below the tip (the simulated hand goes there); rigid branches off the chain
    frontier = [c for link in chain[1:] for c in children.get(link, [])
                if c not in kept and c not in moving]
    while frontier:
        link = frontier.pop()
        if link not in kept:
            kept.add(link)
            frontier.extend(children.get(link, []))
    return kept


def prepared_urdf(urdf_path: str, tip: str, base: str = '',
                  arm: tuple[str, ...] = ()) -> str:
    """Return the URDF text MuJoCo's importer takes: ``base`` down to ``tip`` (see above)."""
    try:
        with open(urdf_path, encoding='utf-8') as f:
            text = f.read(MAX_CHARS + 1)
        check_text(text, urdf_path, 'URDF')
        root = ET.fromstring(text)
    except (OSError, ET.ParseError, DescriptionError) as exc:
        raise Unsupported('sim_urdf_compile', error=str(exc)) from None
    kept = _kept(root, base or _root_link(root), tip)
    for element in list(root):
        cut_link = element.tag == 'link' and element.get('name') not in kept
        if element.tag in ('gazebo', 'transmission', 'mujoco') or cut_link:
            root.remove(element)
        elif element.tag == 'joint':
            ends = [element.find(k) for k in ('parent', 'child')]
            if any(e is None or e.get('link') not in kept for e in ends):
                root.remove(element)
            elif arm and element.get('name') not in arm:
                element.set('type', 'fixed')  # a passive or unchosen joint: held at 0
    for link in root.iter('link'):
        for visual in link.findall('visual'):
            link.remove(visual)
        for mesh in link.iter('mesh'):
            mesh.set('filename', _resolve(urdf_path, link.get('name', ''),
                                          mesh.get('filename', '')))
    extension = ET.SubElement(root, 'mujoco')
    ET.SubElement(extension, 'compiler', _COMPILER)
    return ET.tostring(root, encoding='unicode')


def _root_link(root: ET.Element) -> str:
    """Return the URDF's root link: a link that is no joint's child."""
    children = {c.get('link') for c in root.iter('child')}
    return next((link.get('name', '') for link in root.iter('link')
                 if link.get('name') not in children), '')


def arm_mjcf(urdf_path: str, tip: str, base: str = '', arm: tuple[str, ...] = ()) -> str:
    """Return the MJCF document of the arm (bodies, joints, collision geometry)."""
    try:
        spec = mujoco.MjSpec.from_string(prepared_urdf(urdf_path, tip, base, arm))
        spec.compile()
        # the MJCF keeps the URDF's inertias (some just off the triangle inequality) but not
        # the compiler flag that balanced them: say it again
        return str(spec.to_xml()).replace('<compiler ', '<compiler balanceinertia="true" ', 1)
    except ValueError as exc:
        raise Unsupported('sim_urdf_compile', error=' '.join(str(exc).split())) from None
