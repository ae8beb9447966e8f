"""
Which serial chain of a robot is the arm, and where its hand begins.

A *hand joint* ends the arm and belongs to the gripper: a mimic joint, an
SRDF ``passive_joint``, a joint of an SRDF end effector's group that lies
below the effector's parent link, or a joint whose name (or whose child
link's name) says finger, jaw, gripper, hand, thumb, knuckle or claw. A
*wheel joint* (wheel, caster, rotor, propeller) is never an arm joint. The
candidate arms are the chains of movable joints from the root to each leaf,
cut before the first hand or wheel joint. The time spent is linear in the
number of links times the tree's depth.
"""

from __future__ import annotations

import re

from mcp_ros_bridge.catalog.description import DescriptionError, Joint, Srdf, Urdf
from mcp_ros_bridge.messages import t

HAND_JOINT = re.compile(r'finger|jaw|gripper|grip_|hand|thumb|knuckle|claw', re.IGNORECASE)
HAND_LINK = re.compile(r'finger|jaw|thumb|knuckle|claw', re.IGNORECASE)
WHEEL = re.compile(r'wheel|caster|rotor|propeller', re.IGNORECASE)
TOOL_LINK = re.compile(r'^(tool0|flange)$|tcp|gripper_frame|grasp_frame', re.IGNORECASE)


def hand_joints(urdf: Urdf, srdf: Srdf) -> frozenset[str]:
    """Return the names of the joints that belong to a hand, not to an arm."""
    out = {j.name for j in urdf.joints if j.mimic or HAND_JOINT.search(j.name)
           or HAND_LINK.search(j.child)}
    out |= set(srdf.passive)
    for eff in srdf.end_effectors:
        group = srdf.group(eff.group)
        if group is None or eff.parent_link not in urdf.links:
            continue
        below = set(links_below(urdf, eff.parent_link))
        out |= {name for name in group.joints
                if (j := urdf.joint(name)) is not None and j.child in below}
    return frozenset(out)


def links_below(urdf: Urdf, link: str) -> list[str]:
    """Return every link below ``link`` in the tree, breadth first."""
    out, todo = [], [j.child for j in urdf.children(link)]
    while todo:
        out.append(todo.pop())
        todo.extend(j.child for j in urdf.children(out[-1]))
    return out


def arm_part(path: list[Joint], hand: frozenset[str]) -> list[Joint]:
    """Return the movable joints of ``path`` before its first hand or wheel joint."""
    out = []
    for j in path:
        if not j.movable and not j.mimic:
            continue
        if j.name in hand or WHEEL.search(j.name) or j.mimic:
            break
        out.append(j)
    return out


def candidates(urdf: Urdf, hand: frozenset[str]) -> list[list[Joint]]:
    """Return the distinct arm chains from the root, none a prefix of another."""
    found: dict[tuple[str, ...], list[Joint]] = {}
    stack: list[tuple[str, list[Joint]]] = [(urdf.root, [])]
    while stack:
        link, path = stack.pop()
        below = urdf.children(link)
        if not below:
            arm = arm_part(path, hand)
            found.setdefault(tuple(j.name for j in arm), arm)
        for j in below:
            stack.append((j.child, path + [j]))
    keys = [k for k in found if k]
    return [found[k] for k in keys
            if not any(o != k and o[:len(k)] == k for o in keys)]


def describe(chain: list[Joint], tip: str) -> str:
    """Return 'base -> tip (n joints)' for a candidate chain."""
    return f'{chain[0].parent} -> {tip} ({len(chain)} joints)'


def one_arm(urdf: Urdf, found: list[list[Joint]], tips: list[str], how: str) -> list[Joint]:
    """
    Return the one clear arm among ``found``; refuse, listing them, when several are close.

    Several chains within one joint of the longest (two arms, arm and leg) are a
    choice init does not make: the refusal names each with its base and tip.
    """
    if not found:
        raise DescriptionError(t('init_no_arm', robot=urdf.name))
    longest = max(len(c) for c in found)
    close = [(c, tip) for c, tip in zip(found, tips) if len(c) >= max(longest - 1, 1)]
    if len(close) == 1:
        return close[0][0]
    listing = '; '.join(describe(c, tip) for c, tip in close)
    raise DescriptionError(t('init_several_arms', robot=urdf.name, count=len(close),
                             arms=listing, how=how))


def tip_below(urdf: Urdf, link: str, hand: frozenset[str]) -> str:
    """Follow fixed joints down to the tool: the only fixed child, or one named like a tool."""
    while True:
        kids = urdf.children(link)
        if any(j.kind != 'fixed' and j.name not in hand for j in kids):
            return link
        fixed = [j for j in kids if j.kind == 'fixed']
        named = [j for j in fixed if TOOL_LINK.search(j.child)]
        if len(fixed) != 1 and len(named) != 1:
            return link
        link = (named or fixed)[0].child
