"""
The browser layer: the operator console in headless Chromium (the system's, via Selenium).

Skips with the reason where chromium, chromium-driver or selenium is absent, except
in CI (``CI=true``), where that is a failure. One bridge (approval required for
move_arm_to_pose) and one browser serve the module.
"""

from __future__ import annotations

from collections.abc import Iterator
import os
from typing import Any

import console_kit
from bridge_kit import APPROVAL_EDIT, copy_config  # noqa: I100 - on the path console_kit sets
import pytest


@pytest.fixture(scope='session')
def chromium() -> None:
    """Skip (fail under CI) where the browser or selenium is missing."""
    reason = console_kit.missing()
    if reason is not None:
        if os.environ.get('CI', '').lower() in ('1', 'true', 'yes'):
            pytest.fail(f'browser layer cannot run in CI: {reason}')
        pytest.skip(reason)


@pytest.fixture(scope='module')
def bridge(chromium: None, tmp_path_factory: Any) -> Iterator[console_kit.Bridge]:
    """Serve the bridge over HTTP with the token, in real time."""
    config = copy_config(str(tmp_path_factory.mktemp('console') / 'cfg'), APPROVAL_EDIT)
    served = console_kit.Bridge('--config', config)
    try:
        yield served
    finally:
        served.close()


@pytest.fixture(scope='module')
def mcp(bridge: console_kit.Bridge) -> Iterator[console_kit.Mcp]:
    """Open an MCP session on the bridge (no elicitation: approvals come from the console)."""
    session = console_kit.Mcp(bridge.base)
    try:
        yield session
    finally:
        session.close()


@pytest.fixture(scope='module')
def driver(chromium: None) -> Iterator[Any]:
    """Headless Chromium."""
    browser = console_kit.browser()
    try:
        yield browser
    finally:
        browser.quit()
