"""
Benchmark: the simulation of arms built from their URDF beside the hand-written Panda.

For each arm (the shipped Panda config; UR5, xArm7 and Z1 configs written by
``mcp-ros-bridge init`` from example-robot-data) it serves the tools on the
fast simulation (speed 0), runs a pick-and-place of the box through an
in-memory MCP client and prints: world build time, reach error of the first
pose move, placement error of the box (from physics), and the real-time
factor of the whole task (simulated / wall seconds), also as a ratio to the
Panda's in the same run.

Usage: ``python bench/bench_sim_arms.py [--smoke]`` (smoke: the Panda and the UR5).
"""

import argparse
import asyncio
import os
import re
import sys
import sysconfig
import tempfile
import time

from smoke import add_flag, check, done

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARMS = {  # name: (URDF, SRDF under example-robot-data's robots/, home or None, place target)
    'ur5': ('ur_description/urdf/ur5_robot.urdf', 'ur_description/srdf/ur5.srdf',
            '[0.0, -1.5708, 1.5708, -1.5708, -1.5708, 0.0]', (0.45, 0.25)),
    'xarm7': ('xarm_description/urdf/xarm7.urdf', 'xarm_description/srdf/xarm7.srdf', None,
              (0.45, 0.25)),
    'z1': ('z1_description/urdf/z1.urdf', 'z1_description/srdf/z1.srdf', None, (0.3, -0.2)),
}
APPROACH_M = 0.12


def _robots_dir() -> str:
    for scheme in ('purelib', 'platlib'):
        path = os.path.join(sysconfig.get_paths()[scheme], 'cmeel.prefix', 'share',
                            'example-robot-data', 'robots')
        if os.path.isdir(path):
            return path
    raise SystemExit('example-robot-data is not installed (pip install example-robot-data)')


def _config(arm: str, out: str) -> str:
    """Write the arm's config as ``mcp-ros-bridge init`` does, with its home set."""
    from mcp_ros_bridge.catalog.init_config import write_config
    urdf, srdf, home, _ = ARMS[arm]
    write_config(out, os.path.join(_robots_dir(), urdf), os.path.join(_robots_dir(), srdf))
    if home:
        path = os.path.join(out, 'robot.yaml')
        with open(path, encoding='utf-8') as f:
            text = re.sub(r'  postures:\n    home: \[[^\]]*\]', f'  postures:\n    home: {home}',
                          f.read())
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
    return out


async def _box(c: object) -> dict:
    """Return the box's centre (m) from list_objects."""
    objects = (await _call(c, 'list_objects'))['objects']
    return next(o for o in objects if o['name'] == 'box')['pose']['position_m']


async def _call(c: object, tool: str, args: dict | None = None) -> dict:
    r = await c.call_tool(tool, args or {})  # type: ignore[attr-defined]
    if r.is_error:
        raise SystemExit(f'{tool} failed: {r.content[0].text}')
    return r.structured_content


async def _run(config: str, target: tuple[float, float]) -> tuple[float, float, float, float]:
    """Return (build s, reach error mm, placement error mm, real-time factor) of one arm."""
    from mcp import Client
    from mcp_ros_bridge.server.app import build
    from mcp_ros_bridge.server.settings import ServeOptions
    t0 = time.monotonic()
    bridge, backend = await build(ServeOptions(config_dir=config, sim_speed=0, watch=False))
    built = time.monotonic() - t0
    try:
        async with Client(bridge.server, mode='legacy') as c:
            wall0, sim0 = time.monotonic(), backend.world.time
            p = await _box(c)
            above = p['z'] + APPROACH_M
            await _call(c, 'release_object')
            reach = await _call(c, 'move_arm_to_pose', {
                'position': {'x': p['x'], 'y': p['y'], 'z': above}, 'velocity_scaling': 0.5})
            steps = [('move_arm_relative', {'offset': {'z': -APPROACH_M}}),
                     ('grasp_object_force_control', {'force_n': 15}),
                     ('move_arm_relative', {'offset': {'z': APPROACH_M}}),
                     ('move_arm_to_pose', {'position': {'x': target[0], 'y': target[1],
                                                        'z': above}, 'velocity_scaling': 0.5}),
                     ('move_arm_relative', {'offset': {'z': -(APPROACH_M - 0.003)}}),
                     ('release_object', {}),
                     ('move_arm_relative', {'offset': {'z': APPROACH_M}})]
            for tool, args in steps:
                await _call(c, tool, args)
            placed = await _box(c)
            rtf = (backend.world.time - sim0) / (time.monotonic() - wall0)
    finally:
        await backend.close()
    error = ((placed['x'] - target[0]) ** 2 + (placed['y'] - target[1]) ** 2) ** 0.5
    return built, reach['position_error_mm'], error * 1000.0, rtf


async def main(smoke: bool) -> None:
    """Run every arm and print the table."""
    from mcp_ros_bridge.catalog.robot import default_config_dir
    arms = ['ur5'] if smoke else list(ARMS)
    rows = [('panda (hand-written)', await _run(default_config_dir(), (0.45, 0.25)))]
    with tempfile.TemporaryDirectory() as tmp:
        for arm in arms:
            rows.append((f'{arm} (URDF)', await _run(_config(arm, os.path.join(tmp, arm)),
                                                     ARMS[arm][3])))
    print(f'load average (1 min): {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs')
    print(f'{"arm":22} {"build s":>8} {"reach mm":>9} {"place mm":>9} {"RTF":>7} {"vs panda":>9}')
    panda_rtf = rows[0][1][3]
    for name, (built, reach, place, rtf) in rows:
        print(f'{name:22} {built:8.2f} {reach:9.2f} {place:9.2f} {rtf:6.1f}x '
              f'{rtf / panda_rtf:8.2f}x')
    if smoke:
        check(**{f'figure_{i}_{k}': v for i, (_, row) in enumerate(rows)
                 for k, v in enumerate(row)})
        done()


if __name__ == '__main__':
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    add_flag(parser)
    sys.path.insert(0, REPO)
    asyncio.run(main(parser.parse_args().smoke))
