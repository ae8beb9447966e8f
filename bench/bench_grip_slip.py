"""
Benchmark: how far a held object slips in the fingers while the arm moves at the speed cap.

Grasps each object at the requested force on the fast simulation, lifts it and moves back and
forth and up and down (0.15-0.3 m legs, velocity scaling 0.5, tip speed cap 0.25 m/s) for
``--seconds`` of simulated motion, then prints the slip the gripper state reports (the object's
centre in the hand frame since the grasp) after the lift, the largest it reached at any
step of the moves (watched by the stepping thread every 10 steps) and at the end.

Usage: ``python bench/bench_grip_slip.py [--seconds 30] [--force 15] [--smoke]``
(smoke: 1 s of moves). Goal: < 0.5 mm / 30 s.
"""

import argparse
import asyncio
import os
import sys
from typing import Any

from smoke import add_flag, check, done

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOWN = (0.0, 1.0, 0.0, 0.0)
GRASP_Z_M = {'box': 0.025, 'cylinder': 0.06}  # the hand clears the 0.1 m cylinder's top


def slip_watch() -> Any:
    """Return a never-ending physics task that keeps the largest slip since the grasp."""
    from mcp_ros_bridge.backends.sim.grip_watch import object_in_hand
    from mcp_ros_bridge.backends.sim.world import Task, World
    import numpy as np

    class SlipWatch(Task[None]):
        channel = 'bench-slip-watch'
        largest = 0.0

        def post(self, world: World) -> None:
            ref = world.grip_ref
            if ref is not None and world.steps % 10 == 0:
                slip = float(np.linalg.norm(object_in_hand(world, ref.body) - ref.offset))
                self.largest = max(self.largest, slip)
    return SlipWatch()


async def run(name: str, force_n: float, seconds: float) -> float:
    """Measure one object's slip; print one line."""
    from mcp_ros_bridge.backends.port import CartesianGoal, GraspGoal, MotionLimits, Pose, PoseGoal
    from mcp_ros_bridge.backends.sim import SimBackend
    from mcp_ros_bridge.catalog.loader import load_robot

    def at(x: float, y: float, z: float) -> Pose:
        return Pose((x, y, z), DOWN, 'panda_link0')

    cap = MotionLimits(0.5, 0.5, 40.0, 0.25, 30.0)
    b = SimBackend(load_robot(os.path.join(REPO, 'config'))[0], speed=0.0)
    await b.start()
    try:
        x, y, _ = (await b.object_pose(name, 'panda_link0')).position
        z = GRASP_Z_M[name]
        assert (await b.move_to_pose(PoseGoal(at(x, y, z + 0.15), cap))).succeeded
        r = await b.follow_cartesian_path(CartesianGoal([at(x, y, z)], cap))
        assert r.succeeded, r.message
        grip = await b.grasp(GraspGoal(force_n=force_n, speed_mps=0.05, timeout_s=10.0))
        assert grip.object_held, grip.message
        await b.follow_cartesian_path(CartesianGoal([at(x, y, z + 0.1)], cap))
        lift = (await b.gripper_state()).slip_m or 0.0
        watch = slip_watch()
        b.world.submit(watch)
        legs = [(0, 0.15, 0.1), (0, -0.15, 0.1), (0, 0, 0.25), (0, 0, 0.1)]
        moved, i = 0.0, 0
        while moved < seconds:
            dx, dy, dz = legs[i % 4]
            r = await b.follow_cartesian_path(CartesianGoal([at(x + dx, y + dy, z + dz)], cap))
            moved, i = moved + r.duration_s, i + 1
        state = await b.gripper_state()
        slip_mm = (state.slip_m or 0.0) * 1000
        largest_mm = max(watch.largest, lift) * 1000
        print(f'{name:9s} {force_n:4.0f} N: lift 10 cm {lift * 1000:.2f} mm; after {moved:.1f} s '
              f'of moves ({i} legs) {slip_mm:.2f} mm, {state.status}; maximum during the moves '
              f'{largest_mm:.2f} mm', flush=True)
        check(lift_slip=lift, slip=slip_mm, moved=moved, largest=largest_mm)
        assert state.status == 'HOLDING', f'{name} was lost: {state.status}'
        return largest_mm
    finally:
        await b.close()


def main() -> None:
    """Parse arguments and measure the box and the cylinder."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument('--seconds', type=float, default=30.0)
    parser.add_argument('--force', type=float, default=15.0)
    add_flag(parser)
    args = parser.parse_args()
    sys.path.insert(0, REPO)
    for name in ('box', 'cylinder'):
        asyncio.run(run(name, args.force, 1.0 if args.smoke else args.seconds))
    if args.smoke:
        done()


if __name__ == '__main__':
    main()
