"""
How long the arm moves on after the bridge dies: bounded horizon against whole trajectory.

Runs ``mcp-ros-bridge serve --backend ros`` over stdio in a subprocess against the
test fakes of move_group and the arm (over real DDS), starts a joint motion of
``--duration`` seconds, SIGKILLs the bridge 15 % into it and times from the kill
to a still arm on /joint_states, for ``ros.execution_horizon_s`` = the horizon
and = 0 (the whole trajectory handed over at once). Needs the generated
moveit_msgs (``.ci/build_ros_interfaces``).

    python3 bench/bench_ros_death.py [--runs 3] [--horizon 1.0] [--duration 6] [--smoke]
"""

import argparse
import os
import statistics
import sys
import tempfile

from smoke import add_flag, check, done

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)
sys.path.insert(0, os.path.join(REPO, 'test'))
sys.path.insert(0, os.path.join(REPO, 'test', 'ros'))


def measure(horizon_s: float, duration_s: float, runs: int) -> list[float]:
    """Return kill-to-still seconds of ``runs`` bridge deaths at ``horizon_s``."""
    import bridge_death
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as directory:
            run = bridge_death.kill_mid_motion(directory, horizon_s, duration_s)
        times.append(run['kill_to_still_s'])
    return times


def main() -> None:
    """Print median and max kill-to-still for the horizon and for the whole trajectory."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument('--runs', type=int, default=3)
    parser.add_argument('--horizon', type=float, default=1.0)
    parser.add_argument('--duration', type=float, default=6.0)
    add_flag(parser)  # one short run of each
    args = parser.parse_args()
    runs, duration = (1, 3.0) if args.smoke else (args.runs, args.duration)
    bounded = measure(args.horizon, duration, runs)
    whole = measure(0.0, duration, runs)
    for label, times in ((f'horizon {args.horizon:.1f} s', bounded), ('whole trajectory', whole)):
        print(f'{label:18s} kill -> still: median {statistics.median(times):.2f} s, '
              f'max {max(times):.2f} s over {runs} runs ({duration:.0f} s motion)')
    ratio = statistics.median(whole) / max(statistics.median(bounded), 1e-3)
    print(f'whole / bounded: {ratio:.1f}x longer on after the bridge died')
    assert max(bounded) < statistics.median(whole), (bounded, whole)
    if args.smoke:
        check(bounded=bounded, whole=whole)
        done()


if __name__ == '__main__':
    main()
