"""
Approval cards in the page: they never move under a pending click, and say when they expire.

Two calls wait; the first is denied while the cursor rests on the second's
Approve button, which must stay where it was. A bridge with a short approval
wait shows the expiry on the card and audits it as expiry, not as a deny.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from bridge_kit import APPROVAL_EDIT, copy_config
from console_kit import Bridge, code, Mcp, page_errors, shot, text
import pytest
from test_console import open_console, until
from test_console_stop import UNLIMITED

pytestmark = pytest.mark.browser
CARD = '#queue li.card[data-tool=move_arm_to_pose]:not(.gone)'


@pytest.fixture(scope='module')
def bridge(chromium: None, tmp_path_factory: Any) -> Iterator[Bridge]:
    """Serve the bridge with move_arm_to_pose needing approval, no rate limit."""
    config = copy_config(str(tmp_path_factory.mktemp('cards') / 'cfg'), APPROVAL_EDIT)
    served = Bridge('--config', config, *UNLIMITED)
    try:
        yield served
    finally:
        served.close()


def _rect(driver: Any, selector: str) -> dict[str, float]:
    return dict(driver.execute_script(
        'const r = document.querySelector(arguments[0]).getBoundingClientRect();'
        'return {x: r.x, y: r.y};', selector))


def test_a_card_does_not_move_under_a_pending_click(bridge: Bridge, driver: Any,
                                                    mcp: Mcp) -> None:
    """Deny the first of two waiting calls: the second card's Approve stays put; title says so."""
    open_console(driver, bridge)
    first = mcp.start('move_arm_to_pose', {'position': {'x': 0.45, 'y': -0.1, 'z': 0.3}})
    until(driver, f"return document.querySelectorAll('{CARD}').length === 1")
    facts = driver.find_element('css selector', f'{CARD} .facts').text
    for fact in ('duration ', 'peak tip speed ', 'target x=0.450 y=-0.100 z=0.300 m'):
        assert fact in facts, facts  # the plan the person approves, from the plan itself
    second = mcp.start('move_arm_to_pose', {'position': {'x': 0.44, 'y': 0.1, 'z': 0.3}})
    until(driver, f"return document.querySelectorAll('{CARD}').length === 2")
    assert 'WAITING FOR YOU (2)' in driver.title
    approve = f'{CARD}:nth-child(2) button.approve'
    colours = driver.execute_script(
        'return [...document.querySelectorAll(arguments[0])].map('
        'b => getComputedStyle(b).backgroundColor)', f'{CARD}:nth-child(2) button')
    assert len(set(colours)) == 2, 'Approve and Deny look different'
    before = _rect(driver, approve)
    shot(driver, 'console-two-approvals')
    driver.find_element('css selector', f'{CARD}:nth-child(1) button.deny').click()
    assert code(first.result(120)) == 'NOT_APPROVED'
    until(driver, "return document.querySelector('#queue li.gone') !== null")
    assert _rect(driver, approve) == before, 'the waiting card stayed where it was'
    driver.find_element('css selector', approve).click()
    result = second.result(120)
    assert not result.get('isError'), text(result)
    until(driver, "return !document.title.includes('WAITING')")
    assert page_errors(driver) == []


def test_an_expired_card_says_so_and_is_audited_as_expiry(driver: Any, tmp_path: Any) -> None:
    """Nobody decides within --console-approval-wait-s: 'expired — denied automatically'."""
    config = copy_config(str(tmp_path / 'cfg'), APPROVAL_EDIT)
    served = Bridge('--config', config, '--console-approval-wait-s', '3', *UNLIMITED)
    mcp = Mcp(served.base)
    try:
        open_console(driver, served)
        call = mcp.start('move_arm_to_pose', {'position': {'x': 0.45, 'y': -0.1, 'z': 0.3}})
        until(driver, f"return document.querySelector('{CARD} .clock')"
                      "?.textContent.includes('denied automatically in')")
        assert code(call.result(120)) == 'NOT_APPROVED'
        gone = until(driver, "return document.querySelector('#queue li.gone')?.textContent")
        assert 'expired — denied automatically' in gone, gone
        until(driver, "return [...document.querySelectorAll('#audit li')].some(li => "
                      "li.textContent.includes('move_arm_to_pose expired [nobody: expired'))")
        shot(driver, 'console-approval-expired')
        assert page_errors(driver) == []
    finally:
        mcp.close()
        served.close()
