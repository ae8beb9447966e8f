"""
compute_fk requests per ROS motion: the plan check's poses from the robot's URDF, or from MoveIt.

Runs ``move_arm_to_pose`` and then ``pick_object`` over MCP (in-memory client) on the
ROS backend against the test fakes of move_group, the gripper controller and the
object poses (test/ros/test_ros_pick_place.py's table) over real rclpy, twice: with
the fakes publishing the robot's URDF on ``robot_description`` (the bridge's local
FK answers) and without it (compute_fk answers every pose, as before the local FK).
Counts the compute_fk requests at the fake server and times each call. Needs rclpy,
the generated moveit_msgs and control_msgs (``.ci/build_ros_interfaces``) and pytest
(the table lives in a test module).

    python3 bench/bench_ros_fk.py [--runs 3] [--smoke]   (smoke: one run of each)
"""

import argparse
import asyncio
import os
import pathlib
import statistics
import sys
import tempfile
import time

from smoke import add_flag, check, done

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)
sys.path.insert(0, os.path.join(REPO, 'test'))
sys.path.insert(0, os.path.join(REPO, 'test', 'ros'))
MOVE = {'position': {'x': 0.45, 'y': 0.1, 'z': 0.3}}
PICK = {'object': 'box', 'force_n': 20.0}


async def one(describe: bool, run: int) -> tuple[int, int, float, float]:
    """Return (compute_fk requests of the move, of the pick, move s, pick s)."""
    from test_ros_pick_place import table
    with tempfile.TemporaryDirectory() as tmp:
        where = pathlib.Path(tmp) / f'{"urdf" if describe else "fk"}{run}'
        where.mkdir()
        async with table(where, 'legacy', describe) as (client, _, fake, _, _):
            counts, took = [len(fake.fk_requests)], []
            for tool, args in (('move_arm_to_pose', MOVE), ('pick_object', PICK)):
                start = time.monotonic()
                result = await client.call_tool(tool, args)
                took.append(time.monotonic() - start)
                assert not result.is_error, (tool, result.content)
                counts.append(len(fake.fk_requests))
    return counts[1] - counts[0], counts[2] - counts[1], took[0], took[1]


async def main() -> None:
    """Measure both ways ``--runs`` times; print the requests and the median call times."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument('--runs', type=int, default=3)
    add_flag(parser)
    args = parser.parse_args()
    runs = 1 if args.smoke else args.runs
    rows = {}
    for describe, label in ((False, 'compute_fk only'), (True, 'local FK (URDF)')):
        found = [await one(describe, k) for k in range(runs)]
        move, pick = max(f[0] for f in found), max(f[1] for f in found)
        move_s, pick_s = (statistics.median(f[i] for f in found) for i in (2, 3))
        rows[describe] = (move, pick, move_s, pick_s)
        print(f'{label:16s} compute_fk requests: move_arm_to_pose {move}, pick_object {pick}; '
              f'call median: move {move_s:.2f} s, pick {pick_s:.2f} s over {runs} runs',
              flush=True)
        if args.smoke:
            check(move=move, pick=pick, move_s=move_s, pick_s=pick_s)
    before, after = rows[False], rows[True]
    print(f'requests before / after: move {before[0]} / {after[0]}, pick {before[1]} / '
          f'{after[1]}; call time before / after: move {before[2] / after[2]:.2f}x, '
          f'pick {before[3] / after[3]:.2f}x', flush=True)
    if args.smoke:
        done()


if __name__ == '__main__':
    asyncio.run(main())
