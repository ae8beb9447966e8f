"""
Recording on vs off: stop latency and the bridge's CPU during motions, side by side.

Usage: ``python3 bench/bench_recording.py [--rounds 10]`` or ``--smoke`` (seconds).
The same simulated bridge (real speed) runs a round of motions without
recording, then with ``--record`` (the recorder the serve path builds), the
rounds interleaved off/on so load changes hit both. Each round: a slow motion,
stop_arm once a fifth of it has run (at cruise speed, so the arm's own braking
time is the same in every round; stop latency: the call's answer, wall time),
and the motion back home (CPU: process CPU seconds per second over the whole
round, the sampler, the writer thread and MCAP encoding included). A third
state records without the scene image after each motion (the simulation renders
it in software: a cost per motion, not per sample). Prints medians and the
ratios to off.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from typing import Any

import anyio
from smoke import add_flag, check, done

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE)]
FAR = [1.2, -0.2, 0.0, -1.8, 0.0, 1.9, 0.785]
CRUISE = 0.2  # the fraction of the slow motion after which stop_arm is called
STATES = ('off', 'on', 'streams')  # streams: on, without the scene image after each motion
HOME = [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785]


async def one_round(client: Any) -> tuple[float, float]:
    """Return (stop latency s, CPU s per motion s) of one round."""
    moving = anyio.Event()

    async def progress(done: float, total: float | None, message: str | None) -> None:
        if done >= CRUISE:
            moving.set()

    cpu, wall = time.process_time(), time.perf_counter()
    async with anyio.create_task_group() as tg:
        async def slow() -> None:
            await client.call_tool('move_arm_joints', {'positions': FAR, 'velocity_scaling': 0.1},
                                   progress_callback=progress)
        tg.start_soon(slow)
        await moving.wait()
        began = time.perf_counter()
        stopped = await client.call_tool('stop_arm', {})
        latency = time.perf_counter() - began
        assert not stopped.is_error
    back = await client.call_tool('move_arm_joints', {'positions': HOME,
                                                      'velocity_scaling': 0.3})
    assert not back.is_error, back.content
    return latency, (time.process_time() - cpu) / (time.perf_counter() - wall)


async def run(rounds: int) -> dict[str, list[float]]:
    """Measure ``rounds`` interleaved rounds off and on."""
    from mcp import Client
    from mcp_ros_bridge.recording.session import Recording
    from mcp_ros_bridge.server.app import build, ServeOptions
    bridge, backend = await build(ServeOptions(sim_speed=1.0, watch=False,
                                               motion_rate_per_s=1000.0, motion_burst=1000))
    figures: dict[str, list[float]] = {f'{k} {s}': [] for k in ('stop', 'cpu') for s in STATES}
    with tempfile.TemporaryDirectory() as tmp:
        try:
            async with Client(bridge.server, mode='legacy') as client:
                for _ in range(rounds):
                    for state in STATES:
                        recording = None
                        if state != 'off':
                            recording = Recording(bridge, tmp, 100.0, images=state == 'on')
                            recording.start()
                        stop, cpu = await one_round(client)
                        figures[f'stop {state}'].append(stop)
                        figures[f'cpu {state}'].append(cpu)
                        if recording is not None:
                            await recording.close()
        finally:
            await backend.close()
    return figures


def main() -> int:
    """Print the figures side by side."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument('--rounds', type=int, default=10)
    add_flag(parser)
    args = parser.parse_args()
    figures = anyio.run(run, 1 if args.smoke else args.rounds)
    med = {k: statistics.median(v) for k, v in figures.items()}
    print(f"{'':<28}{'off':>9}{'on':>9}{'on/off':>9}{'streams':>9}{'str/off':>9}")
    for label, key, scale in (('stop_arm answered (ms)', 'stop', 1e3),
                              ('CPU per motion second (%)', 'cpu', 100)):
        off, on, streams = (med[f'{key} {s}'] for s in STATES)
        print(f'{label:<28}{off * scale:>9.1f}{on * scale:>9.1f}{on / off:>8.2f}x'
              f'{streams * scale:>9.1f}{streams / off:>8.2f}x')
    print(f'{len(figures["stop on"])} rounds each, medians; streams: recording on without '
          'the scene image after each motion')
    check(**{k.replace(' ', '_'): v for k, v in med.items()})
    if args.smoke:
        done()
    return 0


if __name__ == '__main__':
    sys.exit(main())
