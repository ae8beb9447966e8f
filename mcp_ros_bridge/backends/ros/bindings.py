"""
Declared ROS bindings: a topic read, a service call and an action goal.

Each call gets its binding from the tool YAML (name, interface type, limits);
nothing here takes a name from the model, so only declared interfaces are
reachable. Requests and goals arrive as plain dicts and results leave as
plain JSON-able dicts.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
import time
from typing import Any

from mcp_ros_bridge.backends.port import BackendError, ProgressFn
from mcp_ros_bridge.backends.ros.actions import call_service, GoalRunner
from mcp_ros_bridge.backends.ros.messages import build_message, import_interface, message_to_dict
from mcp_ros_bridge.backends.ros.runtime import call_soon, qos_from_name, RosRuntime
from mcp_ros_bridge.backends.ros.sensors import stamp_s
from mcp_ros_bridge.catalog.bindings import ActionBinding, ServiceBinding, TopicBinding
from mcp_ros_bridge.messages import t


def _fill(cls: Any, data: Mapping[str, Any], what: str) -> Any:
    try:
        return build_message(cls, data)
    except ValueError as exc:
        raise BackendError('INVALID_GOAL', f'{what}: {exc}',
                           advice=t('ros_fill_fix')) from exc


class _TopicCache:
    """The newest message of one declared topic and when it arrived."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.latest: tuple[Any, float] | None = None
        self.first = asyncio.Event()
        self._loop = loop

    def on_message(self, msg: Any) -> None:
        first = self.latest is None
        self.latest = (msg, time.monotonic())
        if first:
            call_soon(self._loop, self.first.set)


class DeclaredBindings:
    """Serves the declared topic, service and action bindings of the tool catalog."""

    def __init__(self, runtime: RosRuntime, runner: GoalRunner) -> None:
        """Bind to the node and the goal runner."""
        self._runtime, self._runner = runtime, runner
        self._topics: dict[tuple[str, str], _TopicCache] = {}
        self._services: dict[tuple[str, str], Any] = {}

    async def read_topic(self, binding: TopicBinding) -> dict[str, Any]:
        """Return the newest message of the declared topic with its age."""
        topic, type_name = binding.topic, binding.interface_type
        cls = import_interface(type_name, 'msg')
        key = (topic, type_name)
        if key not in self._topics:
            cache = _TopicCache(asyncio.get_running_loop())
            try:
                self._runtime.sensor_node.create_subscription(
                    cls, topic, cache.on_message, qos_from_name(binding.qos))
            except Exception as exc:  # rclpy raises several name errors
                raise BackendError('INVALID_GOAL',
                                   t('ros_cannot_subscribe', topic=topic, exc=exc)) from exc
            self._topics[key] = cache
        cache = self._topics[key]
        wait_s = binding.wait_s
        if cache.latest is None:
            waiter = asyncio.ensure_future(cache.first.wait())
            await asyncio.wait({waiter}, timeout=wait_s)
            waiter.cancel()
            if cache.latest is None:
                raise BackendError('SENSOR_STALE',
                                   t('ros_no_message_within', topic=topic, wait_s=wait_s),
                                   advice=t('ros_publish_fix', topic=topic),
                                   details={'topic': topic, 'age_s': None})
        msg, received = cache.latest
        age = time.monotonic() - received
        if hasattr(msg, 'header') and hasattr(msg.header, 'stamp') and stamp_s(msg.header) > 0:
            age = max(age, self._runtime.now_s() - stamp_s(msg.header))
        max_age = binding.max_age_s
        if max_age is not None and age > max_age:
            raise BackendError('SENSOR_STALE', t('ros_message_stale', topic=topic, age=age,
                                                 max_age=max_age),
                               details={'topic': topic, 'age_s': round(age, 4)})
        return {'topic': topic, 'type': type_name, 'age_s': round(age, 6),
                'message': message_to_dict(msg)}

    async def call_service(self, binding: ServiceBinding,
                           request: Mapping[str, Any]) -> dict[str, Any]:
        """Call the declared service with ``request``; return the response as a dict."""
        service, type_name = binding.service, binding.interface_type
        cls = import_interface(type_name, 'srv')
        msg = _fill(cls.Request, request, t('fill_request_for', service=service))
        key = (service, type_name)
        if key not in self._services:
            self._services[key] = self._runtime.running_node.create_client(
                cls, service, callback_group=self._runtime.clients_group)
        start = time.monotonic()
        response = await call_service(self._services[key], msg, name=service,
                                      timeout_s=binding.timeout_s)
        return {'service': service, 'type': type_name, 'response': message_to_dict(response),
                'duration_s': round(time.monotonic() - start, 6)}

    async def send_action_goal(self, binding: ActionBinding, goal: Mapping[str, Any],
                               progress: ProgressFn | None = None) -> dict[str, Any]:
        """Send ``goal`` to the declared action; return status, result and feedback count."""
        action, type_name = binding.action, binding.interface_type
        cls = import_interface(type_name, 'action')
        msg = _fill(cls.Goal, goal, t('fill_goal_for', action=action))
        timeout_s = binding.timeout_s
        start = time.monotonic()
        count = [0]

        def describe(feedback: Any) -> tuple[float, str]:
            count[0] += 1
            done = min(0.95, (time.monotonic() - start) / timeout_s)
            return done, f'{action}: feedback {count[0]}'

        outcome = await self._runner.run(self._runner.client(cls, action), msg, name=action,
                                         timeout_s=timeout_s, describe=describe,
                                         progress=progress)
        return {'action': action, 'type': type_name, 'status': outcome.status,
                'result': message_to_dict(outcome.result) if outcome.result is not None
                else None,
                'feedback_count': outcome.feedback_count,
                'duration_s': round(outcome.duration_s, 6)}
