"""
Fuzz every shipped tool with 10,000 generated calls through the in-memory MCP client.

Usage: ``python3 bench/bench_fuzz.py [--calls 10000] [--mode legacy|2026-07-28|both]
[--smoke]`` (smoke: 20 calls per tool and mode).
Uses the recording backend double (the server, contract and safety layers
are what is measured). Prints per-mode counts, failures and calls per second;
exits non-zero on any failure.
"""

from __future__ import annotations

import argparse
import os
import sys

import anyio
from smoke import add_flag, check, done

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
for extra in (REPO, os.path.join(REPO, 'test'), os.path.join(REPO, 'test', 'contract')):
    sys.path.insert(0, extra)

MODES = ('legacy', '2026-07-28')


async def bench(mode: str, calls: int, seed: int, smoke: bool = False) -> bool:
    """Fuzz every tool in ``mode``; print the figures; return True when clean."""
    from bridge_kit import make_bridge
    from fuzz_kit import fuzz_tool, FuzzStats
    from mcp import Client
    bridge, backend = make_bridge()
    stats = FuzzStats()
    async with Client(bridge.server, mode=mode) as client:
        tools = (await client.list_tools()).tools
        for tool in tools:
            before = FuzzStats(**vars(stats))
            await fuzz_tool(client, backend, tool, calls, seed, stats)
            n = stats.calls - before.calls
            rate = n / (stats.seconds - before.seconds)
            print(f'  {mode:10s} {tool.name:28s} {n:6d} calls '
                  f'{stats.valid - before.valid:6d} valid {stats.invalid - before.invalid:6d} '
                  f'invalid  {rate:7.0f} calls/s', flush=True)
    # one backend motion per valid motion call, plus the several a job (pick, place) makes
    motions_ok = len(backend.motion_calls) == stats.valid_motion + stats.job_motion
    print(f'{mode}: {stats.calls} calls, {stats.valid} valid, {stats.invalid} invalid, '
          f'{len(stats.failures or [])} failures, backend motions {len(backend.motion_calls)} '
          f'== valid motion calls {stats.valid_motion} + job motions {stats.job_motion}: '
          f'{motions_ok}; {stats.calls / stats.seconds:.0f} calls/s')
    for failure in stats.failures or []:
        print('  FAIL', failure)
    if smoke:
        check(calls=stats.calls, valid=stats.valid, invalid=stats.invalid,
              rate=stats.calls / stats.seconds)
        assert stats.valid and stats.invalid, 'smoke: valid and invalid calls both expected'
    return motions_ok and not stats.failures


def main() -> int:
    """Parse arguments and run."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    p.add_argument('--calls', type=int, default=10_000, help='calls per tool and mode')
    p.add_argument('--mode', choices=list(MODES) + ['both'], default='both')
    p.add_argument('--seed', type=int, default=1)
    add_flag(p)
    args = p.parse_args()
    modes = MODES if args.mode == 'both' else (args.mode,)
    calls = 20 if args.smoke else args.calls
    ok = True
    for mode in modes:
        ok = anyio.run(bench, mode, calls, args.seed, args.smoke) and ok
    if args.smoke and ok:
        done()
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
