"""
Benchmark: a guarded move down onto the table, from contact to still, and its impact per speed.

On the fast simulation (physics and the guard at 500 Hz), for each approach speed and each spot
of a grid over the table: from 5 cm above the table, ``move_until_contact`` (5 N threshold)
down until the fingertips touch. One row per speed: the contact height error against the table
top (z = 0), the time from the threshold crossing to the halt and from the halt to a still arm
(simulated ms), the force on the step that stopped it and the impact peak (the highest force,
the stop included: median and worst over the spots; and the largest rise of the peak above the
stop after it) against the 40 N contact-force cap, and beside it the same line driven with a
plain Cartesian move whose 40 N guard stops it. The row marked ``max`` is
``limits.max_guarded_speed_mps``, the schema's bound of ``speed_mps``: the fastest row whose
worst peak stays within 80 % of the cap (the last line names it).

Then ``push_object`` over MCP (in-memory client, a fresh scene each): each object pushed 5 cm
each way; the displacement along the push and sideways and the tilt are read from the physics
state (not the tool's claim), beside the peak force on the object the tool reports.

Usage: ``python bench/bench_guarded_move.py [--smoke]`` (smoke: the bound, two spots, one push).
"""

import argparse
import asyncio
import os
import statistics
import sys

from smoke import add_flag, check, done

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOWN = (0.0, 1.0, 0.0, 0.0)
SHARE = 0.8  # the bound's worst impact over the grid stays within this share of the 40 N cap
GRID = tuple((x, y) for x in (0.3, 0.4, 0.5, 0.6) for y in (-0.4, -0.3, -0.2, -0.1, 0.0))


async def one(b, x: float, y: float, speed: float) -> dict | str:
    """Run one guarded touch and one plain drive at ``speed``; why not, if the spot is blocked."""
    from mcp_ros_bridge.backends.port import (BackendError, CartesianGoal, GuardedGoal,
                                              MotionLimits, Pose, PoseGoal)

    def at(z: float) -> Pose:
        return Pose((x, y, z), DOWN, 'panda_link0')

    lim = MotionLimits(0.5, 0.5, 40.0, 0.25, 30.0)
    above = await b.move_to_pose(PoseGoal(at(0.05), lim))
    if not above.succeeded:
        return f'no way above it: {above.status}'
    guarded = MotionLimits(0.2, 0.2, 40.0, speed, 30.0, contact_threshold_n=5.0)
    try:
        r = await b.move_until_contact(GuardedGoal((0.0, 0.0, -1.0), 0.1, speed, 5.0, guarded))
    except BackendError as exc:
        return f'refused: {exc.code}'
    c, d = r.contact, r.details
    if r.status != 'CONTACT_ABORT' or abs(c['point_m']['z']) > 0.002:
        return (f'{r.status} at z {c["point_m"]["z"] * 1000:.1f} mm' if c else r.status) + \
            ' (not the table)'
    assert (await b.move_to_pose(PoseGoal(at(0.05), lim))).succeeded
    plain = await b.follow_cartesian_path(CartesianGoal(
        [at(-0.05)], MotionLimits(0.2, 0.2, 40.0, speed, 30.0), avoid_collisions=False))
    assert plain.status == 'CONTACT_ABORT', plain.message
    await b.follow_cartesian_path(CartesianGoal([at(0.05)], lim, avoid_collisions=False))
    return {'height_mm': abs(c['point_m']['z']) * 1000, 'reaction_ms': d['reaction_s'] * 1000,
            'still_ms': d.get('still_after_halt_s', 0.0) * 1000, 'stop_n': c['force_n'],
            'peak_n': r.peak_force_n, 'plain_peak_n': plain.peak_force_n}


async def run(speeds: list[float], spots: tuple, bound: float) -> None:
    """Measure every speed over the spots; print one line each."""
    from mcp_ros_bridge.backends.sim import SimBackend
    from mcp_ros_bridge.catalog.loader import load_robot
    b = SimBackend(load_robot(os.path.join(REPO, 'config'))[0], speed=0.0)
    await b.start()
    try:
        print('speed m/s  | spots | height err mm | crossing->halt ms | halt->still ms | '
              'stopped at N | peak N median | peak N worst | rise after stop N | over 40 N | '
              'plain 40 N guard peak N | ratio', flush=True)
        fits = []
        for speed in speeds:
            found = {(x, y): await one(b, x, y, speed) for x, y in spots}
            rows = [r for r in found.values() if isinstance(r, dict)]
            blocked = {spot: why for spot, why in found.items() if isinstance(why, str)}

            def med(key: str, rows: list = rows) -> float:
                return statistics.median(r[key] for r in rows)
            worst = max(r['peak_n'] for r in rows)
            over = sum(r['peak_n'] > 40.0 for r in rows)
            rise = max(0.0, *(r['peak_n'] - r['stop_n'] for r in rows))
            if worst <= SHARE * 40.0:
                fits.append(speed)
            mark = ' max' if speed == bound else '    '
            print(f'{speed:6.4f}{mark} | {len(rows):5d} | {med("height_mm"):13.2f} | '
                  f'{med("reaction_ms"):17.1f} | {med("still_ms"):14.1f} | '
                  f'{med("stop_n"):12.1f} | {med("peak_n"):13.1f} | {worst:12.1f} | '
                  f'{rise:17.1f} | {over:9d} | {med("plain_peak_n"):23.1f} | '
                  f'{med("plain_peak_n") / max(med("peak_n"), 1e-9):.1f}x', flush=True)
            for (x, y), why in blocked.items():
                print(f'           blocked spot x {x} y {y}: {why}', flush=True)
            check(height=med('height_mm'), still=med('still_ms'), peak=worst, rise=rise)
            if speed == bound:
                assert worst <= 40.0, f'the bound {bound} m/s let the impact reach {worst:.1f} N'
        print(f'fastest row with the worst peak <= {SHARE * 40:g} N ({SHARE:.0%} of the cap): '
              f'{max(fits) if fits else "none"} m/s; limits.max_guarded_speed_mps: {bound} m/s',
              flush=True)
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
    add_flag(parser)
    args = parser.parse_args()
    sys.path.insert(0, REPO)
    from mcp_ros_bridge.catalog.loader import load_robot
    bound = load_robot(os.path.join(REPO, 'config'))[0].limits.max_guarded_speed_mps
    rows = {bound / 4, bound / 2, bound, 0.0075, 0.01, 0.02, 0.04, 0.05, 0.1}
    speeds = [bound] if args.smoke else sorted(rows)
    asyncio.run(run(speeds, GRID[1:3] if args.smoke else GRID, bound))
    pushes = [('cylinder', 'forward')] if args.smoke else [
        (n, d) for n in ('cylinder', 'box') for d in ('forward', 'backward', 'left', 'right')]
    for name, direction in pushes:
        asyncio.run(push(name, direction, 0.05))
    if args.smoke:
        done()


if __name__ == '__main__':
    main()
