"""The refusal every motion call gets while a person holds the arm (the console's STOP)."""

from __future__ import annotations

import time

from mcp_ros_bridge.contract.results import error_result
from mcp_ros_bridge.messages import t
import mcp_types as types

HOLD_CODE = 'OPERATOR_HOLD'


def held_result(tool: str, since: float) -> types.CallToolResult:
    """Return the OPERATOR_HOLD error of ``tool``; the hold began at monotonic ``since``."""
    age = max(0.0, time.monotonic() - since)
    return error_result(t('operator_hold', tool=tool, age=f'{age:.0f}'), HOLD_CODE,
                        {'held_for_s': round(age, 1), 'released_by': 'operator console'})
