"""
User approval through MCP elicitation, for tools marked ``requires_approval``.

Handshake-era clients (2025-11-25) are asked with an ``elicitation/create``
request inside the call; 2026-07-28 clients get an ``InputRequiredResult`` and
call again with the answer, which counts only together with the (sealed)
request state of a request this server issued. A client without elicitation
gets the configured policy (deny by default). Decline or cancel means nothing
moves. An :class:`OperatorDesk` (the operator console) is a second way to
decide: while a person is connected there, the call waits for whichever answers
first, the person or the host; a client without elicitation waits for the person.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable
import itertools
import math
import secrets
import time
from typing import Any, Protocol

import anyio
from mcp.server import ServerRequestContext
from mcp_ros_bridge.backends.port import RobotBackend
from mcp_ros_bridge.capabilities.plan_ids import plan_facts, PlanStore
from mcp_ros_bridge.catalog.loader import ToolSpec
from mcp_ros_bridge.catalog.robot import RobotConfig
from mcp_ros_bridge.geometry import fixed
from mcp_ros_bridge.messages import t
import mcp_types as types
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

KEY = 'approval'
STATE_PREFIX = 'approval:'
SCHEMA: dict[str, Any] = {
    'type': 'object',
    'properties': {'approve': {'type': 'boolean', 'title': 'Allow this motion?',
                               'description': 'Tick to let the robot move as described.'}},
    'required': ['approve'],
}
ELICITATION = types.ClientCapabilities(elicitation=types.ElicitationCapability())


class Denied(Exception):
    """The motion was not approved; the message says why."""


class OperatorDesk(Protocol):
    """A person who decides approvals beside the host (the operator console)."""

    def present(self) -> bool:
        """Return True while a person who may decide is connected."""

    async def decide(self, tool: str, message: str) -> None:
        """Wait for the person's decision; raise :class:`Denied` unless they approve."""

    def offer(self, state: str, tool: str, message: str) -> None:
        """Show a request the host answers by calling again; the person may decide first."""

    def ruling(self, state: str) -> bool:
        """Withdraw ``state``; True if the person approved it, :class:`Denied` if they denied."""


async def plan_summary(spec: ToolSpec, args: dict[str, Any], backend: RobotBackend,
                       robot: RobotConfig, plans: PlanStore | None = None) -> str:
    """
    Describe what will move: target, distance, estimated duration and speed.

    A kept plan (``execute_plan``) is described by its own facts: its duration,
    peak tip speed, path length, target and the object in the hand.
    """
    scaling = args.get('velocity_scaling')  # filled from its default; absent: no arm motion
    lines = [t('approval_asks', title=spec.title, tool=spec.name)]
    plan = plans.peek(str(args.get('plan_id'))) if plans is not None and 'plan_id' in args \
        else None
    if plan is not None:
        facts = plan_facts(plan)
        target = facts.get('target_m')
        if target is not None:
            lines.append(t('approval_target', x=fixed(target['x'], 3), y=fixed(target['y'], 3),
                           z=fixed(target['z'], 3), frame=robot.base_frame))
        lines.append(t('approval_plan', duration=f"{facts['duration_s']:.2f}",
                       speed=f"{facts['peak_tip_speed_mps'] * 1000:.0f}",
                       length=f"{facts['path_length_m']:.3f}",
                       object=t('approval_plan_object', object=facts['object'])
                       if 'object' in facts else ''))
        return '\n'.join(lines)
    points = _points(args)
    if points:
        last = points[-1]
        lines.append(t('approval_target', x=fixed(last[0], 3), y=fixed(last[1], 3),
                       z=fixed(last[2], 3), frame=robot.base_frame))
    if points or 'offset' in args:
        try:
            now = await backend.end_effector_pose(robot.base_frame, robot.end_effector)
            dist = _offset_length(args) if 'offset' in args else _path_length(
                now.position, points)
            lines.append(t('approval_distance', dist=f'{dist:.3f}',
                           duration=_duration(dist, scaling, robot)))
        except Exception:  # noqa: BLE001 - the summary is best effort
            lines.append(t('approval_distance_unknown'))
    lines += _what_moves(args, robot)
    if scaling is not None:
        lines.append(t('approval_speed', scaling=f'{scaling:.2f}'))
    return '\n'.join(lines)


def _points(args: dict[str, Any]) -> list[tuple[float, float, float]]:
    """Return the fingertip targets in order: one pose, or every waypoint of a path."""
    found = [args['position']] if isinstance(args.get('position'), dict) else [
        w for w in args.get('waypoints') or [] if isinstance(w, dict)]
    return [(float(p['x']), float(p['y']), float(p['z'])) for p in found]


def _path_length(start: Any, points: list[tuple[float, float, float]]) -> float:
    """Return the length of the straight legs from ``start`` through ``points`` (m)."""
    legs = [tuple(start), *points]
    return sum(math.dist(a, b) for a, b in itertools.pairwise(legs))


def _offset_length(args: dict[str, Any]) -> float:
    o = args['offset']
    return math.sqrt(sum(float(o.get(k, 0.0)) ** 2 for k in 'xyz'))


def _place_line(target: dict[str, Any], frame: str) -> str:
    """Return the approval line of a place ``target`` (base point, or from/toward objects)."""
    x, y = fixed(float(target['x']), 3), fixed(float(target['y']), 3)
    origin = target.get('from') or t('approval_held_object')
    if target.get('toward'):
        return t('approval_place_toward', x=x, y=y, toward=target['toward'], origin=origin)
    if target.get('from'):
        return t('approval_place_from', x=x, y=y, origin=origin)
    return t('approval_place_at', x=x, y=y, frame=frame)


def _what_moves(args: dict[str, Any], robot: RobotConfig) -> list[str]:
    """Return the lines that say what will move besides the fingertip target."""
    lines = []
    if 'offset' in args:
        o = args['offset']
        lines.append(t('approval_offset', x=fixed(float(o.get('x', 0.0)), 3),
                       y=fixed(float(o.get('y', 0.0)), 3), z=fixed(float(o.get('z', 0.0)), 3),
                       frame=args.get('frame') or robot.base_frame))
    if 'max_distance_m' in args:
        lines.append(t('approval_guarded', direction=args['direction'],
                       dist=fixed(float(args['max_distance_m']), 3),
                       speed=f"{float(args['speed_mps']) * 1000:.0f}",
                       force=args['contact_force_n']))
    if 'distance_m' in args:
        lines.append(t('approval_push', object=args['object'],
                       direction=args['direction'],
                       dist=fixed(float(args['distance_m']), 3),
                       force=args['max_force_n']))
    elif 'object' in args:
        lines.append(t('approval_pick', object=args['object']))
    if isinstance(args.get('target'), dict):
        lines.append(_place_line(args['target'], robot.base_frame))
    elif 'on' in args:
        lines.append(t('approval_place_on', on=args['on']))
    if 'release' in args:
        lines.append(t('approval_release' if args['release'] else 'approval_keep'))
    if 'posture' in args:
        lines.append(t('approval_posture', posture=args['posture']))
    if 'positions' in args:
        units = robot.arm_units or ('rad',) * len(robot.arm_joints)
        lines.append(t('approval_joints', joints=', '.join(
            f'{name} {fixed(math.degrees(v), 1)}°' if unit == 'rad' else f'{name} {fixed(v, 3)} m'
            for name, v, unit in zip(robot.arm_joints, args['positions'], units))))
    if 'force_n' in args:
        lines.append(t('approval_force', force=args['force_n']))
    return lines


def _duration(dist: float, scaling: float | None, robot: RobotConfig) -> str:
    if scaling is None:
        return ''
    speed = robot.limits.max_cartesian_speed_mps * scaling
    return t('approval_duration', seconds=f'{dist / max(speed, 1e-3):.1f}',
             speed=f'{speed * 1000:.0f}')


def _verdict(result: types.ElicitResult) -> None:
    if result.action == 'accept' and (result.content or {}).get('approve') is True:
        return
    declined = result.action in ('decline', 'accept')
    raise Denied(t('approval_declined' if declined else 'approval_cancelled'))


class IssuedApprovals:
    """
    The approval requests this server issued and that are still unanswered.

    An answer counts only as the reply to one of these (each once, within the
    TTL); answers a client volunteers without being asked are ignored.
    """

    def __init__(self, ttl_s: float = 600.0, limit: int = 256) -> None:
        """Remember at most ``limit`` open requests for ``ttl_s`` seconds each."""
        self.ttl_s, self.limit = ttl_s, limit
        self._open: OrderedDict[str, float] = OrderedDict()

    def issue(self) -> str:
        """Return the request state of a new approval request."""
        nonce = secrets.token_urlsafe(16)
        self._open[nonce] = time.monotonic()
        while len(self._open) > self.limit:
            self._open.popitem(last=False)
        return STATE_PREFIX + nonce

    def settle(self, state: str | None) -> bool:
        """Consume the open request ``state`` names; False if this server did not issue it."""
        if not state or not state.startswith(STATE_PREFIX):
            return False
        issued = self._open.pop(state[len(STATE_PREFIX):], None)
        return issued is not None and time.monotonic() - issued <= self.ttl_s


async def _first_decision(host: Callable[[], Awaitable[types.ElicitResult]],
                          person: Callable[[], Awaitable[None]]) -> None:
    """Return when the first of the host and the person approves; raise Denied if it denies."""
    denied: list[Denied] = []
    async with anyio.create_task_group() as tg:
        async def via_host() -> None:
            try:
                _verdict(await host())
            except Denied as exc:
                denied.append(exc)
            except Exception:  # noqa: BLE001 - the host cannot ask: the person still can
                return
            tg.cancel_scope.cancel()

        async def via_person() -> None:
            try:
                await person()
            except Denied as exc:
                denied.append(exc)
            tg.cancel_scope.cancel()

        tg.start_soon(via_host)
        tg.start_soon(via_person)
    if denied:
        raise denied[0]


async def request_approval(ctx: ServerRequestContext[Any, Any],
                           params: types.CallToolRequestParams, message: str,
                           policy: str, issued: IssuedApprovals,
                           desk: OperatorDesk | None = None, tool: str = ''
                           ) -> types.InputRequiredResult | None:
    """
    Ask the user (and the person at ``desk``); return None when approved, or a result to send.

    Raises :class:`Denied` when the user declines or the client cannot ask.
    """
    modern = ctx.protocol_version in MODERN_PROTOCOL_VERSIONS
    answer = (params.input_responses or {}).get(KEY)
    person = desk if desk is not None and desk.present() else None
    if answer is not None and modern and issued.settle(params.request_state):
        if desk is not None and desk.ruling(params.request_state or ''):
            return None  # the person approved before the host answered
        if isinstance(answer, types.ElicitResult):
            _verdict(answer)
            return None
        raise Denied(t('approval_not_elicitation'))
    if not ctx.session.check_client_capability(ELICITATION):
        if person is not None:
            await person.decide(tool, message)
            return None
        if policy == 'allow':
            return None
        raise Denied(t('approval_unsupported'))
    if modern:
        state = issued.issue()
        if person is not None:
            person.offer(state, tool, message)
        return types.InputRequiredResult(
            input_requests={KEY: types.ElicitRequest(params=types.ElicitRequestFormParams(
                message=message, requested_schema=SCHEMA))},
            request_state=state)

    async def host() -> types.ElicitResult:
        return await ctx.session.elicit_form(message, SCHEMA, related_request_id=ctx.request_id)
    if person is not None:
        await _first_decision(host, lambda: person.decide(tool, message))
        return None
    _verdict(await host())
    return None
