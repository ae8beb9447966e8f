"""Turn Outcomes and backend errors into MCP ``CallToolResult`` objects."""

from __future__ import annotations

import base64
from typing import Any

from mcp_ros_bridge.backends.port import BackendError
from mcp_ros_bridge.capabilities.base import Outcome
import mcp_types as types

ADVICE = {
    'NO_IK_SOLUTION': 'The pose is out of reach; try a point closer to the base or another '
                      'orientation (fingers down is roll 180, pitch 0).',
    'GOAL_IN_COLLISION': 'The target collides with the robot, the table or an object; raise '
                         'the target or move it away from obstacles.',
    'PLANNING_FAILED': 'No collision-free path was found; try an intermediate pose first.',
    'SENSOR_STALE': 'The sensor stream is late or stopped; check the driver and try again.',
    'TIMED_OUT': 'The goal was cancelled after its timeout; check the robot state.',
    'UNAVAILABLE': 'The robot interface is not reachable; check that the driver or MoveIt '
                   'is running.',
    'LIMIT_EXCEEDED': 'Adjust the value to the allowed range and call again.',
    'BUSY': 'Wait for the running motion to finish, or call stop_arm first.',
}


def outcome_result(outcome: Outcome) -> types.CallToolResult:
    """Render an Outcome: text (and images), structured content, error flag."""
    content: list[Any] = [types.TextContent(type='text', text=outcome.text)]
    for img in outcome.images:
        content.append(types.ImageContent(type='image', mime_type=img.mime_type,
                                          data=base64.b64encode(img.data).decode('ascii')))
    return types.CallToolResult(content=content, structured_content=outcome.structured,
                                is_error=outcome.is_error)


def error_result(text: str, code: str, details: dict[str, Any] | None = None
                 ) -> types.CallToolResult:
    """Render an isError result with a machine-readable error block."""
    return types.CallToolResult(
        content=[types.TextContent(type='text', text=text)],
        structured_content={'error': {'code': code, 'details': details or {}}},
        is_error=True)


def backend_error_result(tool: str, exc: BackendError) -> types.CallToolResult:
    """Render a BackendError with its advice; nothing further was executed."""
    advice = exc.advice or ADVICE.get(exc.code, '')
    text = f'{tool} failed: {exc.code}: {exc.message}.'
    if advice:
        text += f' {advice}'
    return error_result(text, exc.code, {'message': exc.message, **exc.details})
