"""
Rule ``robot-limits``: a tool publishes no bound wider than the robot's limits allow.

Part of the loader's pass (``checks.py``): the robot refuses such values, so a
schema that offers them misleads the model and the tool does not load.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mcp_ros_bridge.catalog.lint_model import Report
from mcp_ros_bridge.catalog.robot import RobotConfig


def numeric_range(s: dict[str, Any]) -> tuple[float | None, bool, float | None]:
    """Return ``(low, low_is_exclusive, high)`` of a numeric schema (None: unbounded)."""
    nums = [v for v in s.get('enum') or [] if isinstance(v, (int, float))
            and not isinstance(v, bool)]
    lo: float | None = min(nums) if nums else None
    hi: float | None = max(nums) if nums else None
    exclusive = False
    for key, strict in (('minimum', False), ('exclusiveMinimum', True)):
        v = s.get(key)
        if isinstance(v, (int, float)) and not isinstance(v, bool) and (
                lo is None or v > lo or (v == lo and strict)):
            lo, exclusive = v, strict
    for key in ('maximum', 'exclusiveMaximum'):
        v = s.get(key)
        if isinstance(v, (int, float)) and not isinstance(v, bool) and (hi is None or v < hi):
            hi = v
    return lo, exclusive, hi


def _prop(schema: Any, *path: str) -> dict[str, Any] | None:
    cur = schema
    for part in path:
        cur = cur.get(part) if isinstance(cur, dict) else None
    return cur if isinstance(cur, dict) else None


def check_limits(report: Report, i: int, name: str, params: frozenset[str],
                 schema: dict[str, Any], robot: RobotConfig) -> None:
    """Check that bounds of known parameters stay inside robot.yaml's limits."""
    base = ('tools', i)
    lim = robot.limits

    def uses(param: str) -> bool:
        return param in params or '*' in params

    def bad(rel: tuple[Any, ...], message: str, fix: str) -> None:
        report.add('robot-limits', name, base, ('input',) + rel, f'{message}: the robot '
                   'refuses values outside its limits, so the tool must not publish them', fix)

    def check_max(rel: tuple[str, ...], cap: float, ref: str) -> None:
        s = _prop(schema, *rel)
        hi = numeric_range(s)[2] if s else None
        if hi is not None and hi > cap:
            bad(rel, f'upper bound {hi} exceeds robot.yaml {ref} = {cap}',
                f'set maximum: {{$robot: {ref}}} (or a value <= {cap})')

    if uses('force_n'):
        check_max(('properties', 'force_n'), robot.gripper_max_force_n, 'gripper.max_force_n')
        s = _prop(schema, 'properties', 'force_n')
        lo = numeric_range(s)[0] if s else None
        if lo is not None and lo < robot.gripper_min_force_n:
            bad(('properties', 'force_n'), f'lower bound {lo} is below robot.yaml '
                f'gripper.min_force_n = {robot.gripper_min_force_n}',
                'set minimum: {$robot: gripper.min_force_n}')
    if uses('width_m'):
        check_max(('properties', 'width_m'), robot.gripper_max_width_m, 'gripper.max_width_m')
    for param, cap, ref in (
            ('velocity_scaling', lim.max_velocity_scaling, 'limits.max_velocity_scaling'),
            ('acceleration_scaling', lim.max_acceleration_scaling,
             'limits.max_acceleration_scaling')):
        s = _prop(schema, 'properties', param)
        if not uses(param) or s is None:
            continue
        check_max(('properties', param), cap, ref)
        lo, exclusive, _ = numeric_range(s)
        if lo is None or lo < 0 or (lo == 0 and not exclusive):
            bad(('properties', param), f'{param} may be {lo if lo is not None else "any"}; it '
                'must stay in (0, max] (MoveIt treats 0 as full speed)',
                'set exclusiveMinimum: 0 (or a minimum above 0) and remove minimum: 0')
    if uses('positions'):
        check_joint_bounds(bad, schema, robot)
    for param, rel in (('position', ('properties', 'position', 'properties')),
                       ('waypoints', ('properties', 'waypoints', 'items', 'properties'))):
        if not uses(param):
            continue
        for axis, lo_cap, hi_cap in zip('xyz', lim.workspace.lo, lim.workspace.hi):
            s = _prop(schema, *rel, axis)
            if s is None:
                continue
            lo, _, hi = numeric_range(s)
            if (lo is not None and lo < lo_cap) or (hi is not None and hi > hi_cap):
                k = 'xyz'.index(axis)
                bad(rel + (axis,), f'{axis} bounds [{lo}, {hi}] leave the workspace box '
                    f'[{lo_cap}, {hi_cap}] (m)',
                    f'use minimum: {{$robot: limits.workspace.min.{k}}} and maximum: '
                    f'{{$robot: limits.workspace.max.{k}}}')


def check_joint_count(report: Report, i: int, name: str, schema: dict[str, Any],
                      robot: RobotConfig) -> None:
    """
    Rule ``joint-count``: ``positions`` of a joint move holds exactly one value per arm joint.

    A longer array would carry values no joint bound covers (dropped or, worse,
    sent); a shorter one could never name a whole configuration.
    """
    s = _prop(schema, 'properties', 'positions')
    if s is None:
        return
    n = len(robot.arm_joints)
    items = s.get('prefixItems')
    count = len(items) if isinstance(items, list) else None
    if s.get('minItems') == n and s.get('maxItems') == n and count == n:
        return
    key = ('maxItems',) if 'maxItems' in s else ()
    report.add('joint-count', name, ('tools', i), ('input', 'properties', 'positions', *key),
               f'positions allows minItems {s.get("minItems")}, maxItems {s.get("maxItems")} '
               f'with {count if count is not None else "no"} prefixItems, but robot.yaml '
               f'joints.arm names {n} joints ({", ".join(robot.arm_joints)})',
               f'set minItems: {n}, maxItems: {n} and one bounded prefixItems entry per '
               f'joint ({n} entries, in joints.arm order)')


def check_joint_bounds(bad: Callable[[tuple[Any, ...], str, str], None], schema: dict[str, Any],
                       robot: RobotConfig) -> None:
    """Check per-joint bounds of ``positions`` against the limits less the safety margin."""
    s = _prop(schema, 'properties', 'positions')
    if s is None:
        return
    items = s.get('prefixItems')
    per = items if isinstance(items, list) else [s.get('items')] * len(robot.arm_joints)
    rows = zip(robot.arm_joints, robot.arm_position_limits, per, robot.joint_margins)
    for k, (joint, (lo_cap, hi_cap), item, margin) in enumerate(rows):
        lo, _, hi = numeric_range(item) if isinstance(item, dict) else (None, False, None)
        lo_cap, hi_cap = lo_cap + margin, hi_cap - margin
        if lo is None or hi is None or lo < lo_cap - 1e-9 or hi > hi_cap + 1e-9:
            rel = ('properties', 'positions') + (('prefixItems', k) if items else ('items',))
            bad(rel, f'{joint} bounds [{lo}, {hi}] are wider than robot.yaml '
                f'joints.position_limits less limits.joint_limit_margin_rad '
                f'[{round(lo_cap, 6)}, {round(hi_cap, 6)}] (rad)',
                f'use minimum: {{$robot: joints.position_limits.{k}.0, offset: {{$robot: '
                f'limits.joint_limit_margin_rad}}}} and maximum: {{$robot: '
                f'joints.position_limits.{k}.1, offset: {{$robot: '
                f'limits.joint_limit_margin_rad, scale: -1}}}}')
