"""Advice for refused motions, in the tool's own terms (fields it accepts, degrees, metres)."""

from __future__ import annotations

from dataclasses import replace
import json
import math
from typing import Any

from mcp_ros_bridge.backends.port import BackendError
from mcp_ros_bridge.messages import t

_RADIAN_LIKE = 2 * math.pi + 0.01


def _wrap_deg(v: float) -> float:
    return round((v + 180.0) % 360.0 - 180.0 if abs(v) > 180.0 else v, 1)


def radians_hint(orientation: dict[str, float]) -> str:
    """
    Name angles that look like radians and show the call in degrees.

    Returns '' when no given angle looks like radians (all zero or larger than 2 pi).
    """
    suspects = {k: v for k, v in orientation.items() if 0 < abs(v) <= _RADIAN_LIKE}
    if not suspects:
        return ''
    said = t('radians_join').join(
        t('radians_suspect', axis=k, value=f'{v:g}', degrees=f'{math.degrees(v):.0f}')
        for k, v in suspects.items())
    fixed = {k: _wrap_deg(math.degrees(v)) if k in suspects else v
             for k, v in orientation.items()}
    text = t('radians_said', said=said)
    if abs(fixed.get('pitch', 0.0)) <= 90.0:
        text += t('radians_fixed', fixed=json.dumps(fixed))
    return text + ' '


def is_cone_refusal(exc: BackendError) -> bool:
    """Return True for a refusal by the approach-cone limit."""
    return exc.code == 'LIMIT_EXCEEDED' and str(exc.details.get('limit', '')).startswith(
        'approach_cone')


def explain_cone_refusal(exc: BackendError, orientation: dict[str, Any]) -> None:
    """Prefix the refusal's advice with the likely unit mistake, if any."""
    hint = radians_hint({k: float(v) for k, v in orientation.items()})
    if hint:
        exc.failure = replace(exc.failure, advice=hint + exc.advice)
