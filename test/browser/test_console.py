"""
The operator console in a real browser against the real bridge (simulation in real time).

Each promise is checked where it is kept: the page (rendered DOM, console log),
MCP calls over HTTP (results, error codes), the simulation's joint velocities,
and raw HTTP for the forged requests. Screenshots go to out/console/.
"""

from __future__ import annotations

import json
import math
from typing import Any

from console_kit import Bridge, code, console_errors, Mcp, shot, text, TOKEN
import httpx2
import pytest

pytestmark = pytest.mark.browser
ARM = 7  # the Panda's arm joints come first in get_joint_states
WAITING = '#queue li.card:not(.gone)[data-tool=move_arm_to_pose]'  # a card one can decide
TARGET = {'position': {'x': 0.4, 'y': 0.1, 'z': 0.35}}


def until(driver: Any, script: str, timeout: float = 90.0) -> Any:
    """Wait (bounded) until ``script`` returns a truthy value in the page; return it."""
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(
        lambda d: d.execute_script(script))


def open_console(driver: Any, bridge: Bridge, token: bool = True) -> None:
    """Load the console (with the printed secret when ``token``) and wait for live state."""
    driver.get(bridge.secret_url if token else bridge.base + '/console')
    until(driver, 'return (window.consoleView || {rendered: {}}).rendered.state > 0')
    if token:
        until(driver, 'return window.consoleView.operator')
        assert '#' not in driver.current_url, 'the secret left the address bar'


def enter_secret(driver: Any, secret: str) -> None:
    """Type ``secret`` into the page's field and submit it."""
    driver.find_element('id', 'token').send_keys(secret)
    driver.find_element('css selector', '#token-form button').click()


def velocities(mcp: Mcp) -> list[float]:
    """Return the arm's joint velocities as the simulation's physics has them now."""
    state = mcp.call('get_joint_states', {})['structuredContent']
    return [j['velocity'] for j in state['joints']][:ARM] if 'joints' in state else \
        list(state['velocities_rad_s'])[:ARM]


def position(mcp: Mcp) -> list[float]:
    """Return where the tip is, in m."""
    found = mcp.call('get_end_effector_pose', {})['structuredContent']['pose']['position_m']
    return list(found.values()) if isinstance(found, dict) else list(found)


def test_page_loads_live_without_console_errors(bridge: Bridge, driver: Any) -> None:
    """The page renders live state and the operator controls, with no console error."""
    open_console(driver, bridge)
    assert driver.find_element('id', 'stop').is_enabled()
    rows = driver.find_elements('css selector', '#joints tr')
    assert len(rows) >= ARM, 'joint states rendered'
    assert 'live' in driver.find_element('id', 'live').get_attribute('class')
    driver.find_element('id', 'capture').click()  # a scene image on request
    until(driver, "return !document.getElementById('scene').hidden && "
                  "document.getElementById('scene').naturalWidth > 0")
    assert console_errors(driver) == []
    driver.execute_script("console.error('probe')")  # the check sees an error when there is one
    assert any('probe' in e for e in console_errors(driver))


def test_motion_shows_progress_live(bridge: Bridge, driver: Any, mcp: Mcp) -> None:
    """A motion started over MCP shows its progress in the page while it runs."""
    open_console(driver, bridge)
    call = mcp.start('move_arm_to_posture', {'posture': 'ready', 'velocity_scaling': 0.2})
    fraction = until(driver, "const p = document.getElementById('motion-progress').value;"
                             'return p > 0.05 && p < 0.95 ? p : 0')
    assert not call.done(), 'progress was shown while the motion ran'
    assert 'move_arm_to_posture' in driver.find_element('id', 'motion-tool').text
    shot(driver, 'console-during-motion')
    result = call.result(120)
    assert not result.get('isError'), text(result)
    assert 0.05 < fraction < 0.95
    until(driver, "return !document.getElementById('scene').hidden")  # image after the motion
    shot(driver, 'console-after-motion')
    assert console_errors(driver) == []


def test_stop_holds_until_release(bridge: Bridge, driver: Any, mcp: Mcp) -> None:
    """STOP mid-motion stops the arm; motions are OPERATOR_HOLD until release is clicked."""
    open_console(driver, bridge)
    call = mcp.start('move_arm_to_posture', {'posture': 'home', 'velocity_scaling': 0.1})
    until(driver, "return document.getElementById('motion-progress').value > 0.05")
    assert not call.done()
    shot(driver, 'console-before-stop')
    driver.find_element('id', 'stop').click()
    stopped = call.result(60)
    assert code(stopped) == 'STOPPED', text(stopped)
    assert max(abs(v) for v in velocities(mcp)) < 0.02, 'the arm is still (physics)'
    # The bridge's own stop bound: the audit line says the arm was released within it.
    until(driver, "return [...document.querySelectorAll('#audit li')]"
                  ".some(li => li.textContent.includes('console_stop ok'))")
    until(driver, "return !document.getElementById('held').hidden")
    refused = mcp.call('move_arm_to_posture', {'posture': 'home'})
    assert code(refused) == 'OPERATOR_HOLD', text(refused)
    assert 'OPERATOR_HOLD' in text(refused) and 'release' in text(refused)
    shot(driver, 'console-held')
    driver.find_element('id', 'release').click()
    until(driver, "return document.getElementById('held').hidden")
    moved = mcp.call('move_arm_to_posture', {'posture': 'home'})
    assert not moved.get('isError'), text(moved)
    assert console_errors(driver) == []


def _waiting_button(driver: Any, which: str) -> Any:
    until(driver, f"return document.querySelector('{WAITING} "
                  f"button.{which}')")
    return driver.find_element('css selector', f'{WAITING} '
                                               f'button.{which}')


def test_approved_in_the_page_then_runs(bridge: Bridge, driver: Any, mcp: Mcp) -> None:
    """A call needing approval waits for the console; approved there, it runs."""
    open_console(driver, bridge)
    call = mcp.start('move_arm_to_pose', TARGET)
    button = _waiting_button(driver, 'approve')
    assert not call.done(), 'the call waits for the person'
    shot(driver, 'console-approval-waiting')
    button.click()
    result = call.result(120)
    assert not result.get('isError'), text(result)
    reached = position(mcp)
    assert math.dist(reached, [0.4, 0.1, 0.35]) < 0.01
    until(driver, "return [...document.querySelectorAll('#audit li')].some(li => "
                  "li.textContent.includes('approved [operator console') && "
                  "li.textContent.includes('operator secret)]'))")


def test_denied_in_the_page_moves_nothing(bridge: Bridge, driver: Any, mcp: Mcp) -> None:
    """Denied in the console: NOT_APPROVED, and the arm has not moved."""
    open_console(driver, bridge)
    before = position(mcp)
    call = mcp.start('move_arm_to_pose', {'position': {'x': 0.45, 'y': -0.1, 'z': 0.3}})
    _waiting_button(driver, 'deny').click()
    result = call.result(120)
    assert code(result) == 'NOT_APPROVED', text(result)
    assert 'operator console' in text(result)
    assert math.dist(position(mcp), before) < 1e-3, 'nothing moved'
    until(driver, "return [...document.querySelectorAll('#audit li')].some(li => "
                  "li.textContent.includes('denied [operator console'))")
    assert console_errors(driver) == []


def test_read_only_without_token_and_forged_posts_refused(bridge: Bridge, driver: Any,
                                                          mcp: Mcp) -> None:
    """Without the secret the page only shows; forged POSTs and GETs change nothing."""
    open_console(driver, bridge, token=False)
    assert driver.find_elements('css selector', '#audit li') == [], 'no audit trail for viewers'
    assert driver.find_element('id', 'scene').get_attribute('hidden') is not None, 'no camera'
    enter_secret(driver, TOKEN)  # the MCP token is not the operator's secret
    until(driver, 'return window.consoleView.secretRefused')
    assert 'Wrong operator secret' in driver.find_element('id', 'secret-refused').text
    assert not driver.execute_script('return window.consoleView.operator')
    assert not driver.find_element('id', 'stop').is_enabled()
    assert not driver.find_element('id', 'release').is_enabled()
    assert driver.find_element('id', 'token-form').is_displayed()
    shot(driver, 'console-read-only')
    driver.set_window_size(390, 844)  # a phone
    until(driver, 'return window.innerWidth <= 400')
    assert driver.execute_script('return document.documentElement.scrollWidth <= '
                                 'window.innerWidth + 1'), 'no sideways scrolling on a phone'
    shot(driver, 'console-phone')
    driver.set_window_size(900, 1600)
    url = bridge.base + '/console/stop'
    json_type = {'Content-Type': 'application/json'}
    with httpx2.Client(timeout=30) as http:
        forged = http.post(url, content=b'{}', headers={
            **json_type, 'Origin': 'http://evil.example'})
        no_token = http.post(url, content=b'{}', headers={**json_type, 'Origin': bridge.base})
        wrong_token = http.post(url, content=b'{}', headers={
            **json_type, 'Origin': bridge.base, 'Authorization': 'Bearer nope'})
        mcp_token = http.post(url, content=b'{}', headers={
            **json_type, 'Origin': bridge.base, 'Authorization': f'Bearer {TOKEN}'})
        no_origin = http.post(url, content=b'{}', headers={
            **json_type, 'Authorization': f'Bearer {bridge.secret}'})
        forged_with_secret = http.post(url, content=b'{}', headers={
            **json_type, 'Origin': 'http://evil.example',
            'Authorization': f'Bearer {bridge.secret}'})
        image = http.get(bridge.base + '/console/image',
                         headers={'Authorization': f'Bearer {TOKEN}'})
        by_get = http.get(url)
        rebound = http.get(bridge.base + '/console', headers={'Host': 'evil.example'})
        page = http.get(bridge.base + '/console')
    assert forged.status_code == 403 and no_origin.status_code == 403
    assert forged_with_secret.status_code == 403
    assert no_token.status_code == 401 and wrong_token.status_code == 401
    assert mcp_token.status_code == 401 and image.status_code == 401, 'the agent cannot act'
    assert 'operator secret' in json.loads(no_token.text)['error']
    assert 'wrong operator secret' in json.loads(mcp_token.text)['error']
    assert by_get.status_code == 405 and rebound.status_code == 421, 'Host checked as on /mcp'
    for response in (forged, no_token, by_get, page):
        csp = response.headers['content-security-policy']
        assert "script-src 'self'" in csp and 'unsafe-inline' not in csp
    assert driver.find_element('id', 'held').get_attribute('hidden') is not None, 'no hold'
    enter_secret(driver, bridge.secret)  # the field works as the URL does
    until(driver, 'return window.consoleView.operator')
    assert driver.find_element('id', 'stop').is_enabled()
    moved = mcp.call('move_arm_to_posture', {'posture': 'ready'})
    assert not moved.get('isError'), text(moved)
    assert console_errors(driver) == []


def test_the_agent_side_cannot_approve_or_release(bridge: Bridge, driver: Any, mcp: Mcp) -> None:
    """With the MCP token or a forged Origin, a waiting call stays waiting and a hold stays."""
    open_console(driver, bridge)
    call = mcp.start('move_arm_to_pose', {'position': {'x': 0.42, 'y': 0.05, 'z': 0.3}})
    _waiting_button(driver, 'approve')
    approval = driver.execute_script(
        'return document.querySelector(arguments[0]).dataset.id', WAITING)
    body = json.dumps({'id': approval, 'approve': True}).encode()
    json_type = {'Content-Type': 'application/json'}
    with httpx2.Client(timeout=30) as http:
        as_agent = http.post(bridge.base + '/console/decide', content=body, headers={
            **json_type, 'Origin': bridge.base, 'Authorization': f'Bearer {TOKEN}'})
        forged = http.post(bridge.base + '/console/decide', content=body, headers={
            **json_type, 'Origin': 'http://evil.example', 'Authorization': f'Bearer {TOKEN}'})
        assert as_agent.status_code == 401 and forged.status_code == 403
        assert not call.done(), 'still waiting for the person'
        _waiting_button(driver, 'deny').click()
        assert code(call.result(120)) == 'NOT_APPROVED'
        driver.find_element('id', 'stop').click()
        until(driver, "return !document.getElementById('held').hidden")
        release = http.post(bridge.base + '/console/release', content=b'{}', headers={
            **json_type, 'Origin': bridge.base, 'Authorization': f'Bearer {TOKEN}'})
    assert release.status_code == 401
    refused = mcp.call('move_arm_to_posture', {'posture': 'ready'})
    assert code(refused) == 'OPERATOR_HOLD', 'the hold stays'
    driver.find_element('id', 'release').click()
    until(driver, "return document.getElementById('held').hidden")
    assert console_errors(driver) == []
