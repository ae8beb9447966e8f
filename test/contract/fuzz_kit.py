"""
A seeded call generator for fuzzing tools/call, with an oracle independent of the server.

``generate`` builds arguments from a tool's published inputSchema: about half
valid, half with one hostile mutation (NaN, ±inf, 1e308, numbers as strings,
booleans, null, extra keys, missing keys, huge strings, deep nesting, wrong
types, wrong lengths, duplicates, out-of-range values). ``oracle_valid``
decides validity with jsonschema plus a finiteness/size check, so a server
that accepted something it should not is caught.
"""

from __future__ import annotations

from dataclasses import dataclass, field
import math
import random
import string
import time
from typing import Any

from jsonschema import Draft202012Validator
from mcp_ros_bridge.catalog.loader import load_robot
from mcp_ros_bridge.contract.errors import subschema
from mcp_ros_bridge.contract.results import error_block
from mcp_ros_bridge.geometry import approach_angle_deg, rpy_deg_to_quat
from paths import CONFIG_DIR

MAX_DEPTH = 16
MAX_STRING = 4096
KEY_ALPHABET = string.ascii_letters + string.digits + '_.:-'
MOTION_TOOLS = frozenset({'move_arm_to_pose', 'move_arm_joints', 'plan_trajectory',
                          'move_arm_relative', 'move_arm_to_posture',
                          'grasp_object_force_control', 'release_object',
                          'move_until_contact', 'close_gripper'})
JOB_TOOLS = frozenset({'pick_object', 'place_object', 'push_object'})  # several motions a call
# A schema-valid job call the job refuses from the world's state: holding already, nothing held,
# the placement check (object poses do not follow the gripper on the double), and place_object's
# one of target/on, never onto the held object itself.
STATE_REFUSALS = {'pick_object': {'REJECTED'},
                  'place_object': {'NOT_HOLDING', 'PLACEMENT_OFF', 'INVALID_ARGUMENTS'},
                  # the double's objects never move (SHORT); a push out of the workspace
                  'push_object': {'SHORT', 'INVALID_ARGUMENTS'}}
LIMITS = load_robot(CONFIG_DIR)[0].limits
CONE_DEG = LIMITS.approach_cone_deg
# a guarded approach's impact grows ~0.8 N per mm/s: its threshold stays below the force limit
IMPACT_N_PER_MM_S = 0.8


def over_impact_cap(tool: Any, args: dict[str, Any]) -> bool:
    """Return True when a schema-valid guarded threshold leaves no impact margin at its speed."""
    if tool.name != 'move_until_contact':
        return False
    props = tool.input_schema['properties']
    speed = args.get('speed_mps', props['speed_mps']['default'])
    force = args.get('contact_force_n', props['contact_force_n']['default'])
    cap = LIMITS.contact_force_limit_n - IMPACT_N_PER_MM_S * 1000.0 * speed
    return bool(force > cap + 1e-9)


def outside_cone(args: dict[str, Any]) -> bool:
    """Return True when a schema-valid orientation leaves the approach cone (envelope refuses)."""
    o = args.get('orientation')
    if not isinstance(o, dict):
        return False
    q = rpy_deg_to_quat(o.get('roll', 180.0), o.get('pitch', 0.0), o.get('yaw', 0.0))
    return approach_angle_deg(q) > CONE_DEG + 1e-6


@dataclass
class FuzzCall:
    """One generated call: the arguments and, if mutated, the top-level key it touched."""

    args: dict[str, Any]
    mutation: str | None = None
    touched: str | None = None


def _clean(value: Any, depth: int = 0) -> bool:
    if depth > MAX_DEPTH:
        return False
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, str):
        return len(value) <= MAX_STRING
    if isinstance(value, dict):
        return all(isinstance(k, str) and _clean(v, depth + 1) for k, v in value.items())
    if isinstance(value, list):
        return all(_clean(v, depth + 1) for v in value)
    return True


class Oracle:
    """Decides validity from the published schema, without asking the server."""

    def __init__(self, schema: dict[str, Any]) -> None:
        """Compile the schema."""
        self.validator = Draft202012Validator(schema)

    def valid(self, args: Any) -> bool:
        """Return True when ``args`` must be accepted."""
        try:
            return _clean(args) and self.validator.is_valid(args)
        except RecursionError:
            return False


def _number(schema: dict[str, Any], rng: random.Random) -> float | int:
    lo = schema.get('minimum', schema.get('exclusiveMinimum', -10.0))
    hi = schema.get('maximum', schema.get('exclusiveMaximum', 10.0))
    if schema.get('type') == 'integer':
        return rng.randint(math.ceil(lo), math.floor(hi))
    v = rng.choice([lo, hi, rng.uniform(lo, hi), rng.uniform(lo, hi)])
    if 'exclusiveMinimum' in schema and v <= lo:
        v = lo + (hi - lo) * 1e-3
    if 'exclusiveMaximum' in schema and v >= hi:
        v = hi - (hi - lo) * 1e-3
    return round(v, 6) if lo < round(v, 6) < hi else v


def valid_value(schema: dict[str, Any], rng: random.Random) -> Any:
    """Return a random value that satisfies ``schema``."""
    if 'enum' in schema:
        return rng.choice(schema['enum'])
    t = schema.get('type')
    if t in ('number', 'integer'):
        return _number(schema, rng)
    if t == 'boolean':
        return rng.random() < 0.5
    if t == 'string':
        n = rng.randint(schema.get('minLength', 1), min(schema.get('maxLength', 16), 64))
        return ''.join(rng.choice(KEY_ALPHABET) for _ in range(n))
    if t == 'array':
        if 'prefixItems' in schema:
            return [valid_value(s, rng) for s in schema['prefixItems']]
        items = schema.get('items', {})
        n = rng.randint(schema.get('minItems', 0), schema.get('maxItems', 4))
        if schema.get('uniqueItems') and 'enum' in items:
            return rng.sample(items['enum'], min(n, len(items['enum'])))
        return [valid_value(items, rng) for _ in range(n)]
    if t == 'object':
        return valid_object(schema, rng)
    return None


def valid_object(schema: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Return the required keys plus a random subset of the optional ones."""
    props = schema.get('properties', {})
    out = {}
    for name, sub in props.items():
        if name in schema.get('required', []) or rng.random() < 0.5:
            out[name] = valid_value(sub, rng)
    return out


def _deep(rng: random.Random) -> Any:
    v: Any = rng.choice([0.5, 'x', None])
    for _ in range(rng.randint(MAX_DEPTH + 2, 60)):
        v = {'x': v} if rng.random() < 0.5 else [v]
    return v


def hostile_value(rng: random.Random) -> tuple[str, Any]:
    """Return (label, value) of something hostile to put where a parameter goes."""
    choices: list[tuple[str, Any]] = [
        ('nan', math.nan), ('inf', math.inf), ('-inf', -math.inf), ('1e308', 1e308),
        ('-1e308', -1e308), ('string-number', '15'), ('string-unit', '15N'),
        ('string-float', '0.2'), ('true', True), ('false', False), ('null', None),
        ('empty-object', {}), ('empty-array', []), ('list', [1, 2, 3]),
        ('object', {'value': 1}), ('int-huge', 10 ** 30), ('negative', -1),
        ('string', 'kalman-ish'), ('huge-string', 'A' * rng.choice([5000, 100_000])),
        ('deep', _deep(rng)),
    ]
    return rng.choice(choices)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path] if path else []
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, path + (i,))
    return out


def _at(args: dict[str, Any], path: tuple[Any, ...]) -> Any:
    cur: Any = args
    for part in path:
        cur = cur[part]
    return cur


def _parent(args: dict[str, Any], path: tuple[Any, ...]) -> Any:
    cur: Any = args
    for part in path[:-1]:
        cur = cur[part]
    return cur


def mutate(schema: dict[str, Any], args: dict[str, Any], rng: random.Random) -> FuzzCall:
    """Apply one hostile mutation to valid ``args``."""
    props = schema.get('properties', {})
    paths = _paths(args)
    objects = [()] + [p for p in paths if isinstance(_at(args, p), dict)]
    arrays = [p for p in paths if isinstance(_at(args, p), list)]
    numbers = [p for p in paths if isinstance(_at(args, p), (int, float))
               and not isinstance(_at(args, p), bool)]
    ops = ['extra_key', 'drop_required']
    if paths or props:
        ops += ['replace'] * 4
    if arrays:
        ops += ['array_length', 'duplicate']
    if numbers:
        ops.append('out_of_range')
    op = rng.choice(ops)
    if op == 'replace':
        if props and (not paths or rng.random() < 0.3):
            path: tuple[Any, ...] = (rng.choice(list(props)),)
        else:
            path = rng.choice(paths)
        label, bad = hostile_value(rng)
        _parent(args, path)[path[-1]] = bad
        return FuzzCall(args, f'replace:{label}', str(path[0]))
    if op == 'extra_key':
        where = rng.choice(objects)
        target = _at(args, where)
        name = rng.choice(['speed', 'force', 'frame', 'extra_' + str(rng.randint(0, 99)),
                           'token', 'Position'])
        target[name] = hostile_value(rng)[1] if rng.random() < 0.5 else 1
        return FuzzCall(args, 'extra_key', str(where[0]) if where else name)
    if op == 'drop_required':
        candidates = []
        for where in objects:
            sub = schema if not where else subschema(schema, where)
            target = _at(args, where)
            for r in (sub or {}).get('required', []):
                if r in target:
                    candidates.append((where, r))
        if not candidates:
            target = args
            target['unexpected'] = True
            return FuzzCall(args, 'extra_key', 'unexpected')
        where, r = rng.choice(candidates)
        del _at(args, where)[r]
        return FuzzCall(args, 'drop_required', str(where[0]) if where else r)
    if op == 'array_length':
        path = rng.choice(arrays)
        arr = _at(args, path)
        if arr and rng.random() < 0.5:
            arr.pop()
        else:
            arr.extend(arr[:1] * rng.randint(1, 12) if arr else [1])
        return FuzzCall(args, 'array_length', str(path[0]))
    if op == 'duplicate':
        path = rng.choice(arrays)
        arr = _at(args, path)
        if arr:
            arr.append(arr[0])
        else:
            arr.extend([None, None])
        return FuzzCall(args, 'duplicate', str(path[0]))
    path = rng.choice(numbers)
    parent = _parent(args, path)
    parent[path[-1]] = rng.choice([1e3, -1e3, 2.0, -2.0, 0, 1e-9]) * rng.choice([1, 1000])
    return FuzzCall(args, 'out_of_range', str(path[0]))


def generate(schema: dict[str, Any], rng: random.Random, serial: int) -> FuzzCall:
    """Return a valid call or, about half the time, a mutated one."""
    args = valid_object(schema, rng)
    if 'idempotency_key' in args:
        args['idempotency_key'] = f'fuzz-{serial}'  # unique, so every valid call executes
    if rng.random() < 0.5:
        return FuzzCall(args)
    call = mutate(schema, args, rng)
    key = call.args.get('idempotency_key')
    if isinstance(key, str) and key and len(key) <= 40 and not key.startswith('fuzz-'):
        # A hostile string that happens to be a valid key must not repeat an earlier one.
        call.args['idempotency_key'] = f'{key}-{serial}'
    return call


@dataclass
class FuzzStats:
    """Counters of one fuzz run."""

    calls: int = 0
    valid: int = 0
    invalid: int = 0
    valid_motion: int = 0
    job_motion: int = 0  # the motions job tools made (any number per call)
    valid_stop: int = 0
    cone_refused: int = 0
    impact_refused: int = 0
    failures: list[str] | None = None
    seconds: float = 0.0
    mutations: dict[str, int] = field(default_factory=dict)  # how often each was sent

    def fail(self, message: str) -> None:
        """Record a failure (kept short)."""
        if self.failures is None:
            self.failures = []
        if len(self.failures) < 20:
            self.failures.append(message[:600])


async def fuzz_tool(client: Any, backend: Any, tool: Any, n: int, seed: int,
                    stats: FuzzStats) -> None:
    """Send ``n`` generated calls to ``tool`` and check every answer."""
    rng = random.Random(f'{seed}:{tool.name}')
    oracle = Oracle(tool.input_schema)
    output_check = Draft202012Validator(tool.output_schema)
    started = time.perf_counter()
    for i in range(n):
        call = generate(tool.input_schema, rng, stats.calls)
        if call.mutation:
            stats.mutations[call.mutation] = stats.mutations.get(call.mutation, 0) + 1
        valid = oracle.valid(call.args)
        before, moves_before = len(backend.calls), len(backend.motion_calls)
        stats.calls += 1
        try:
            result = await client.call_tool(tool.name, call.args)
        except Exception as exc:  # noqa: BLE001 - every exception is a finding
            stats.fail(f'{tool.name} #{i} {call.mutation}: {type(exc).__name__}: {exc}')
            continue
        text = '\n'.join(getattr(c, 'text', '') for c in result.content)
        if tool.name in JOB_TOOLS:
            stats.job_motion += len(backend.motion_calls) - moves_before
        if result.structured_content is not None and \
                not output_check.is_valid(result.structured_content):
            stats.fail(f'{tool.name} #{i}: structuredContent violates the outputSchema')
        if valid and outside_cone(call.args):
            stats.cone_refused += 1
            code = error_block(result).get('code')
            if not result.is_error or code != 'LIMIT_EXCEEDED' or 'approach_cone' not in text:
                stats.fail(f'{tool.name} #{i}: orientation outside the cone not refused: '
                           f'{call.args!r:.200}\n{text}')
            if len(backend.motion_calls) != moves_before:
                stats.fail(f'{tool.name} #{i}: refused orientation reached the backend')
        elif valid and over_impact_cap(tool, call.args):
            stats.impact_refused += 1
            code = error_block(result).get('code')
            if not result.is_error or code != 'LIMIT_EXCEEDED' or 'contact_force_n' not in text:
                stats.fail(f'{tool.name} #{i}: threshold past the impact cap not refused: '
                           f'{call.args!r:.200}\n{text}')
            if len(backend.motion_calls) != moves_before:
                stats.fail(f'{tool.name} #{i}: refused threshold reached the backend')
        elif valid:
            stats.valid += 1
            stats.valid_motion += tool.name in MOTION_TOOLS and not call.args.get('plan_only')
            stats.valid_stop += tool.name == 'stop_arm'
            refusal = error_block(result).get('code') in STATE_REFUSALS.get(tool.name, ())
            if result.is_error and not refusal:
                stats.fail(f'{tool.name} #{i}: valid call refused: {call.args!r:.200}\n{text}')
        else:
            stats.invalid += 1
            if not result.is_error:
                stats.fail(f'{tool.name} #{i} {call.mutation}: invalid call accepted: '
                           f'{call.args!r:.200}')
            elif error_block(result).get('code') != 'INVALID_ARGUMENTS':
                stats.fail(f'{tool.name} #{i} {call.mutation}: wrong error: {text}')
            elif call.touched and call.touched not in text:
                stats.fail(f'{tool.name} #{i} {call.mutation}: field {call.touched!r} not '
                           f'named in: {text}')
            if len(backend.calls) != before:
                stats.fail(f'{tool.name} #{i} {call.mutation}: invalid call reached the '
                           f'backend: {backend.calls[before:]!r:.200}')
    stats.seconds += time.perf_counter() - started
