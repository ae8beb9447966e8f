"""Idempotency keys in the call pipeline: run once, replay, or say why not."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from mcp_ros_bridge.contract.results import error_block, error_result
from mcp_ros_bridge.messages import t
from mcp_ros_bridge.safety.idempotency import (FirstCallAbandoned, IdempotencyCache,
                                               KeyReuseError, KeysExhausted)
import mcp_types as types


def replayable(result: types.CallToolResult) -> tuple[bool, str]:
    """Only a successful result answers a repeat; otherwise name how it ended."""
    ended = (result.structured_content or {}).get('status') or \
        error_block(result).get('code') or 'ERROR'
    return not result.is_error, str(ended)


def _noted(result: types.CallToolResult, note: str) -> types.CallToolResult:
    result = result.model_copy(deep=True)
    result.content.append(types.TextContent(type='text', text=note))
    return result


async def run_once(cache: IdempotencyCache, scope: str, tool: str, key: str,
                   args: dict[str, Any],
                   work: Callable[[], Awaitable[types.CallToolResult]]
                   ) -> types.CallToolResult:
    """Run ``work`` under ``key`` in ``scope``; turn the cache's answers into results."""
    try:
        answer = await cache.run(scope, tool, key, args, work, replayable)
    except KeyReuseError as exc:
        return error_result(t('key_refused', tool=tool, reason=exc), 'KEY_REUSED')
    except KeysExhausted as exc:
        return error_result(t('key_refused', tool=tool, reason=exc), 'KEYS_EXHAUSTED')
    except FirstCallAbandoned as exc:
        return error_result(t('key_not_repeated', tool=tool, reason=exc),
                            'FIRST_CALL_CANCELLED')
    if answer.replayed and answer.earlier:
        return _noted(answer.result, t('key_waited', key=repr(key), earlier=answer.earlier))
    if answer.replayed:
        return _noted(answer.result, t('key_replayed', key=repr(key)))
    if answer.earlier:
        return _noted(answer.result, t('key_not_replayed', key=repr(key),
                                       earlier=answer.earlier))
    return answer.result
