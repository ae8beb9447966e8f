"""
A robot's own description: URDF (links, joints, limits) and SRDF (groups, named states).

Descriptions are data: a document with a DOCTYPE or entity declaration, larger
than :data:`MAX_CHARS` or with more than :data:`MAX_ELEMENTS` links or joints is
refused before it is used (expat parses it, never expanding an entity); a name
with a control character is refused, and so is a joint the bridge drives with a
limit beyond :data:`MAX_POSITION`, a velocity not above 0 or a negative effort
(:func:`check_limits`, naming the joint). Only what the bridge uses is kept.
Errors name the element and what to fix (:class:`DescriptionError`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
import math
import re
from xml.etree import ElementTree

MAX_CHARS = 8 * 1024 * 1024  # large URDFs with inline comments stay well below this
MAX_ELEMENTS = 2000  # links or joints: a humanoid with hands has a few hundred
MAX_POSITION = 1000.0  # rad or m: a position limit beyond it is no robot's
MOVABLE = ('revolute', 'continuous', 'prismatic')
_CONTROL = re.compile(r'[\x00-\x1f\x7f]')


class DescriptionError(ValueError):
    """A URDF or SRDF the bridge cannot use; the message names the element and the fix."""


@dataclass(frozen=True)
class Joint:
    """One URDF joint; limits in rad or m (rad/s or m/s), None where the URDF has none."""

    name: str
    kind: str
    parent: str
    child: str
    origin_xyz: tuple[float, float, float]
    origin_rpy: tuple[float, float, float]
    axis: tuple[float, float, float]
    lower: float | None
    upper: float | None
    velocity: float | None
    effort: float | None
    mimic: str = ''

    @property
    def movable(self) -> bool:
        """Return True for a joint that moves on its own (not fixed, not a mimic)."""
        return self.kind in MOVABLE and not self.mimic


@dataclass(frozen=True)
class Urdf:
    """The kinematic tree of a URDF."""

    name: str
    links: tuple[str, ...]
    joints: tuple[Joint, ...]
    masses: tuple[tuple[str, float], ...] = ()  # (link, kg) of links with an <inertial>
    coms: tuple[tuple[str, tuple[float, float, float]], ...] = ()  # (link, centre of mass)

    @cached_property
    def _index(self) -> tuple[dict[str, Joint], dict[str, Joint], dict[str, list[Joint]]]:
        by_name = {j.name: j for j in self.joints}
        by_child = {j.child: j for j in self.joints}
        by_parent: dict[str, list[Joint]] = {}
        for j in self.joints:
            by_parent.setdefault(j.parent, []).append(j)
        return by_name, by_child, by_parent

    def mass_below(self, link: str) -> float:
        """Return the summed mass (kg) of ``link``'s descendants, ``link`` excluded."""
        mass, frontier = dict(self.masses), [link]
        total = 0.0
        while frontier:
            for j in self.children(frontier.pop()):
                total += mass.get(j.child, 0.0)
                frontier.append(j.child)
        return total

    @cached_property
    def _links(self) -> frozenset[str]:
        return frozenset(self.links)

    @property
    def root(self) -> str:
        """Return the one link that is no joint's child."""
        children = {j.child for j in self.joints}
        roots = [link for link in self.links if link not in children]
        return roots[0]

    def joint(self, name: str) -> Joint | None:
        """Return the joint called ``name``."""
        return self._index[0].get(name)

    def parent_joint(self, link: str) -> Joint | None:
        """Return the joint whose child is ``link`` (None for the root)."""
        return self._index[1].get(link)

    def chain(self, base: str, tip: str) -> list[Joint]:
        """Return the joints from ``base`` down to ``tip``; raise when tip is not below base."""
        for name, what in ((base, 'base'), (tip, 'tip')):
            if name not in self._links:
                raise DescriptionError(f'{what} link {name!r} is no link of the URDF '
                                       f'{self.name!r}; links: {", ".join(self.links)}')
        out: list[Joint] = []
        link = tip
        while link != base:
            joint = self.parent_joint(link)
            if joint is None:
                raise DescriptionError(f'link {tip!r} is not below {base!r} in the URDF '
                                       f'{self.name!r}: give a tip link of the arm')
            out.append(joint)
            link = joint.parent
        return out[::-1]

    def children(self, link: str) -> list[Joint]:
        """Return the joints whose parent is ``link``."""
        return list(self._index[2].get(link, ()))


@dataclass(frozen=True)
class Group:
    """An SRDF planning group: joints, chains (base, tip), links and subgroups, as written."""

    name: str
    joints: tuple[str, ...]
    chains: tuple[tuple[str, str], ...]
    links: tuple[str, ...]
    subgroups: tuple[str, ...]


@dataclass(frozen=True)
class EndEffector:
    """An SRDF end effector: its group, the arm link it hangs from, the arm group."""

    name: str
    group: str
    parent_link: str
    parent_group: str


@dataclass(frozen=True)
class Srdf:
    """The semantic description: groups, named group states, end effectors."""

    name: str
    groups: tuple[Group, ...]
    group_states: tuple[tuple[str, str, tuple[tuple[str, float], ...]], ...]  # group, name, values
    end_effectors: tuple[EndEffector, ...]
    passive: tuple[str, ...] = ()  # <passive_joint>: joints no actuator drives

    def group(self, name: str) -> Group | None:
        """Return the group called ``name``."""
        return next((g for g in self.groups if g.name == name), None)


EMPTY_SRDF = Srdf('', (), (), ())


def check_text(text: str, source: str, what: str) -> None:
    """Refuse a description over :data:`MAX_CHARS` or with a DOCTYPE (entities) before parsing."""
    if len(text) > MAX_CHARS:
        raise DescriptionError(f'{source}: the {what} is over {MAX_CHARS} characters')
    if '<!DOCTYPE' in text or '<!ENTITY' in text:
        raise DescriptionError(f'{source}: the {what} declares a DOCTYPE or entities, which '
                               'are not accepted: give the expanded XML (xacro output)')


def _parse(text: str, source: str, what: str) -> ElementTree.Element:
    check_text(text, source, what)
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as exc:
        raise DescriptionError(f'{source}: not a valid {what} ({exc}); use the expanded '
                               'XML (xacro output), not the .xacro source') from None
    if root.tag != 'robot':
        raise DescriptionError(f'{source}: the {what} root element is <{root.tag}>, '
                               'expected <robot>')
    return root


def _floats(value: str | None, count: int, default: tuple[float, ...], where: str
            ) -> tuple[float, ...]:
    if value is None:
        return default
    try:
        out = tuple(float(v) for v in value.split())
    except ValueError:
        out = ()
    if len(out) != count or not all(map(math.isfinite, out)):
        raise DescriptionError(f'{where}: {value!r} is not {count} finite numbers')
    return out


def _number(value: str | None, where: str) -> float | None:
    if value is None:
        return None
    try:
        out = float(value)
    except ValueError:
        out = math.nan
    if not math.isfinite(out):
        raise DescriptionError(f'{where}: {value!r} is not a finite number')
    return out


def check_limits(j: Joint, role: str) -> None:
    """Refuse a joint the bridge drives (``role``: arm, gripper) whose limits are no robot's."""
    where, unit = f'{role} joint {j.name!r}', 'm' if j.kind == 'prismatic' else 'rad'
    if j.lower is not None and j.upper is not None \
            and max(abs(j.lower), abs(j.upper)) > MAX_POSITION:
        raise DescriptionError(f'{where}: limit [{j.lower:g}, {j.upper:g}] {unit} is beyond '
                               f'{MAX_POSITION:g} {unit}: give its real range in the URDF, e.g. '
                               '<limit lower="-3.14" upper="3.14" .../>')
    if (j.velocity is not None and j.velocity <= 0) or (j.effort or 0) < 0:
        raise DescriptionError(f'{where}: velocity {j.velocity} must be above 0 and effort '
                               f'{j.effort} not below 0: give its rated values in the URDF, '
                               'e.g. <limit velocity="2.0" effort="50" .../>')


def _plain(name: str, where: str) -> str:
    """Return ``name``; refuse one with a control character (a line break would be YAML)."""
    if _CONTROL.search(name):
        raise DescriptionError(f'{where}: name {name!r} has a control character: use '
                               'letters, digits, _ and -')
    return name


def _xyz(values: tuple[float, ...]) -> tuple[float, float, float]:
    return values[0], values[1], values[2]


def get(el: ElementTree.Element | None, key: str) -> str | None:
    """Return attribute ``key`` of ``el``, None when either is absent."""
    return None if el is None else el.get(key)


def _joint(el: ElementTree.Element, source: str) -> Joint:
    name = el.get('name') or ''
    where = f'{source}: joint {name!r}'
    parent, child = el.find('parent'), el.find('child')
    if not name or parent is None or child is None or not parent.get('link') \
            or not child.get('link'):
        raise DescriptionError(f'{where}: a joint needs a name, <parent link> and <child link>')
    for named in (name, str(parent.get('link')), str(child.get('link'))):
        _plain(named, where)
    kind = el.get('type') or ''
    if kind not in (*MOVABLE, 'fixed', 'floating', 'planar'):
        raise DescriptionError(f'{where}: unknown joint type {kind!r}')
    origin, axis, limit, mimic = el.find('origin'), el.find('axis'), el.find('limit'), \
        el.find('mimic')
    lower, upper = _number(get(limit, 'lower'), where), _number(get(limit, 'upper'), where)
    if kind in ('revolute', 'prismatic') and (lower is None or upper is None or lower >= upper):
        raise DescriptionError(f'{where}: a {kind} joint needs <limit lower upper> with '
                               'lower below upper')
    velocity, effort = _number(get(limit, 'velocity'), where), _number(get(limit, 'effort'), where)
    return Joint(
        name, kind, str(parent.get('link')), str(child.get('link')),
        _xyz(_floats(get(origin, 'xyz'), 3, (0.0, 0.0, 0.0), where)),
        _xyz(_floats(get(origin, 'rpy'), 3, (0.0, 0.0, 0.0), where)),
        _xyz(_floats(get(axis, 'xyz'), 3, (1.0, 0.0, 0.0), where)),
        lower if kind != 'continuous' else None, upper if kind != 'continuous' else None,
        velocity, effort, str(get(mimic, 'joint') or ''))


def parse_urdf(text: str, source: str = 'URDF') -> Urdf:
    """Parse URDF XML; raise :class:`DescriptionError` naming what is wrong."""
    root = _parse(text, source, 'URDF')
    links = tuple(_plain(str(el.get('name')), f'{source}: link')
                  for el in root.findall('link') if el.get('name'))
    if max(len(links), len(root.findall('joint'))) > MAX_ELEMENTS:
        raise DescriptionError(f'{source}: the URDF has over {MAX_ELEMENTS} links or joints; '
                               'give the description of one robot')
    joints = tuple(_joint(el, source) for el in root.findall('joint'))
    if not links:
        raise DescriptionError(f'{source}: the URDF has no <link>')
    known = set(links)
    for j in joints:
        for link in (j.parent, j.child):
            if link not in known:
                raise DescriptionError(f'{source}: joint {j.name!r} names link {link!r}, '
                                       'which the URDF does not define')
    children = [j.child for j in joints]
    if len(set(children)) != len(children) or len([x for x in links if x not in children]) != 1:
        raise DescriptionError(f'{source}: the links do not form one tree (each link has one '
                               'parent joint, one root)')
    masses, coms = [], []
    for el in root.findall('link'):
        origin = el.find('inertial/origin')
        if origin is not None and el.get('name'):
            where = f"{source}: link {el.get('name')!r}"
            coms.append((str(el.get('name')),
                         _xyz(_floats(origin.get('xyz'), 3, (0.0, 0.0, 0.0), where))))
        m = el.find('inertial/mass')
        if m is not None and el.get('name'):
            masses.append((str(el.get('name')),
                           float(_number(m.get('value'), f"{source}: link {el.get('name')!r}")
                                 or 0.0)))
    return Urdf(root.get('name') or '', links, joints, tuple(masses), tuple(coms))


def parse_srdf(text: str, source: str = 'SRDF') -> Srdf:
    """Parse SRDF XML; raise :class:`DescriptionError` naming what is wrong."""
    root = _parse(text, source, 'SRDF')
    groups = []
    for el in root.findall('group'):
        groups.append(Group(
            str(el.get('name') or ''),
            tuple(str(j.get('name')) for j in el.findall('joint') if j.get('name')),
            tuple((str(c.get('base_link')), str(c.get('tip_link'))) for c in el.findall('chain')
                  if c.get('base_link') and c.get('tip_link')),
            tuple(str(x.get('name')) for x in el.findall('link') if x.get('name')),
            tuple(str(g.get('name')) for g in el.findall('group') if g.get('name'))))
    states = []
    for el in root.findall('group_state'):
        where = f"{source}: group_state {el.get('name')!r}"
        values = tuple((str(j.get('name')), float(_number(j.get('value'), where) or 0.0))
                       for j in el.findall('joint')
                       if j.get('name') and len(str(j.get('value') or '0').split()) == 1)
        # a floating or planar joint's several values are no arm joint's: left out
        states.append((str(el.get('group') or ''), str(el.get('name') or ''), values))
    effectors = tuple(EndEffector(str(el.get('name') or ''), str(el.get('group') or ''),
                                  str(el.get('parent_link') or ''),
                                  str(el.get('parent_group') or ''))
                      for el in root.findall('end_effector'))
    passive = tuple(str(el.get('name')) for el in root.findall('passive_joint') if el.get('name'))
    return Srdf(root.get('name') or '', tuple(groups), tuple(states), effectors, passive)
