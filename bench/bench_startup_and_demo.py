"""
Cold start to the first answered tools/list, and the full pick-and-place wall time.

Goals: cold start <= 1.2x the SDK's own import for both backends (the ROS
backend without the simulation imported); the demo over MCP in fast simulation
mode < 10 s. Each run spawns, in turn: a bare interpreter, ``import
mcp.server.stdio`` (the SDK's own import, a floor the bridge cannot go below),
then the bridge on each backend over stdio, timed until tools/list is answered.
No figure includes the interpreter's exit: the references are timed until the
child writes one byte after its work, the bridge until tools/list is answered.
The ratio is the median of the per-run ratios (each run's bridge start over the
same run's SDK import), with their spread, not a ratio of medians.
Run: python3 bench/bench_startup_and_demo.py [--runs N] [--no-demo] [--smoke]
(smoke: one run of each, the demo included)
"""

import argparse
import asyncio
import io
import os
import statistics
import subprocess
import sys
import tempfile
import time

from mcp import Client, StdioServerParameters
from mcp_ros_bridge.demo import run_demo
from smoke import add_flag, check, done

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV = {**os.environ, 'PYTHONPATH': os.pathsep.join(
    [REPO] + [p for p in os.environ.get('PYTHONPATH', '').split(os.pathsep) if p])}


async def cold_start(backend_args: list[str]) -> float:
    """Spawn the server over stdio and time until tools/list is answered."""
    params = StdioServerParameters(
        command=sys.executable, env=ENV, cwd=REPO,
        args=['-m', 'mcp_ros_bridge.cli', 'serve', '--no-watch'] + backend_args)
    t0 = time.perf_counter()
    async with Client(params, mode='legacy') as client:
        await client.list_tools()
        return time.perf_counter() - t0


async def python_run(code: str) -> float:
    """Time ``python -c code`` from spawn until it has run ``code`` (its exit not included)."""
    t0 = time.perf_counter()
    child = await asyncio.create_subprocess_exec(
        sys.executable, '-c', code + '\nimport sys\nsys.stdout.write("r")\nsys.stdout.flush()'
        '\nsys.stdin.read()', env=ENV, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdout is not None
    got = await child.stdout.read(1)
    took = time.perf_counter() - t0
    child.kill()
    await child.wait()
    if got != b'r':
        raise SystemExit(f'python -c {code!r} failed')
    return took


def ros_available() -> bool:
    """Return True when rclpy imports (the ROS row needs it)."""
    return subprocess.run([sys.executable, '-c', 'import rclpy'], env=ENV,
                          capture_output=True, check=False).returncode == 0


async def main(runs: int, demo: bool, smoke: bool = False) -> None:
    """Print the figures."""
    rows = {'python -c pass': lambda: python_run('pass'),
            'import mcp.server.stdio (SDK floor)': lambda: python_run('import mcp.server.stdio'),
            'bridge, sim backend': lambda: cold_start(['--backend', 'sim', '--sim-speed', '0'])}
    if ros_available():
        rows['bridge, ROS backend'] = lambda: cold_start(['--backend', 'ros'])
    times: dict[str, list[float]] = {name: [] for name in rows}
    for _ in range(runs):
        for name, start in rows.items():
            times[name].append(await start())
    floors = times['import mcp.server.stdio (SDK floor)']
    print(f'cold start to first tools/list over stdio, {runs} interleaved runs '
          '(goal <= 1.2x the SDK import for each backend); seconds, exit not included')
    print(f'{"":38s}{"median":>8s}{"min":>8s}{"max":>8s}{"x SDK import, paired":>24s}')
    for name, found in times.items():
        ratios = [f / floor for f, floor in zip(found, floors)]
        print(f'{name:38s}{statistics.median(found):8.3f}{min(found):8.3f}{max(found):8.3f}'
              f'{statistics.median(ratios):10.2f}x {min(ratios):.2f}-{max(ratios):.2f}')
    if smoke:
        check(cold_start=[v for found in times.values() for v in found])
    if not demo:
        if smoke:
            done()
        return
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
    if smoke:
        check(demo=walls)
        done()


if __name__ == '__main__':
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--runs', type=int, default=3)
    parser.add_argument('--no-demo', dest='demo', action='store_false')
    add_flag(parser)
    args = parser.parse_args()
    asyncio.run(main(1 if args.smoke else args.runs, args.demo, args.smoke))
