"""
The approval card in the page tells what then runs: its duration and peak tip speed, as they ran.

The real bridge (simulation in real time, the console sampling at 50 Hz) with the
pose and joint motions and the pick marked ``requires_approval``. An MCP call waits;
the card's facts are read from the page and Approve is clicked there. The motion that
ran is then compared with the card, within 20 %: its duration from the call's result,
its peak fingertip speed measured, independently of the plan, from the fingertip
samples the page itself received (each stamped with the backend's time, not its
arrival), over windows of at least 80 ms so that sampler jitter is no speed. A pick's
card shows its chain: the number of arm motions and the object.
"""

from __future__ import annotations

from collections.abc import Iterator
import math
import re
from typing import Any

from bridge_kit import copy_config
from console_kit import Bridge, Mcp, page_errors, shot, text
import pytest
from test_console import open_console, until
from test_console_stop import UNLIMITED

pytestmark = pytest.mark.browser
APPROVED = ('move_to_pose', 'move_to_joints', 'pick_object')
RATE_HZ = '50'  # the console's sampler: the page gets a tip sample every 20 ms
WINDOW_S = 0.08  # a speed is a displacement over at least this long
GAP_S = 0.3  # a window longer than this (samples lost under load) is no speed
DOWN = {'roll': 180, 'pitch': 0, 'yaw': 0}
MOTIONS = [
    ('move_arm_to_pose', {'position': {'x': 0.35, 'y': 0.3, 'z': 0.25}, 'orientation': DOWN,
                          'velocity_scaling': 0.5}, 'target x=0.350 y=0.300 z=0.250 m'),
    ('move_arm_to_pose', {'position': {'x': 0.45, 'y': -0.15, 'z': 0.35},
                          'velocity_scaling': 0.05}, 'target x=0.450 y=-0.150 z=0.350 m'),
    ('move_arm_joints', {'positions': [-0.6, -0.3, 0.2, -2.0, 0.1, 1.9, 0.5],
                         'velocity_scaling': 0.1}, None)]
DURATION = re.compile(r'^duration ([\d.]+) s$')
SPEED = re.compile(r'^peak tip speed (\d+) mm/s$')


@pytest.fixture(scope='module')
def bridge(chromium: None, tmp_path_factory: Any) -> Iterator[Bridge]:
    """Serve the bridge with pose, joint moves and pick needing approval, sampled at 50 Hz."""
    edits = {f'    kind: {k}\n': f'    kind: {k}\n    requires_approval: true\n'
             for k in APPROVED}
    config = copy_config(str(tmp_path_factory.mktemp('truth') / 'cfg'), edits)
    served = Bridge('--config', config, '--console-rate-hz', RATE_HZ, *UNLIMITED)
    try:
        yield served
    finally:
        served.close()


def card_facts(driver: Any, tool: str) -> list[str]:
    """Wait for the waiting card of ``tool``; return its facts as the page shows them."""
    selector = f'#queue li.card[data-tool={tool}]:not(.gone) .fact'
    return list(until(driver, f"return [...document.querySelectorAll('{selector}')]"
                              '.map(e => e.textContent)'))


def fact(facts: list[str], pattern: re.Pattern[str]) -> float:
    """Return the number of the one fact that matches ``pattern``."""
    found = [float(m.group(1)) for m in map(pattern.match, facts) if m]
    assert len(found) == 1, facts
    return found[0]


def approve(driver: Any, tool: str) -> None:
    """Click Approve on the waiting card of ``tool``."""
    driver.find_element('css selector',
                        f'#queue li.card[data-tool={tool}]:not(.gone) button.approve').click()


def newest_stamp(driver: Any) -> float:
    """Return the stamp of the newest tip sample the page received."""
    return float(until(driver, 'const t = window.consoleView.tips;'
                               'return t.length && t[t.length - 1][0]'))


def samples_after(driver: Any, stamp: float) -> list[tuple[float, float, float, float]]:
    """Wait for five more samples; return the page's tip samples stamped after ``stamp``."""
    seen = int(driver.execute_script('return window.consoleView.rendered.state'))
    until(driver, f'return window.consoleView.rendered.state >= {seen + 5}')
    rows = driver.execute_script('return window.consoleView.tips')
    return [(float(r[0]), float(r[1]), float(r[2]), float(r[3])) for r in rows if r[0] > stamp]


def peak_speed(samples: list[tuple[float, float, float, float]]) -> float:
    """Return the peak tip speed (m/s): displacement over windows of WINDOW_S to GAP_S."""
    points = [s for i, s in enumerate(samples) if i == 0 or s[0] > samples[i - 1][0]]
    best, j = 0.0, 0
    for i, (t0, *p0) in enumerate(points):
        j = max(j, i + 1)
        while j < len(points) and points[j][0] - t0 < WINDOW_S:
            j += 1
        if j == len(points):
            break
        t1, *p1 = points[j]
        if t1 - t0 <= GAP_S:
            best = max(best, math.dist(p0, p1) / (t1 - t0))
    return best


@pytest.mark.parametrize(('tool', 'args', 'target'), MOTIONS,
                         ids=['pose-fast', 'pose-slow', 'joints'])
def test_the_card_quotes_the_motion_that_runs(bridge: Bridge, driver: Any, mcp: Mcp, tool: str,
                                              args: dict[str, Any], target: str | None) -> None:
    """Duration and peak tip speed on the card: within 20 % of the motion as it ran."""
    open_console(driver, bridge)
    call = mcp.start(tool, args)
    facts = card_facts(driver, tool)
    if target is not None:
        assert any(f.startswith(target) for f in facts), facts
    duration, speed = fact(facts, DURATION), fact(facts, SPEED) / 1000
    shot(driver, f"console-card-truth-{tool}-{args['velocity_scaling']}")
    before = newest_stamp(driver)
    approve(driver, tool)
    result = call.result(120)
    assert not result.get('isError'), text(result)
    ran_s = result['structuredContent']['duration_s']
    samples = samples_after(driver, before)
    assert samples[-1][0] - samples[0][0] >= ran_s, 'the page received the whole motion'
    measured = peak_speed(samples)
    print(f'{tool} {args.get("velocity_scaling")}: duration card {duration} s / ran {ran_s} s '
          f'= {duration / ran_s:.3f}; peak tip speed card {speed:.3f} / measured '
          f'{measured:.3f} m/s = {speed / measured:.3f} ({len(samples)} samples)')
    assert duration == pytest.approx(ran_s, rel=0.2), (facts, ran_s)
    assert speed == pytest.approx(measured, rel=0.2), (facts, measured)
    until(driver, 'return window.consoleView.waiting === 0')
    assert page_errors(driver) == []


def test_a_pick_card_shows_its_chain_and_the_object(bridge: Bridge, driver: Any,
                                                    mcp: Mcp) -> None:
    """pick_object: the card says 3 arm motions, their time, peak speed, target and the box."""
    open_console(driver, bridge)
    call = mcp.start('pick_object', {'object': 'box'})
    facts = card_facts(driver, 'pick_object')
    assert 'motions 3' in facts and 'object box' in facts, facts
    assert any(f.startswith('target x=') for f in facts), facts
    assert fact(facts, DURATION) > 0 and fact(facts, SPEED) > 0, facts
    driver.execute_script("document.querySelector('#queue li.card[data-tool=pick_object]"
                          ":not(.gone)').scrollIntoView({block: 'center'})")
    shot(driver, 'console-card-truth')
    approve(driver, 'pick_object')
    result = call.result(180)
    assert not result.get('isError'), text(result)
    assert result['structuredContent']['status'] == 'HOLDING', result['structuredContent']
    until(driver, 'return window.consoleView.waiting === 0')
    assert page_errors(driver) == []
