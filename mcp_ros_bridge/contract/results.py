"""
Turn Outcomes and backend errors into MCP ``CallToolResult`` objects.

An isError result never carries ``structuredContent`` that the tool's
``outputSchema`` would reject (TypeScript clients throw such results away): the
machine-readable error block ``{code, details}`` travels in ``_meta`` under
``ERROR_META_KEY``, and ``structuredContent`` is either absent or a valid result.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from dataclasses import replace
import functools
import json
import logging
from typing import Any

from jsonschema import Draft202012Validator
from mcp_ros_bridge.backends.port import BackendError, Image
from mcp_ros_bridge.capabilities.base import Outcome
from mcp_ros_bridge.failure import Failure
from mcp_ros_bridge.messages import t
import mcp_types as types

ERROR_META_KEY = 'io.github.mcp_ros_bridge/error'
log = logging.getLogger('mcp_ros_bridge.results')


def _error_meta(failure: Failure) -> dict[str, Any]:
    return {ERROR_META_KEY: {'code': failure.code, 'details': dict(failure.details)}}


def error_block(result: types.CallToolResult) -> dict[str, Any]:
    """Return the ``{code, details}`` error block of a result, or ``{}``."""
    return dict((result.meta or {}).get(ERROR_META_KEY) or {})


@functools.lru_cache(maxsize=64)
def _output_validator(schema_json: str) -> Draft202012Validator:
    return Draft202012Validator(json.loads(schema_json))


def fits(schema: dict[str, Any], structured: dict[str, Any]) -> bool:
    """Return True when ``structured`` is valid against the output ``schema``."""
    return _output_validator(json.dumps(schema, sort_keys=True)).is_valid(structured)


def outcome_result(outcome: Outcome, output_schema: dict[str, Any] | None = None
                   ) -> types.CallToolResult:
    """
    Render an Outcome: text (and images), structured content, error flag.

    A failed Outcome (e.g. a motion that ended in CONTACT_ABORT) keeps its
    structured result only when it matches ``output_schema``. Successful results
    are built to the schema and not checked again (the fast path).
    """
    structured: dict[str, Any] | None = outcome.structured
    if outcome.failure is not None and output_schema is not None and not fits(
            output_schema, outcome.structured):
        log.warning('failed result does not match its outputSchema; sent as text only')
        structured = None
    return _result(outcome.text, outcome.failure, structured, outcome.images)


def _result(text: str, failure: Failure | None, structured: dict[str, Any] | None = None,
            images: Sequence[Image] = ()) -> types.CallToolResult:
    """Render a result: text and images, structured content; a failure's error block."""
    content: list[Any] = [types.TextContent(type='text', text=text)]
    for img in images:
        content.append(types.ImageContent(type='image', mime_type=img.mime_type,
                                          data=base64.b64encode(img.data).decode('ascii')))
    return types.CallToolResult(
        content=content, structured_content=structured, is_error=failure is not None,
        meta=None if failure is None else _error_meta(failure))


def error_result(text: str, code: str, details: Mapping[str, Any] | None = None
                 ) -> types.CallToolResult:
    """Render an isError result: the text, no structured content, the error block in _meta."""
    return _result(text, Failure(code, text, details=details or {}))


def backend_error_result(tool: str, exc: BackendError) -> types.CallToolResult:
    """Render a BackendError with its advice; nothing further was executed."""
    failure = exc.failure.advised()
    text = t('backend_failed', tool=tool, code=failure.code, message=failure.message)
    if failure.advice:
        text += f' {failure.advice}'
    return _result(text, replace(failure, details={'message': failure.message,
                                                   **failure.details}))


def end_of(result: types.CallToolResult) -> dict[str, Any]:
    """Return what the audit keeps of a result: a motion's final pose, a plan's id."""
    structured = result.structured_content
    if not isinstance(structured, dict):
        return {}
    return {k: structured[k] for k in ('final_pose', 'plan_id') if structured.get(k) is not None}
