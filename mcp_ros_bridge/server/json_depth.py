"""
How deeply a JSON text nests, found without parsing it (so a depth bomb cannot recurse).

Both transports check this before the SDK parses a message: Python's and
pydantic's parsers recurse per level, and a message nested a thousand deep made
tracebacks instead of a JSON-RPC error.
"""

from __future__ import annotations

import json
import re

import numpy as np

MAX_JSON_DEPTH = 64
_STRING = re.compile(rb'"(?:[^"\\]++|\\.)*+"', re.DOTALL)
_STEP = np.zeros(256, dtype=np.int8)
_STEP[[ord('['), ord('{')]] = 1
_STEP[[ord(']'), ord('}')]] = -1
# The shape a model can copy: a shallow request.
SHALLOW_EXAMPLE = json.dumps({'jsonrpc': '2.0', 'id': 7, 'method': 'tools/call',
                              'params': {'name': 'stop_arm', 'arguments': {}}})


def json_depth(text: bytes | str) -> int:
    """Return the deepest nesting of objects and arrays in ``text`` (0 for a scalar)."""
    data = text.encode() if isinstance(text, str) else text
    steps = _STEP[np.frombuffer(_STRING.sub(b'""', data), dtype=np.uint8)]
    return int(np.cumsum(steps, dtype=np.int64).max(initial=0))


def too_deep(text: bytes | str, limit: int = MAX_JSON_DEPTH) -> bool:
    """Return True when ``text`` nests deeper than ``limit``."""
    return json_depth(text) > limit
