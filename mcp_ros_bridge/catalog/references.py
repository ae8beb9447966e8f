"""``{$robot: dotted.path}`` references in tools.yaml, resolved against robot.yaml."""

from __future__ import annotations

from collections.abc import Mapping
import copy
import math
from typing import Any

from mcp_ros_bridge.catalog.yaml_lines import LoadedYaml


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


BOUND_DECIMALS = 4  # 0.1 mrad / 0.1 mm: a published joint bound is never longer
_SCALE = 10.0 ** BOUND_DECIMALS


def inward(value: float, *, up: bool) -> float:
    """Return ``value`` rounded to ``BOUND_DECIMALS`` towards the inside of its range."""
    scaled = value * _SCALE
    step = math.ceil(scaled - 1e-6) if up else math.floor(scaled + 1e-6)
    return round(step / _SCALE, BOUND_DECIMALS)


def arm_joint_array(robot: Mapping[str, Any]) -> dict[str, Any]:
    """
    Return the schema of one target per arm joint (``{$arm_joints: {}}``), in chain order.

    Exactly one number per joint of ``joints.arm``, each bounded by that
    joint's position limits less ``limits.joint_limit_margin_rad`` (the array's
    description names the joints in order: an item needs no text of its own).
    """
    from mcp_ros_bridge.catalog.robot import joint_margins
    joints, lim = robot['joints'], robot['limits']
    margins = joint_margins(joints.get('units') or [], len(joints['arm']),
                            lim['joint_limit_margin_rad'], lim.get('joint_limit_margin_m', 0.005))
    items = [{'type': 'number', 'minimum': inward(lo + margin, up=True),
              'maximum': inward(hi - margin, up=False)}
             for (lo, hi), margin in zip(joints['position_limits'], margins)]
    return {'type': 'array', 'minItems': len(items), 'maxItems': len(items),
            'prefixItems': items}


def in_workspace(point: Mapping[str, Any], robot: Mapping[str, Any]) -> dict[str, Any]:
    """
    Return ``point`` (x, y, z; m) with each coordinate outside the workspace moved inside it.

    ``{$in_workspace: {x: 0.5, y: 0.0, z: 0.3}}``: an example that stays valid on
    an arm whose reach is smaller; a coordinate outside the box (z above the
    table by the fingertip's reach past the TCP) becomes the box's middle.
    """
    box = robot['limits']['workspace']
    above = (robot.get('gripper') or {}).get('geometry', {}).get('tip_past_tcp_m', 0.0)
    out = dict(point)
    for k, axis in enumerate('xyz'):
        lo, hi = box['min'][k] + (above if axis == 'z' else 0.0), box['max'][k]
        v = out.get(axis)
        if _is_number(v) and not lo <= v <= hi:
            out[axis] = round((lo + hi) / 2, 3)
    return out


def resolve_refs(node: Any, robot: Mapping[str, Any], doc: LoadedYaml,
                 path: tuple[Any, ...]) -> Any:
    """
    Replace every ``{$robot: dotted.path}`` with the robot.yaml value.

    Optional ``scale`` (a number) and ``offset`` (a number or another
    reference) give ``value * scale + offset``, e.g. a joint bound less the
    configured safety margin; ``keys: true`` gives a mapping's keys (an enum).
    """
    if isinstance(node, dict):
        if '$arm_joints' in node:
            rest = {k: v for k, v in node.items() if k != '$arm_joints'}
            return arm_joint_array(robot) | resolve_refs(rest, robot, doc, path)
        if '$in_workspace' in node and isinstance(node['$in_workspace'], Mapping):
            return in_workspace(node['$in_workspace'], robot)
        if '$robot' in node:
            ref = node['$robot']
            extra = set(node) - {'$robot', 'scale', 'offset', 'keys'}
            if extra or not isinstance(ref, str):
                raise doc.error(path, '{$robot: dotted.path} takes only optional scale, offset '
                                'and keys')
            cur: Any = robot
            for part in ref.split('.'):
                if isinstance(cur, list) and part.isdigit() and int(part) < len(cur):
                    cur = cur[int(part)]
                elif isinstance(cur, Mapping) and part in cur:
                    cur = cur[part]
                else:
                    raise doc.error(path, f'robot.yaml has no value at {ref!r}')
            if 'scale' in node or 'offset' in node:
                scale = node.get('scale', 1)
                offset = resolve_refs(node.get('offset', 0), robot, doc, path + ('offset',))
                for key, v in (('scale', scale), ('offset', offset)):
                    if not _is_number(v):
                        raise doc.error(path + (key,), f'{key} must be a number')
                if not _is_number(cur):
                    raise doc.error(path, f'{ref!r} is not a number, so it cannot be scaled '
                                    'or offset')
                cur = round(cur * scale + offset, 12)
            if node.get('keys') is True:
                if not isinstance(cur, Mapping):
                    raise doc.error(path, f'{ref!r} is not a mapping, so it has no keys')
                cur = list(cur)
            return copy.deepcopy(cur)
        return {k: resolve_refs(v, robot, doc, path + (k,)) for k, v in node.items()}
    if isinstance(node, list):
        return [resolve_refs(v, robot, doc, path + (i,)) for i, v in enumerate(node)]
    return node
