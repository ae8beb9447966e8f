"""
The console's STOP says what it knows, against a real bridge that answers, hangs or dies.

A hung bridge is the server process stopped with SIGSTOP (it holds its sockets
and answers nothing); a dead one is killed. The page must never claim a stop it
has not seen confirmed, and must not throw.
"""

from __future__ import annotations

from collections.abc import Iterator
import os
import signal
import time
from typing import Any

from bridge_kit import copy_config
from console_kit import Bridge, code, Mcp, page_errors, shot, text
import pytest
from test_console import open_console, until

pytestmark = pytest.mark.browser
STATUS = "return (document.getElementById('stop-status') || {}).textContent || ''"
SLOW = {'posture': 'home', 'velocity_scaling': 0.1}
UNLIMITED = ('--motion-rate-per-s', '1000', '--motion-burst', '1000')


@pytest.fixture(scope='module')
def bridge(chromium: None, tmp_path_factory: Any) -> Iterator[Bridge]:
    """Serve the bridge over HTTP (motions one after another are not rate limited)."""
    served = Bridge('--config', copy_config(str(tmp_path_factory.mktemp('stop') / 'cfg')),
                    *UNLIMITED)
    try:
        yield served
    finally:
        served.close()


def _start_slow(driver: Any, mcp: Mcp) -> Any:
    """Move to 'ready', then start a slow motion home; return its future once it shows."""
    ready = mcp.call('move_arm_to_posture', {'posture': 'ready'})
    assert not ready.get('isError'), text(ready)
    after = time.time()  # the banner's start of this motion, not the last one's progress
    call = mcp.start('move_arm_to_posture', SLOW)
    until(driver, 'const b = window.consoleView.banner || {};'
                  f"return b.state === 'moving' && b.started >= {after - 0.05}")
    until(driver, "return document.getElementById('motion-progress').value > 0.05")
    assert not call.done(), 'the motion still runs'
    return call


def _status_is(driver: Any, kind: str) -> str:
    return str(until(driver, f"const s = document.getElementById('stop-status');"
                             f"return !s.hidden && s.classList.contains('{kind}') && "
                             f's.textContent'))


def test_stop_confirms_itself(bridge: Bridge, driver: Any, mcp: Mcp) -> None:
    """A live bridge: STOPPING at once, then STOPPED with the time the arm took to be still."""
    open_console(driver, bridge)
    assert 'not an emergency stop' in driver.find_element('css selector', '.not-estop').text
    call = _start_slow(driver, mcp)
    driver.find_element('id', 'stop').click()
    assert driver.execute_script(STATUS), 'the click shows at once that a stop is under way'
    stopped = _status_is(driver, 'stopped')
    assert stopped.startswith('STOPPED') and ' s ' in stopped
    assert code(call.result(60)) == 'STOPPED'
    shot(driver, 'console-stopped')
    driver.find_element('id', 'release').click()
    until(driver, "return document.getElementById('stop-status').hidden")
    assert page_errors(driver) == []


def test_stop_on_a_hung_bridge_is_not_confirmed(bridge: Bridge, driver: Any,
                                                mcp: Mcp) -> None:
    """SIGSTOP: NOT CONFIRMED (use the hardware stop), data greyed; after SIGCONT, STOPPED."""
    open_console(driver, bridge)
    call = _start_slow(driver, mcp)
    os.kill(bridge.process.pid, signal.SIGSTOP)
    try:
        driver.find_element('id', 'stop').click()
        unconfirmed = _status_is(driver, 'unconfirmed')
        assert 'STOP NOT CONFIRMED' in unconfirmed and 'hardware emergency stop' in unconfirmed
        until(driver, "return document.body.classList.contains('stale')")
        assert 'NOT LIVE' in driver.find_element('id', 'live').text
        assert driver.execute_script(
            "return getComputedStyle(document.querySelector('main')).opacity") < '1'
        shot(driver, 'console-stop-hung-bridge')
    finally:
        os.kill(bridge.process.pid, signal.SIGCONT)
    late = _status_is(driver, 'stopped')  # the request was only delayed: it stops the arm
    assert 'confirmed late' in late, late
    assert code(call.result(60)) == 'STOPPED', text(call.result(60))
    until(driver, "return !document.body.classList.contains('stale')")
    driver.find_element('id', 'release').click()
    until(driver, "return document.getElementById('held').hidden")
    assert page_errors(driver) == []


def test_stop_on_a_dead_bridge_then_the_hold_survives_a_restart(
        driver: Any, tmp_path: Any) -> None:
    """
    Killed: STOP NOT CONFIRMED, no page error. Restarted on the same state: still held.

    The hold a person set before the kill refuses the agent's next motion over
    MCP until a person releases it on the restarted bridge's page.
    """
    flags = ('--config', copy_config(str(tmp_path / 'cfg')), '--state-dir',
             str(tmp_path / 'state'), *UNLIMITED)
    first = Bridge(*flags)
    try:
        open_console(driver, first)
        driver.find_element('id', 'stop').click()
        _status_is(driver, 'stopped')
        until(driver, "return !document.getElementById('held').hidden")
    finally:
        first.close()  # SIGKILL: the bridge is gone
    until(driver, "return document.body.classList.contains('stale')")
    driver.find_element('id', 'stop').click()
    unconfirmed = _status_is(driver, 'unconfirmed')
    assert 'STOP NOT CONFIRMED' in unconfirmed, unconfirmed
    shot(driver, 'console-stop-dead-bridge')
    assert page_errors(driver) == []
    second = Bridge(*flags)
    mcp = Mcp(second.base)
    try:
        assert any('HELD' in line and 'restart' in line for line in second.lines), \
            'the restarted bridge says it starts held'
        refused = mcp.call('move_arm_to_posture', {'posture': 'ready'})
        assert code(refused) == 'OPERATOR_HOLD', text(refused)
        open_console(driver, second)
        held = until(driver, "const h = document.getElementById('held');"
                             'return !h.hidden && h.textContent')
        assert 'operator console' in held, held
        shot(driver, 'console-held-after-restart')
        driver.find_element('id', 'release').click()
        until(driver, "return document.getElementById('held').hidden")
        moved = mcp.call('move_arm_to_posture', {'posture': 'ready'})
        assert not moved.get('isError'), text(moved)
        assert page_errors(driver) == []
    finally:
        mcp.close()
        second.close()
    third = Bridge(*flags)  # released is released: the next start is not held
    try:
        assert not any('HELD' in line for line in third.lines)
    finally:
        third.close()
