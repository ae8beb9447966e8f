"""
The channels of a session file: topics, their ROS 2 types and the JSON schemas of the MCP ones.

The MCP channels (tool calls, events) are JSON. A robot topic is ROS 2 CDR with
its ``ros2msg`` schema when the message definitions are installed
(:mod:`msg_schemas`); otherwise it is JSON in the same shape (bytes as base64).
"""

from __future__ import annotations

import base64
from typing import Any

CALLS = '/mcp/tool_calls'
EVENTS = '/mcp/events'
JOINTS = '/joint_states'
WRENCH = '/wrench'
TF = '/tf'
IMAGE = '/camera/image/compressed'
DESCRIPTION = '/robot_description'  # the URDF, at the start of every file
CHAINED = (CALLS, EVENTS)  # records of these carry the hash chain (recording/chain.py)
ROBOT_TYPES = {JOINTS: 'sensor_msgs/msg/JointState', WRENCH: 'geometry_msgs/msg/WrenchStamped',
               TF: 'tf2_msgs/msg/TFMessage', IMAGE: 'sensor_msgs/msg/CompressedImage',
               DESCRIPTION: 'std_msgs/msg/String'}
_CHAIN = {'seq': {'type': 'integer'}, 'prev': {'type': 'string'}, 'hash': {'type': 'string'},
          'time': {'type': 'string'}}
JSON_SCHEMAS: dict[str, dict[str, Any]] = {
    CALLS: {'title': 'mcp_ros_bridge/ToolCall', 'type': 'object', 'properties': {
        **_CHAIN, 'call_id': {'type': 'string'}, 'session': {'type': 'string'},
        'tool': {'type': 'string'}, 'args': {}, 'outcome': {'type': 'string'},
        'code': {'type': ['string', 'null']}, 'decision': {'type': 'string'},
        'duration_ms': {'type': 'number'}, 'final_pose': {'type': 'object'},
        'plan_id': {'type': 'string'}}},
    EVENTS: {'title': 'mcp_ros_bridge/Event', 'type': 'object', 'properties': {
        **_CHAIN, 'event': {'type': 'string'}, 'tool': {'type': 'string'},
        'decided_by': {'type': 'string'}, 'reason': {'type': 'string'},
        'plan_id': {'type': 'string'}}},
}


def stamp(seconds: float) -> dict[str, int]:
    """Return ``builtin_interfaces/Time`` of a UNIX time in seconds."""
    whole = int(seconds)
    return {'sec': whole, 'nanosec': int((seconds - whole) * 1e9)}


def header(seconds: float, frame: str) -> dict[str, Any]:
    """Return a ``std_msgs/Header``."""
    return {'stamp': stamp(seconds), 'frame_id': frame}


def as_json(value: Any) -> Any:
    """Return ``value`` with bytes as base64 text, for a robot topic recorded as JSON."""
    if isinstance(value, (bytes, bytearray)):
        return base64.b64encode(bytes(value)).decode()
    if isinstance(value, dict):
        return {k: as_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [as_json(v) for v in value]
    return value
