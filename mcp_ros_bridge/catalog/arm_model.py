"""
The arm as its description defines it: planning group, joints in chain order, limits, states.

:func:`arm_model` picks the planning group (the one named, else the SRDF group
with the most movable joints that is no end effector's, else the longest
chain of movable joints in the URDF), orders its joints from base to tip,
and takes each joint's limits from the URDF and the group's named states from
the SRDF. The gripper joints are the movable joints below the tip (or those
of the tip's SRDF end effector). Nothing here reads robot.yaml.
"""

from __future__ import annotations

from dataclasses import dataclass
import math
import re

from mcp_ros_bridge.catalog.arm_chains import candidates, hand_joints, one_arm, tip_below
from mcp_ros_bridge.catalog.description import (check_limits, DescriptionError, Group, Joint,
                                                Srdf, Urdf)
from mcp_ros_bridge.messages import t

MAX_ARM_JOINTS = 32  # a longer chain is no arm (and costs init's reach sampling)
CONTINUOUS_RANGE = (-math.pi, math.pi)  # published for continuous joints (one turn)


@dataclass(frozen=True)
class ArmJoint:
    """One arm joint: name, type and limits (rad or m; velocity rad/s or m/s)."""

    name: str
    kind: str
    lower: float
    upper: float
    velocity: float | None
    effort: float | None
    continuous: bool = False


@dataclass(frozen=True)
class ArmModel:
    """What the description says about the arm the bridge drives."""

    robot: str
    group: str               # SRDF planning group ('' when none was declared)
    base_link: str
    tip_link: str
    joints: tuple[ArmJoint, ...]
    postures: dict[str, tuple[float, ...]]  # SRDF group states with a value per arm joint
    gripper_joints: tuple[Joint, ...]
    gripper_group: str
    notes: tuple[str, ...]   # what could not be read, said once

    @property
    def joint_names(self) -> tuple[str, ...]:
        """Return the arm joint names in chain order."""
        return tuple(j.name for j in self.joints)


def _movable(urdf: Urdf, names: list[str] | tuple[str, ...]) -> list[Joint]:
    out = []
    for name in dict.fromkeys(names):  # some SRDFs list a joint twice
        joint = urdf.joint(name)
        if joint is None:
            raise DescriptionError(f'the SRDF names joint {name!r}, which the URDF lacks')
        if joint.movable:
            out.append(joint)
    return out


def _group_joints(urdf: Urdf, srdf: Srdf, group: Group, seen: frozenset[str] = frozenset()
                  ) -> list[Joint]:
    """Return a group's movable joints: its chains, joints and subgroups."""
    if group.name in seen:
        raise DescriptionError(f'SRDF group {group.name!r} contains itself')
    names: list[str] = []
    for base, tip in group.chains:
        names += [j.name for j in urdf.chain(base, tip)]
    names += list(group.joints)
    for link in group.links:
        parent = urdf.parent_joint(link)
        if parent is not None:
            names.append(parent.name)
    for sub in group.subgroups:
        inner = srdf.group(sub)
        if inner is None:
            raise DescriptionError(f'SRDF group {group.name!r} names unknown group {sub!r}')
        names += [j.name for j in _group_joints(urdf, srdf, inner, seen | {group.name})]
    return _movable(urdf, names)


def _ordered(urdf: Urdf, joints: list[Joint], hand: frozenset[str] = frozenset()
             ) -> tuple[list[Joint], str, str]:
    """Return the joints as one serial chain from base to tip, with its base and tip links."""
    names = {j.name for j in joints}
    deepest = max(joints, key=lambda j: len(urdf.chain(urdf.root, j.child)))
    path = urdf.chain(urdf.root, deepest.child)
    chain = [j for j in path if j.name in names]
    if len(chain) != len(joints):
        raise DescriptionError("the group's joints are not one serial chain: "
                               f'{sorted(names - {j.name for j in chain})} are off the chain to '
                               f'{deepest.child!r}; name the arm group with --group')
    base = chain[0].parent
    return chain, base, tip_below(urdf, chain[-1].child, hand)


def _resolved(urdf: Urdf, srdf: Srdf, group: Group, notes: list[str]) -> list[Joint]:
    """Return a group's movable joints; a chain the URDF lacks falls back to the listed joints."""
    try:
        return _group_joints(urdf, srdf, group)
    except DescriptionError as exc:
        if not group.chains:
            raise
        notes.append(f'SRDF group {group.name!r}: {exc}; its listed joints are used')
        return _group_joints(urdf, srdf, Group(group.name, group.joints, (), group.links,
                                               group.subgroups))


def _pick_group(srdf: Srdf, urdf: Urdf, wanted: str, hand: frozenset[str],
                notes: list[str]) -> tuple[Group | None, list[Joint]]:
    """Return the named group, else the one clear arm group, else the one clear URDF chain."""
    if wanted:
        group = srdf.group(wanted)
        if group is None:
            known = ', '.join(g.name for g in srdf.groups) or 'none'
            raise DescriptionError(f'no SRDF group {wanted!r}; groups: {known}')
        return group, [j for j in _resolved(urdf, srdf, group, notes) if j.name not in hand]
    found: dict[frozenset[str], tuple[Group, list[Joint]]] = {}
    for g in sorted(srdf.groups, key=lambda g: bool(g.subgroups)):  # plain groups first
        try:
            joints = [j for j in _resolved(urdf, srdf, g, notes) if j.name not in hand]
            if len(joints) >= 2:
                _ordered(urdf, joints)
        except DescriptionError as exc:
            notes.append(f'SRDF group {g.name!r} left out: {exc}')
            continue
        if len(joints) >= 2:
            found.setdefault(frozenset(j.name for j in joints), (g, joints))
    if found:
        groups = list(found.values())
        tips = [f'{g.name}: {_ordered(urdf, js)[2]}' for g, js in groups]
        chosen = one_arm(urdf, [js for _, js in groups], tips, '--group NAME')
        return next(g for g, js in groups if js is chosen), chosen
    chains = candidates(urdf, hand)
    tips = [tip_below(urdf, c[-1].child, hand) for c in chains]
    return None, one_arm(urdf, chains, tips, '--tip LINK (or --base LINK --tip LINK)')


def _explicit(urdf: Urdf, base: str, tip: str, hand: frozenset[str]) -> list[Joint]:
    """Return the movable joints from ``base`` (default: above the first) down to ``tip``."""
    if not tip:
        below = [c for c in candidates(urdf, hand) if base in {j.parent for j in c}]
        chains = [c[[j.parent for j in c].index(base):] for c in below]
        tips = [tip_below(urdf, c[-1].child, hand) for c in chains]
        return one_arm(urdf, chains, tips, '--tip LINK')
    path = [j for j in urdf.chain(base or urdf.root, tip) if j.movable]
    if not path:
        raise DescriptionError(t('init_no_joint_to_tip', base=base or urdf.root, tip=tip))
    return path


def _arm_joint(j: Joint, notes: list[str]) -> ArmJoint:
    check_limits(j, 'arm')
    if j.kind == 'continuous':
        notes.append(f'{j.name} is continuous: published as {CONTINUOUS_RANGE[0]:.4f}..'
                     f'{CONTINUOUS_RANGE[1]:.4f} rad (one turn)')
        return ArmJoint(j.name, j.kind, *CONTINUOUS_RANGE, j.velocity, j.effort, True)
    assert j.lower is not None and j.upper is not None  # revolute/prismatic: parse checked
    return ArmJoint(j.name, j.kind, j.lower, j.upper, j.velocity, j.effort)


def _gripper(urdf: Urdf, srdf: Srdf, last: str, arm: set[str]) -> tuple[tuple[Joint, ...], str]:
    """Return the finger joints below the last arm link (mimics too) and their SRDF group."""
    below: list[Joint] = []
    frontier = [last]
    while frontier:
        for j in urdf.children(frontier.pop()):
            if j.kind in ('prismatic', 'revolute') and j.name not in arm:
                below.append(j)
            frontier.append(j.child)
    names = {j.name for j in below}
    group = next((g.name for g in srdf.groups if g.joints and set(g.joints) <= names), '')
    return tuple(below), group


def _effector_tip(urdf: Urdf, srdf: Srdf, last: str) -> str:
    """Return the SRDF end effector's parent link when it hangs below ``last``, else ''."""
    for eff in srdf.end_effectors:
        if eff.parent_link in urdf.links:
            try:
                urdf.chain(last, eff.parent_link)
            except DescriptionError:
                continue
            return eff.parent_link
    return ''


def _postures(srdf: Srdf, names: list[str], notes: list[str]) -> dict[str, tuple[float, ...]]:
    """Return every SRDF state that sets all arm joints, under a posture name robot.yaml takes."""
    out: dict[str, tuple[float, ...]] = {}
    for _, name, values in srdf.group_states:
        given = dict(values)
        key = re.sub(r'[^a-z0-9_]', '_', name.lower()).lstrip('_0123456789')[:32] or 'state'
        if not set(names) <= set(given):
            notes.append(f'SRDF state {name!r} does not set every arm joint; left out')
        elif key not in out:
            out[key] = tuple(given[n] for n in names)
    return out


def arm_model(urdf: Urdf, srdf: Srdf, group: str = '', tip: str = '',
              base: str = '') -> ArmModel:
    """
    Return the arm of the description: the chain ``base`` .. ``tip`` when given, else ``group``.

    Neither given: the one clear SRDF group, else the one clear URDF chain (see
    :mod:`arm_chains`); several close candidates are refused, listed.
    """
    notes: list[str] = []
    hand = hand_joints(urdf, srdf)
    chosen: Group | None = None
    if base or (tip and not group):
        joints = _explicit(urdf, base, tip, hand)
        chosen = srdf.group(group) if group else None
    else:
        chosen, joints = _pick_group(srdf, urdf, group, hand, notes)
    if chosen is None and not group:
        notes.append('no SRDF planning group: the arm is the chain init chose in the URDF; '
                     'set moveit.group to your MoveIt group')
    if len(joints) > MAX_ARM_JOINTS:
        raise DescriptionError(f'the arm {joints[0].name} .. {joints[-1].name} has '
                               f'{len(joints)} joints, over {MAX_ARM_JOINTS}: give the arm '
                               'with --base LINK --tip LINK')
    chain, found_base, found_tip = _ordered(urdf, joints, hand)
    base = base or found_base
    if tip:
        path = urdf.chain(base, tip)
        if not {j.name for j in chain} <= {j.name for j in path}:
            raise DescriptionError(f'tip link {tip!r} is not below the last arm joint '
                                   f'{chain[-1].name!r}')
    tip = tip or _effector_tip(urdf, srdf, chain[-1].child) or found_tip
    arm = [_arm_joint(j, notes) for j in chain]
    names = [j.name for j in chain]
    postures = _postures(srdf, names, notes)
    gripper, gripper_group = _gripper(urdf, srdf, chain[-1].child, set(names))
    for finger in gripper:
        check_limits(finger, 'gripper')
    return ArmModel(urdf.name, chosen.name if chosen else '', base, tip, tuple(arm), postures,
                    gripper, gripper_group, tuple(notes))
