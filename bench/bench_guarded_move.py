"""
Benchmark: a guarded move down onto the table, from contact to still, beside the plain force guard.

On the fast simulation (physics and the guard at 500 Hz), for each approach speed: from 5 cm
above the table, ``move_until_contact`` (5 N threshold) down until the fingertips touch; it
prints the contact height error against the table top (z = 0), the time from the threshold
crossing to the halt command and from the halt to a still arm (simulated ms), how far the tip
went on after the crossing (mm) and the peak force. Beside it, the same line driven with a
plain Cartesian move whose 40 N contact guard stops it: its peak force and the ratio.

Then ``push_object`` over MCP (in-memory client, a fresh scene each): each object pushed 5 cm
each way; the displacement along the push and sideways and the tilt are read from the physics
state (not the tool's claim), beside the peak force on the object the tool reports.

Usage: ``python bench/bench_guarded_move.py [--repeats 5] [--smoke]`` (smoke: one speed, one
repeat, one push).
"""

import argparse
import asyncio
import os
import statistics
import sys

from smoke import add_flag, check, done

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOWN = (0.0, 1.0, 0.0, 0.0)
SPOTS = ((0.4, -0.2), (0.35, -0.3), (0.45, -0.25), (0.3, -0.15), (0.5, -0.3))


async def one(b, x: float, y: float, speed: float) -> dict:
    """Run one guarded touch and one plain drive at ``speed``; return the figures."""
    from mcp_ros_bridge.backends.port import (CartesianGoal, GuardedGoal, MotionLimits, Pose,
                                              PoseGoal)

    def at(z: float) -> Pose:
        return Pose((x, y, z), DOWN, 'panda_link0')

    lim = MotionLimits(0.5, 0.5, 40.0, 0.25, 30.0)
    assert (await b.move_to_pose(PoseGoal(at(0.06), lim))).succeeded
    guarded = MotionLimits(0.2, 0.2, 40.0, speed, 30.0, contact_threshold_n=5.0)
    r = await b.move_until_contact(GuardedGoal((0.0, 0.0, -1.0), 0.1, speed, 5.0, guarded))
    assert r.status == 'CONTACT_ABORT', r.message
    c, d = r.contact, r.details
    after_mm = (c['tip_m']['z'] - min(c['tip_m']['z'], r.final_pose.position[2])) * 1000
    peak_guarded = r.peak_force_n
    assert (await b.move_to_pose(PoseGoal(at(0.06), lim))).succeeded
    plain = await b.follow_cartesian_path(CartesianGoal(
        [at(-0.05)], MotionLimits(0.2, 0.2, 40.0, speed, 30.0), avoid_collisions=False))
    assert plain.status == 'CONTACT_ABORT', plain.message
    return {'height_mm': abs(c['point_m']['z']) * 1000, 'reaction_ms': d['reaction_s'] * 1000,
            'still_ms': d.get('still_after_halt_s', 0.0) * 1000, 'after_mm': after_mm,
            'peak_n': peak_guarded, 'plain_peak_n': plain.peak_force_n}


async def run(speeds: list[float], repeats: int) -> None:
    """Measure every speed; print one line each."""
    from mcp_ros_bridge.backends.sim import SimBackend
    from mcp_ros_bridge.catalog.loader import load_robot
    b = SimBackend(load_robot(os.path.join(REPO, 'config'))[0], speed=0.0)
    await b.start()
    try:
        print('speed m/s | height err mm | crossing->halt ms | halt->still ms | on after '
              'crossing mm | peak N guarded | plain 40 N guard peak N | ratio', flush=True)
        for speed in speeds:
            rows = [await one(b, *SPOTS[i % len(SPOTS)], speed) for i in range(repeats)]

            def med(key: str, rows: list = rows) -> float:
                return statistics.median(r[key] for r in rows)
            ratio = med('plain_peak_n') / max(med('peak_n'), 1e-9)
            print(f'{speed:9.3f} | {med("height_mm"):13.2f} | {med("reaction_ms"):17.1f} | '
                  f'{med("still_ms"):14.1f} | {med("after_mm"):20.2f} | {med("peak_n"):14.1f} | '
                  f'{med("plain_peak_n"):23.1f} | {ratio:.1f}x', flush=True)
            check(height=med('height_mm'), still=med('still_ms'), ratio=ratio)
    finally:
        await b.close()


def _physics(bridge, name: str) -> tuple:
    w = bridge.backend.world
    qpos = w.snapshot()[0]
    adr = w.model.jnt_qposadr[w.model.body_jntadr[w.model.body(name).id]]
    return qpos[adr:adr + 3].copy(), qpos[adr + 3:adr + 7].copy()


async def push(name: str, direction: str, distance: float) -> None:
    """Push ``name`` on a fresh scene; print what physics says it did."""
    import math
    from mcp import Client
    from mcp_ros_bridge.capabilities.guarded import DIRECTIONS
    from mcp_ros_bridge.server.app import build, ServeOptions
    bridge, backend = await build(ServeOptions(sim_speed=0, watch=False))
    try:
        p0, _ = _physics(bridge, name)
        async with Client(bridge.server, mode='legacy') as c:
            r = await c.call_tool('push_object', {'object': name, 'direction': direction,
                                                  'distance_m': distance})
        p1, q = _physics(bridge, name)
    finally:
        await backend.close()
    u = DIRECTIONS[direction]
    d = p1 - p0
    along, side = float(d[0] * u[0] + d[1] * u[1]), float(d[1] * u[0] - d[0] * u[1])
    tilt = math.degrees(math.acos(max(-1.0, min(1.0, 1 - 2 * float(q[1] ** 2 + q[2] ** 2)))))
    peak = float((r.structured_content or {}).get('push_force_n', math.nan))
    print(f'push {name} {direction} {distance * 1000:g} mm: moved {along * 1000:.1f} mm, '
          f'lateral {side * 1000:.1f} mm, tilt {tilt:.1f} deg, peak {peak:.1f} N '
          f'({(r.structured_content or {}).get("status")})', flush=True)
    check(moved=along, lateral=side, tilt=tilt, peak=peak)


def main() -> None:
    """Parse arguments and run the speeds."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument('--repeats', type=int, default=5)
    add_flag(parser)
    args = parser.parse_args()
    sys.path.insert(0, REPO)
    speeds = [0.02] if args.smoke else [0.01, 0.02, 0.05, 0.1]
    asyncio.run(run(speeds, 1 if args.smoke else args.repeats))
    pushes = [('cylinder', 'forward')] if args.smoke else [
        (n, d) for n in ('cylinder', 'box') for d in ('forward', 'backward', 'left', 'right')]
    for name, direction in pushes:
        asyncio.run(push(name, direction, 0.05))
    if args.smoke:
        done()


if __name__ == '__main__':
    main()
