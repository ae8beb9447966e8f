"""
The operator console: how late its updates are, and what an open console costs the calls.

Usage: ``python3 bench/bench_console.py [--calls 300] [--motions 6] [--smoke]``
(smoke: 20 calls, 2 motions). Serves the real bridge over HTTP (simulation in
real time) and measures, in one run:

- ``get_joint_states`` over HTTP, p50/p99, with no console open, then with
  headless Chromium showing the console (sampling at 10 Hz): side by side, ratio;
- console update latency, event in the bridge -> rendered in the page (the
  event's send time against the page's clock after rendering; same machine),
  for motion progress and for the state samples, during motions over MCP.

Needs the system Chromium, chromium-driver and selenium (as test/browser).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import Any

from smoke import add_flag, check, done

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path[:0] = [REPO, os.path.join(REPO, 'test'), os.path.join(REPO, 'test', 'browser')]


def percentiles(values: list[float]) -> tuple[float, float]:
    """Return p50 and p99 of ``values``."""
    ordered = sorted(values)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def timed_calls(mcp: Any, calls: int) -> list[float]:
    """Return the wall time (ms) of each of ``calls`` get_joint_states calls."""
    times = []
    for _ in range(calls):
        began = time.perf_counter()
        mcp.call('get_joint_states', {})
        times.append((time.perf_counter() - began) * 1000.0)
    return times


def main() -> int:
    """Run the measurements and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--calls', type=int, default=300)
    parser.add_argument('--motions', type=int, default=6)
    add_flag(parser)
    args = parser.parse_args()
    calls, motions = (20, 2) if args.smoke else (args.calls, args.motions)
    import console_kit
    reason = console_kit.missing()
    if reason is not None:
        print(f'bench_console: cannot run: {reason}')
        return 1
    bridge = console_kit.Bridge()
    mcp = console_kit.Mcp(bridge.base)
    driver = None
    try:
        timed_calls(mcp, 5)  # warm-up
        bare = timed_calls(mcp, calls)
        driver = console_kit.browser()
        driver.get(bridge.base + '/console')
        from selenium.webdriver.support.ui import WebDriverWait
        WebDriverWait(driver, 60, 0.05).until(
            lambda d: d.execute_script('return (window.consoleView || {rendered: {}})'
                                       '.rendered.state > 5'))
        watched = timed_calls(mcp, calls)
        # From here on only live events count (the page got the latest state replayed).
        driver.execute_script('window.consoleView.latencyMs = {motion: [], state: []}')
        for n in range(motions):
            posture = 'ready' if n % 2 == 0 else 'home'
            mcp.call('move_arm_to_posture', {'posture': posture, 'velocity_scaling': 0.5})
        late = driver.execute_script('return window.consoleView.latencyMs')
    finally:
        if driver is not None:
            driver.quit()
        mcp.close()
        bridge.close()
    b50, b99 = percentiles(bare)
    w50, w99 = percentiles(watched)
    m50, m99 = percentiles(late['motion'])
    s50, s99 = percentiles(late['state'])
    print(f'get_joint_states over HTTP, no console     p50 {b50:7.2f} ms  p99 {b99:7.2f} ms')
    print(f'get_joint_states over HTTP, console open   p50 {w50:7.2f} ms  p99 {w99:7.2f} ms')
    print(f'open console cost on call latency          p50 {w50 / b50:.2f}x  p99 '
          f'{w99 / b99:.2f}x')
    print(f'console update latency, motion progress    p50 {m50:7.2f} ms  p99 {m99:7.2f} ms '
          f'({len(late["motion"])} events)')
    print(f'console update latency, state samples      p50 {s50:7.2f} ms  p99 {s99:7.2f} ms '
          f'({len(late["state"])} events)')
    if args.smoke:
        check(bare=bare, watched=watched, motion=late['motion'], state=late['state'])
        done()
    return 0


if __name__ == '__main__':
    sys.exit(main())
