"""
How fast a ROS stop halts a running Cartesian execution, confirmed from joint states.

Runs the bridge's ROS backend against the test fakes of move_group (ExecuteTrajectory
ignores cancel as MoveIt 2 does; only the execution "stop" event halts it) over real
rclpy, and times ``stop()`` and the force guard from the request to a confirmed still
arm. Needs only what ``.ci/setup`` installs: rclpy and the generated moveit_msgs
(``.ci/build_ros_interfaces``, which pip-installs the shape_msgs and trajectory_msgs they
use); not pytest.

    python3 bench/bench_ros_stop.py [--runs 10] [--smoke]   (smoke: one run of each)
"""

import argparse
import asyncio
import os
import statistics
import sys
import time

from smoke import add_flag, check, done

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)
sys.path.insert(0, os.path.join(REPO, 'test'))
sys.path.insert(0, os.path.join(REPO, 'test', 'ros'))


async def one(kind: str) -> float:
    """Return seconds from the stop request (or the contact) to a confirmed still arm."""
    from mcp_ros_bridge.backends.port import CartesianGoal
    import moveit_rig
    async with moveit_rig.rigged() as (backend, fake, pub, _):
        fake.duration_s = 20.0
        goal = CartesianGoal([moveit_rig.tcp_pose(backend.config, moveit_rig.REACHED)],
                             moveit_rig.limits(timeout_s=30.0))
        motion = asyncio.ensure_future(backend.follow_cartesian_path(goal))
        await asyncio.to_thread(fake.executing.wait, 10.0)
        await asyncio.sleep(0.2)  # moving at speed
        start = time.monotonic()
        if kind == 'stop':
            result = await backend.stop()
            took = time.monotonic() - start
            await motion
        else:
            pub.force = (0.0, 0.0, 80.0)
            result = await motion
            took = time.monotonic() - start
        assert result.status in ('STOPPED', 'CONTACT_ABORT'), result.message
        return took


async def main() -> None:
    """Time stop() and the force guard ``--runs`` times each; print median and max."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument('--runs', type=int, default=10)
    add_flag(parser)
    args = parser.parse_args()
    runs = 1 if args.smoke else args.runs
    for kind in ('stop', 'force guard'):
        times = [await one(kind) for _ in range(runs)]
        print(f'{kind:12s} to confirmed still: median {statistics.median(times) * 1000:.0f} ms, '
              f'max {max(times) * 1000:.0f} ms over {runs} runs', flush=True)
        if args.smoke:
            check(**{kind.replace(' ', '_'): times})
    if args.smoke:
        done()


if __name__ == '__main__':
    asyncio.run(main())
