"""
Fuzz every shipped tool through the in-memory client.

Seeded generator (fuzz_kit): about half valid calls, half with one hostile
mutation. Validity is decided by an oracle of our own (jsonschema on the
published inputSchema plus a finiteness and size check), never by the
server. ``FUZZ_CALLS_PER_TOOL`` calls per tool in each protocol generation:
300 by default, enough to send every hostile mutation class to the tools
dozens of times; ``python3 bench/bench_fuzz.py`` runs the big budget (10,000).
"""

from __future__ import annotations

import math
import os
import random

import anyio
from bridge_kit import make_bridge, MODES
from fuzz_kit import fuzz_tool, FuzzStats, generate, hostile_value, MOTION_TOOLS, Oracle
from mcp import Client
import pytest

pytestmark = [pytest.mark.contract, pytest.mark.anyio]

CALLS_PER_TOOL = int(os.environ.get('FUZZ_CALLS_PER_TOOL', '300'))
MUTATION_OPS = ('extra_key', 'drop_required', 'array_length', 'duplicate', 'out_of_range')
SEED = int(os.environ.get('FUZZ_SEED', '20260728'))


async def run_fuzz(mode: str, calls_per_tool: int, seed: int) -> tuple[FuzzStats, object, int]:
    """Fuzz every tool on one fresh bridge; return the stats, the backend and the tool count."""
    bridge, backend = make_bridge()
    stats = FuzzStats()
    async with Client(bridge.server, mode=mode) as client:
        tools = (await client.list_tools()).tools
        for tool in tools:
            with anyio.fail_after(max(60.0, calls_per_tool * 0.05)):
                await fuzz_tool(client, backend, tool, calls_per_tool, seed, stats)
    return stats, backend, len(tools)


@pytest.mark.parametrize('mode', MODES)
async def test_fuzz_every_tool(mode: str) -> None:
    """Zero exceptions; invalid calls are isError naming a field and never reach the backend."""
    per_tool = CALLS_PER_TOOL
    stats, backend, n_tools = await run_fuzz(mode, per_tool, SEED + MODES.index(mode))
    assert not stats.failures, '\n\n'.join(stats.failures)
    assert stats.calls == per_tool * n_tools
    assert n_tools >= 11
    # Both kinds are well represented, so the run exercised both paths.
    assert stats.valid > stats.calls * 0.3 and stats.invalid > stats.calls * 0.3
    # The counter on the port: exactly one motion per valid motion call, nothing else.
    assert len(backend.motion_calls) == stats.valid_motion + stats.job_motion
    assert stats.cone_refused > 0  # schema-valid orientations the approach cone refuses
    assert stats.impact_refused > 0  # guarded thresholds the impact margin refuses
    assert sum(1 for c in backend.calls if c[0] == 'stop') == stats.valid_stop
    # Every mutation class and every hostile value was sent, each many times.
    labels = {hostile_value(random.Random(i))[0] for i in range(500)}
    sent = [f'replace:{label}' for label in labels] + list(MUTATION_OPS)
    rare = {m: stats.mutations.get(m, 0) for m in sent if stats.mutations.get(m, 0) < 10}
    assert not rare, f'too few calls of these mutations: {rare}'
    print(f'{mode}: {stats.calls} calls ({stats.valid} valid, {stats.invalid} invalid, '
          f'{stats.valid_motion} motions) in {stats.seconds:.1f} s')


def test_fuzz_budget_covers_every_tool() -> None:
    """At least 300 calls per tool in each mode (10,000 in bench/bench_fuzz.py)."""
    assert CALLS_PER_TOOL >= 300


def test_generator_and_oracle_are_independent_of_the_server() -> None:
    """The oracle flags each hostile class; the generator yields both valid and invalid calls."""
    schema = {'type': 'object', 'additionalProperties': False, 'required': ['f'],
              'properties': {'f': {'type': 'number', 'minimum': 5, 'maximum': 30},
                             'k': {'type': 'string', 'maxLength': 64}}}
    oracle = Oracle(schema)
    assert oracle.valid({'f': 15}) and oracle.valid({'f': 5.0, 'k': 'a'})
    deep: object = 1
    for _ in range(40):
        deep = [deep]
    for bad in ({'f': math.nan}, {'f': math.inf}, {'f': 1e308}, {'f': '15'}, {'f': True},
                {'f': None}, {}, {'f': 15, 'x': 1}, {'f': 15, 'k': 'a' * 100_000},
                {'f': deep}, {'f': 15, 'k': ['a']}):
        assert not oracle.valid(bad), bad
    rng = random.Random(1)
    calls = [generate(schema, rng, i) for i in range(400)]
    verdicts = [oracle.valid(c.args) for c in calls]
    assert 100 < sum(verdicts) < 300
    assert {c.mutation.split(':')[0] for c in calls if c.mutation} >= {
        'replace', 'extra_key', 'drop_required', 'out_of_range'}
    assert MOTION_TOOLS == {'move_arm_to_pose', 'move_arm_joints', 'plan_trajectory',
                            'move_arm_relative', 'move_arm_to_posture',
                            'grasp_object_force_control', 'release_object',
                            'move_until_contact', 'close_gripper'}
