"""
The state banner, the force view, the lease and the sound in the real page, real bridge.

The banner is checked against what the bridge does (a motion over MCP, a card
waiting, the person's STOP); the force view against ``read_ft_sensor`` at rest
and against a real table contact (move_until_contact at the fastest guarded
speed, its peak from the result); the lease against MCP refusals and raw HTTP
(the event stream, forged and stale lease requests). Screenshots go to out/console/.
"""

from __future__ import annotations

from collections.abc import Iterator
import json
import re
from typing import Any

from bridge_kit import APPROVAL_EDIT, copy_config
from console_kit import Bridge, code, Mcp, page_errors, shot, text, TOKEN
import httpx2
import pytest
from test_console import open_console, until
from test_console_stop import UNLIMITED

pytestmark = pytest.mark.browser
CARD = '#queue li.card[data-tool=move_arm_to_pose]:not(.gone)'
ABOVE_TABLE = {'position': {'x': 0.4, 'y': -0.2, 'z': 0.05}}  # the tip 5 cm over the table


@pytest.fixture(scope='module')
def bridge(chromium: None, tmp_path_factory: Any) -> Iterator[Bridge]:
    """Serve the bridge with move_arm_to_pose needing approval, no rate limit."""
    config = copy_config(str(tmp_path_factory.mktemp('banner') / 'cfg'), APPROVAL_EDIT)
    served = Bridge('--config', config, *UNLIMITED)
    try:
        yield served
    finally:
        served.close()


def banner(driver: Any) -> dict[str, Any]:
    """Return what the banner shows now (state word, text, last motion, faults)."""
    return dict(driver.execute_script('return window.consoleView.banner || {}'))


def banner_is(driver: Any, state: str) -> None:
    """Wait until the banner shows ``state``."""
    until(driver, f"return (window.consoleView.banner || {{}}).state === '{state}'")


def events(bridge: Bridge, kind: str, test: Any, secret: bool = True) -> dict[str, Any]:
    """Read the console's event stream over raw HTTP until a ``kind`` event passes ``test``."""
    headers = {'Authorization': f'Bearer {bridge.secret}'} if secret else {}
    with httpx2.Client(timeout=60) as http, \
            http.stream('GET', bridge.base + '/console/events', headers=headers) as r:
        assert r.status_code == 200
        current = ''
        for line in r.iter_lines():
            if line.startswith('event: '):
                current = line[7:]
            elif line.startswith('data: ') and current == kind:
                data = json.loads(line[6:])
                if test(data):
                    return dict(data)
    raise AssertionError(f'the stream ended before a matching {kind} event')


def test_banner_waiting_moving_and_how_it_ended_with_a_chime(bridge: Bridge, driver: Any,
                                                             mcp: Mcp) -> None:
    """IDLE; a card: WAITING FOR YOU (1) and a chime; approved: MOVING the tool; then ended OK."""
    open_console(driver, bridge)
    banner_is(driver, 'idle')
    assert banner(driver)['text'] == 'IDLE'
    shot(driver, 'banner-idle')
    driver.find_element('id', 'banner').click()  # a gesture: the page may now play sound
    before = driver.execute_script('return window.consoleView.sound.played')
    call = mcp.start('move_arm_to_pose', ABOVE_TABLE)
    banner_is(driver, 'waiting')
    assert banner(driver)['text'] == 'WAITING FOR YOU (1)'
    until(driver, f'return window.consoleView.sound.played === {before + 1}')
    shot(driver, 'banner-waiting')
    driver.find_element('css selector', f'{CARD} button.approve').click()
    banner_is(driver, 'moving')
    assert banner(driver)['text'] == 'MOVING: move_arm_to_pose'
    assert not call.done(), 'the banner said MOVING while it moved'
    until(driver, "return document.getElementById('banner-detail').textContent.includes('%')")
    shot(driver, 'banner-moving')
    result = call.result(120)
    assert not result.get('isError'), text(result)
    until(driver, "return (window.consoleView.banner.last || {}).tool === 'move_arm_to_pose'")
    banner_is(driver, 'idle')
    assert 'Last motion: move_arm_to_pose ended OK' in \
        driver.find_element('id', 'banner-last').text
    driver.find_element('id', 'sound').click()  # muted: the next card is silent
    played = driver.execute_script('return window.consoleView.sound.played')
    denied = mcp.start('move_arm_to_pose', {'position': {'x': 0.42, 'y': 0.0, 'z': 0.3}})
    banner_is(driver, 'waiting')
    driver.find_element('css selector', f'{CARD} button.deny').click()
    assert code(denied.result(120)) == 'NOT_APPROVED'
    until(driver, "return (window.consoleView.banner.last || {}).code === 'NOT_APPROVED'")
    assert driver.execute_script('return window.consoleView.sound.played') == played
    assert 'ended NOT_APPROVED' in driver.find_element('id', 'banner-last').text
    driver.find_element('id', 'sound').click()
    assert page_errors(driver) == []


def test_force_view_matches_read_ft_sensor_and_shows_a_table_contact(bridge: Bridge,
                                                                     driver: Any,
                                                                     mcp: Mcp) -> None:
    """At rest the plotted |F| brackets read_ft_sensor's; a 20 N+ contact shows its peak."""
    open_console(driver, bridge)
    until(driver, 'return (window.consoleView.force || {}).newest')
    at_rest = mcp.call('read_ft_sensor', {'filter': 'raw'})['structuredContent']
    newest = driver.execute_script('return window.consoleView.force.newest')
    view = driver.execute_script('return window.consoleView.force')
    assert view['netOf'] == 'gripper_weight' and view['limit'] == 40.0
    assert view['axis'].startswith('N (net of gripper weight')
    assert 0 in view['ticks'] and max(view['ticks']) >= 40 and view['scaleTop'] >= 50.0
    assert at_rest['compensation'] == 'gripper_gravity'
    assert newest[0] - 0.5 <= at_rest['force_magnitude_n'] <= newest[1] + 0.5, \
        (newest, at_rest['force_magnitude_n'])
    assert newest[1] < 3.0, 'net of the hand weight (the old plot showed ~7 N at rest)'
    touch = mcp.call('move_until_contact', {'direction': 'down', 'max_distance_m': 0.1,
                                            'speed_mps': 0.03})
    s = touch['structuredContent']
    assert s['status'] == 'CONTACT' and s['peak_force_n'] >= 15.0, s
    until(driver, 'const m = (window.consoleView.force || {}).motion || {};'
                  "return m.tool === 'move_until_contact' && !m.running")
    view = driver.execute_script('return window.consoleView.force')
    assert view['motion']['peak_n'] >= 0.8 * s['peak_force_n'], (view['motion'], s)
    assert view['plottedMax'] >= 0.8 * s['peak_force_n'], 'the contact is drawn'
    assert 'peak |F|' in driver.find_element('id', 'force-detail').text
    shot(driver, 'force-contact')
    up = mcp.call('move_arm_to_posture', {'posture': 'ready'})
    assert not up.get('isError'), text(up)
    assert page_errors(driver) == []


def from_ready(mcp: Mcp) -> None:
    """Move to the ready posture: a slow move home from there is long, whatever came before."""
    moved = mcp.call('move_arm_to_posture', {'posture': 'ready'})
    assert not moved.get('isError'), text(moved)


def test_the_banner_says_held_by_whom_and_the_stop_ended_the_motion(bridge: Bridge,
                                                                    driver: Any,
                                                                    mcp: Mcp) -> None:
    """STOP mid-motion: HELD since … by the operator console, last motion ended STOPPED."""
    open_console(driver, bridge)
    from_ready(mcp)
    call = mcp.start('move_arm_to_posture', {'posture': 'home', 'velocity_scaling': 0.05})
    banner_is(driver, 'moving')
    driver.find_element('id', 'stop').click()
    assert code(call.result(60)) == 'STOPPED'
    until(driver, "return (window.consoleView.banner.last || {}).code === 'STOPPED'")
    shown = banner(driver)
    assert shown['state'] == 'held' and shown['text'].startswith('HELD since ')
    assert 'by operator console' in shown['text']
    over_http = events(bridge, 'banner', lambda d: True, secret=False)
    assert over_http['state'] == 'held' and over_http['last']['code'] == 'STOPPED'
    shot(driver, 'banner-held')
    driver.find_element('id', 'release').click()
    banner_is(driver, 'idle')
    assert page_errors(driver) == []


def test_scene_refreshes_during_a_motion_and_joints_show_units_and_limits(
        bridge: Bridge, driver: Any, mcp: Mcp) -> None:
    """While a slow motion runs the scene image is new each second, with its time; stop_arm."""
    open_console(driver, bridge)
    from_ready(mcp)
    call = mcp.start('move_arm_to_posture', {'posture': 'home', 'velocity_scaling': 0.05})
    try:
        banner_is(driver, 'moving')
        first = until(driver, 'return (window.consoleView.image || {}).version')
        until(driver, f'return window.consoleView.image.version >= {first + 2}')
        assert banner(driver)['state'] == 'moving' and not call.done(), 'new images mid-motion'
        assert 'taken at ' in driver.find_element('id', 'scene-time').text
        bars = driver.execute_script(
            "return [...document.querySelectorAll('#joints meter')].map("
            'm => [m.min, m.value, m.max])')
        assert len(bars) == 7 and all(lo <= v <= hi for lo, v, hi in bars), bars
        # read in one script: the table is redrawn with every joint sample
        row = driver.execute_script(
            "return document.querySelector('#joints tbody tr').innerText")
        assert ' rad' in row, row
        shot(driver, 'scene-during-motion')
    except BaseException:
        mcp.call('stop_arm', {})  # the next test starts from a still arm
        raise
    stopped = mcp.call('stop_arm', {})
    assert not stopped.get('isError'), text(stopped)
    assert code(call.result(60)) == 'STOPPED'
    until(driver, "return (window.consoleView.banner.last || {}).code === 'STOPPED'")
    banner_is(driver, 'idle')  # the agent's stop does not hold the arm
    assert 'ended STOPPED' in driver.find_element('id', 'banner-last').text
    assert page_errors(driver) == []


def test_lease_holder_shown_taken_over_and_ended_from_the_page(bridge: Bridge, driver: Any,
                                                               mcp: Mcp) -> None:
    """The page names the holder; Take over refuses every agent; End lease frees the arm."""
    open_console(driver, bridge)
    other = Mcp(bridge.base, 'agent-b')
    try:
        moved = mcp.call('move_arm_to_posture', {'posture': 'ready'})
        assert not moved.get('isError'), text(moved)
        until(driver, "return window.consoleView.lease === 'browser-test'")
        assert 'held by browser-test since' in driver.find_element('id', 'lease-text').text
        streamed = events(bridge, 'banner', lambda d: d['lease'])['lease']
        assert streamed['client'] == 'browser-test' and 0 < streamed['expires_in_s'] <= 60
        refused = other.call('move_arm_to_posture', {'posture': 'ready'})
        assert code(refused) == 'ROBOT_LEASED' and 'browser-test' in text(refused)
        shot(driver, 'lease-held')
        lease = bridge.base + '/console/lease'
        body = json.dumps({'since': streamed['since'], 'take': False}).encode()
        json_type = {'Content-Type': 'application/json', 'Origin': bridge.base}
        with httpx2.Client(timeout=30) as http:
            as_agent = http.post(lease, content=body, headers={
                **json_type, 'Authorization': f'Bearer {TOKEN}'})
            stale = http.post(lease, content=json.dumps({
                'since': streamed['since'] - 5.0, 'take': False}).encode(), headers={
                **json_type, 'Authorization': f'Bearer {bridge.secret}'})
            bad = http.post(lease, content=b'{"since": "now"}', headers={
                **json_type, 'Authorization': f'Bearer {bridge.secret}'})
        assert as_agent.status_code == 401 and stale.status_code == 409
        assert bad.status_code == 400 and 'since' in bad.json()['error']
        assert 'no longer in force' in stale.json()['error']
        assert driver.execute_script('return window.consoleView.lease') == 'browser-test', \
            'refused requests changed nothing'
        driver.find_element('id', 'lease-take').click()
        until(driver, "return window.consoleView.lease === 'the operator console'")
        by_holder = mcp.call('move_arm_to_posture', {'posture': 'ready'})
        by_other = other.call('move_arm_to_posture', {'posture': 'ready'})
        assert code(by_holder) == 'ROBOT_LEASED' and code(by_other) == 'ROBOT_LEASED'
        assert 'the operator console' in text(by_other)
        shot(driver, 'lease-taken-over')
        driver.find_element('id', 'lease-end').click()
        until(driver, 'return window.consoleView.lease === null')
        assert 'free' in driver.find_element('id', 'lease-text').text
        taken = other.call('move_arm_to_posture', {'posture': 'ready'})
        assert not taken.get('isError'), text(taken)
        until(driver, "return window.consoleView.lease === 'agent-b'")
        other.call('release_robot', {})
        until(driver, 'return window.consoleView.lease === null')
    finally:
        other.close()
    until(driver, "return [...document.querySelectorAll('#audit li')]"
                  ".some(li => li.textContent.includes('console_take_lease ok'))")
    assert page_errors(driver) == []


def test_zh_page_shows_no_english_label(bridge: Bridge, driver: Any) -> None:
    """?lang=zh on an English bridge: every label, the banner and the force axis are Chinese."""
    driver.get(bridge.secret_url.replace('/console#', '/console?lang=zh#'))
    until(driver, 'return (window.consoleView || {rendered: {}}).rendered.state > 0')
    until(driver, 'return (window.consoleView.banner || {}).state === "idle"')
    until(driver, 'return (window.consoleView.force || {}).axis')
    with httpx2.Client(timeout=30) as http:
        en = http.get(bridge.base + '/console/labels').json()
        zh = http.get(bridge.base + '/console/labels?lang=zh').json()
    assert en.keys() == zh.keys()
    same = [k for k in en if en[k] == zh[k]]
    assert same == [], f'labels without a Chinese text: {same}'
    # the page's own words: not the data (joint names, the audit trail's arguments)
    page = driver.execute_script(
        'const copy = document.body.cloneNode(true);'
        "for (const el of copy.querySelectorAll('#audit, #joints tbody')) el.remove();"
        'return copy.innerText')
    words = set(re.findall(r'[A-Za-z][A-Za-z ]+[A-Za-z]', page))
    shown = [en[k] for k in en if '{' not in en[k] and en[k] != 'STOP' and
             any(re.search(rf'\b{re.escape(en[k])}\b', w) for w in words)]
    assert shown == [], f'English labels on the zh page: {shown}'
    assert banner(driver)['text'] == '空闲'
    assert driver.execute_script('return window.consoleView.force.axis').startswith('N（已扣除')
    shot(driver, 'console-zh')
    driver.get(bridge.secret_url)  # the next test opens the English page again


def test_audit_trail_shows_motions_and_decisions_reads_on_request(bridge: Bridge, driver: Any,
                                                                  mcp: Mcp) -> None:
    """A read is in the trail but hidden until asked for; a motion is shown, in local time."""
    open_console(driver, bridge)
    assert not mcp.call('get_joint_states', {}).get('isError')
    moved = mcp.call('move_arm_to_posture', {'posture': 'ready'})
    assert not moved.get('isError'), text(moved)
    visible = ("return [...document.querySelectorAll('#audit li')].filter(li => "
               'li.offsetParent !== null).map(li => li.textContent)')
    until(driver, "return [...document.querySelectorAll('#audit li')].some(li => "
                  "li.textContent.includes('move_arm_to_posture ok'))")
    shown = driver.execute_script(visible)
    assert any('move_arm_to_posture ok' in li for li in shown)
    assert not any('get_joint_states' in li for li in shown), 'reads hidden by default'
    assert not any('T' in li.split(' ')[0] for li in shown), 'local time, not an ISO stamp'
    driver.find_element('id', 'show-reads').click()
    assert any('get_joint_states ok' in li for li in driver.execute_script(visible))
    driver.find_element('id', 'show-reads').click()
    assert page_errors(driver) == []
