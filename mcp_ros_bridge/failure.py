"""
A failure the agent can act on: one value from the backend to the tool result.

A backend raises it (``BackendError.failure``), a motion that ended early reports
it (``MotionResult.failure``), a job step ends with it (``StepFailed``) and an
error ``Outcome`` carries it into the result's ``_meta`` error block.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any


@dataclass(frozen=True)
class Failure:
    """
    What failed: a machine-readable ``code``, the human message, advice and facts.

    ``code`` follows MoveIt's ``MoveItErrorCodes`` names where one fits, else a
    status (``CONTACT_ABORT``) or one of the bridge's (``SENSOR_STALE``...);
    ``details`` are the JSON facts of the error block.
    """

    code: str
    message: str
    advice: str = ''
    details: Mapping[str, Any] = field(default_factory=dict)

    def advised(self) -> Failure:
        """Return the failure with its code's default advice when it has none of its own."""
        return self if self.advice else replace(self, advice=advice_for(self.code))


def advice_for(code: str, prefix: str = 'advice_') -> str:
    """Return the text of message ``prefix + code`` in the current language, or '' if none."""
    from mcp_ros_bridge import messages  # on use: importing the port loads no text table
    key = prefix + code
    return messages.t(key) if key in messages.MESSAGES else ''
