"""
Declared ROS bindings: a topic read, a service call or an action goal named in YAML.

Only the topic, service or action a tool's ``binding`` declares is reachable;
the model supplies values, never names. ``binding.fields`` maps each tool
argument to a dotted message field; ``binding.constants`` fixes other fields.
"""

from __future__ import annotations

from collections.abc import Mapping
import json
from typing import Any

from mcp_ros_bridge.capabilities.base import (CallContext, Kind, MOTION, Outcome, output_schema,
                                              READ_ONLY, STR)
from mcp_ros_bridge.catalog.bindings import ActionBinding, ServiceBinding, TopicBinding
from mcp_ros_bridge.failure import Failure
from mcp_ros_bridge.messages import MESSAGES, t

RESULT_OUTPUT = output_schema({'interface': STR, 'type': STR, 'data': {'type': 'object'}},
                              ['interface', 'type', 'data'])


def set_path(target: dict[str, Any], dotted: str, value: Any) -> None:
    """Set ``value`` at a dotted field path, creating nested dicts."""
    parts = dotted.split('.')
    for part in parts[:-1]:
        target = target.setdefault(part, {})
    target[parts[-1]] = value


def get_path(source: Mapping[str, Any], dotted: str) -> Any:
    """Return the value at a dotted field path, or None when absent."""
    cur: Any = source
    for part in dotted.split('.'):
        if not isinstance(cur, Mapping) or part not in cur:
            return None
        cur = cur[part]
    return cur


def build_message_dict(binding: ServiceBinding | ActionBinding,
                       args: Mapping[str, Any]) -> dict[str, Any]:
    """Build a request or goal dict from constants and mapped tool arguments."""
    out: dict[str, Any] = {}
    for dotted, value in binding.constants.items():
        set_path(out, dotted, value)
    for arg, dotted in binding.fields.items():
        if arg in args:
            set_path(out, dotted, args[arg])
    return out


def _summarise(binding: TopicBinding | ServiceBinding | ActionBinding,
               data: Mapping[str, Any]) -> dict[str, Any]:
    if not binding.summary:
        return dict(data)
    return {p: get_path(data, p) for p in binding.summary}


def _body(data: Mapping[str, Any]) -> str:
    body = json.dumps(data, default=str)
    return body[:600] + '...' if len(body) > 600 else body


async def run_topic(ctx: CallContext, args: dict[str, Any]) -> Outcome:
    """Return the newest message of the declared topic."""
    b = ctx.bound(TopicBinding)
    data = _summarise(b, await ctx.backend.read_topic(b))
    return Outcome(t('ros_topic_latest', name=b.topic, body=_body(data)),
                   {'interface': b.topic, 'type': b.interface_type, 'data': data})


async def run_service(ctx: CallContext, args: dict[str, Any]) -> Outcome:
    """Call the declared service with mapped arguments."""
    b = ctx.bound(ServiceBinding)
    data = _summarise(b, await ctx.backend.call_service(b, build_message_dict(b, args)))
    return Outcome(t('ros_service_response', name=b.service, body=_body(data)),
                   {'interface': b.service, 'type': b.interface_type, 'data': data})


async def run_action(ctx: CallContext, args: dict[str, Any]) -> Outcome:
    """Send a goal to the declared action and wait for its result."""
    b = ctx.bound(ActionBinding)
    res = await ctx.backend.send_action_goal(b, build_message_dict(b, args), ctx.progress)
    status = res['status']
    structured: dict[str, Any] = {'interface': b.action, 'type': b.interface_type, 'data': res}
    text = t('ros_action_result', status=status, name=b.action, body=_body(res))
    if status == 'SUCCEEDED':
        return Outcome(text, structured)
    # Like every other failure, name the code so agents and the audit log can act on it.
    key = f'ros_action_{status}'
    advice = t(key, timeout=b.timeout_s) if key in MESSAGES else t('ros_action_failed')
    return Outcome(f'{text} {advice}', structured,
                   Failure(status, text, advice, details={'action': b.action}))


KINDS = [
    Kind('ros_topic', run_topic, RESULT_OUTPUT, frozenset({'*'}), READ_ONLY,
         returns='returns_ros_topic', binding='ros_topic'),
    Kind('ros_service', run_service, RESULT_OUTPUT, frozenset({'*'}),
         {'readOnlyHint': False, 'destructiveHint': True, 'idempotentHint': False,
          'openWorldHint': True},
         returns='returns_ros_service', binding='ros_service'),
    Kind('ros_action', run_action, RESULT_OUTPUT, frozenset({'*'}), MOTION, motion=True,
         returns='returns_ros_action', binding='ros_action'),
]
