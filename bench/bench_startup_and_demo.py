"""
Cold start to the first answered tools/list, and the full pick-and-place wall time.

Goals: cold start <= 1.5 s; the demo over MCP in fast simulation mode < 10 s.
Run: python3 bench/bench_startup_and_demo.py [--runs N]
"""

import argparse
import asyncio
import io
import statistics
import sys
import tempfile
import time

from mcp import Client, StdioServerParameters
from mcp_ros_bridge.demo import run_demo


async def cold_start(backend_args: list[str]) -> float:
    """Spawn the server over stdio and time until tools/list is answered."""
    params = StdioServerParameters(
        command=sys.executable,
        args=['-m', 'mcp_ros_bridge.cli', 'serve', '--no-watch'] + backend_args)
    t0 = time.perf_counter()
    async with Client(params, mode='legacy') as client:
        await client.list_tools()
        return time.perf_counter() - t0


async def main(runs: int) -> None:
    """Print the figures."""
    starts = [await cold_start(['--backend', 'sim', '--sim-speed', '0']) for _ in range(runs)]
    print(f'cold start to first tools/list (sim backend, stdio), {runs} runs: '
          f'median {statistics.median(starts):.3f} s, max {max(starts):.3f} s '
          f'(goal <= 1.5 s)')
    walls = []
    for _ in range(runs):
        out = io.StringIO()
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            rc = await run_demo(0.0, f'{tmp}/scene.png', out)
            walls.append(time.perf_counter() - t0)
        if rc != 0:
            print(out.getvalue()[-2000:])
            raise SystemExit('demo failed')
    print(f'pick-and-place over MCP (stdio, fast sim), {runs} runs: median '
          f'{statistics.median(walls):.2f} s, max {max(walls):.2f} s wall (goal < 10 s)')


if __name__ == '__main__':
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--runs', type=int, default=3)
    asyncio.run(main(parser.parse_args().runs))
