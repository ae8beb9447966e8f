"""
Turn Outcomes and backend errors into MCP ``CallToolResult`` objects.

An isError result never carries ``structuredContent`` that the tool's
``outputSchema`` would reject (TypeScript clients throw such results away): the
machine-readable error block ``{code, details}`` travels in ``_meta`` under
``ERROR_META_KEY``, and ``structuredContent`` is either absent or a valid result.
"""

from __future__ import annotations

import base64
import functools
import json
import logging
from typing import Any

from jsonschema import Draft202012Validator
from mcp_ros_bridge.backends.port import BackendError
from mcp_ros_bridge.capabilities.base import Outcome
from mcp_ros_bridge.messages import t
import mcp_types as types

ERROR_META_KEY = 'io.github.mcp_ros_bridge/error'
log = logging.getLogger('mcp_ros_bridge.results')


def _error_meta(code: str, details: dict[str, Any] | None) -> dict[str, Any]:
    return {ERROR_META_KEY: {'code': code, 'details': details or {}}}


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
    structured result only when it matches ``output_schema``, and gets the
    error block in ``_meta`` with its status as the code. Successful results
    are built to the schema and not checked again (the fast path).
    """
    schema_valid = True
    if outcome.is_error and output_schema is not None:
        schema_valid = fits(output_schema, outcome.structured)
        if not schema_valid:
            log.warning('failed result does not match its outputSchema; sent as text only')
    content: list[Any] = [types.TextContent(type='text', text=outcome.text)]
    for img in outcome.images:
        content.append(types.ImageContent(type='image', mime_type=img.mime_type,
                                          data=base64.b64encode(img.data).decode('ascii')))
    meta = None
    if outcome.is_error:
        code = outcome.error_code or str(outcome.structured.get('status') or 'FAILED')
        meta = _error_meta(code, outcome.error_details)
    return types.CallToolResult(
        content=content, structured_content=outcome.structured if schema_valid else None,
        is_error=outcome.is_error, meta=meta)


def error_result(text: str, code: str, details: dict[str, Any] | None = None
                 ) -> types.CallToolResult:
    """Render an isError result: the text, no structured content, the error block in _meta."""
    return types.CallToolResult(content=[types.TextContent(type='text', text=text)],
                                is_error=True, meta=_error_meta(code, details))


def backend_error_result(tool: str, exc: BackendError) -> types.CallToolResult:
    """Render a BackendError with its advice; nothing further was executed."""
    failure = exc.failure.advised()
    text = t('backend_failed', tool=tool, code=failure.code, message=failure.message)
    if failure.advice:
        text += f' {failure.advice}'
    return error_result(text, failure.code, {'message': failure.message, **failure.details})


def end_of(result: types.CallToolResult) -> dict[str, Any]:
    """Return what the audit keeps of a result: a motion's final pose, a plan's id."""
    structured = result.structured_content
    if not isinstance(structured, dict):
        return {}
    return {k: structured[k] for k in ('final_pose', 'plan_id') if structured.get(k) is not None}
