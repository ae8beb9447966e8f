"""
The ``tools/call`` pipeline: contract, safety, capability, result, audit.

Order per call: look up the tool (unknown → JSON-RPC error), validate strictly
(nothing reaches the backend otherwise), fill defaults, then for motion tools
operator hold, lease (server/leased.py), rate limit, approval, idempotency and
the one-motion arbiter, then the
capability on the enveloped backend. Cancellation, a vanished requester or
stop_arm during a motion stops the robot (awaited in a shielded, bounded scope)
before the arm is released and the cancellation propagates (deadman).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
import logging
import sys
import time
import traceback
from typing import Any

import anyio
from mcp.shared.exceptions import MCPError
from mcp_ros_bridge.backends.port import BackendError, Chain, Plan, RobotBackend
from mcp_ros_bridge.capabilities import CallContext, Kind, KINDS
from mcp_ros_bridge.capabilities.memory import RobotMemory
from mcp_ros_bridge.capabilities.plan_ids import chain_facts, plan_facts
from mcp_ros_bridge.capabilities.preview import previews_plans
from mcp_ros_bridge.catalog.defaults import fill_defaults
from mcp_ros_bridge.catalog.loader import Catalog, ToolSpec
from mcp_ros_bridge.contract.errors import not_an_object_text, validation_error_text
from mcp_ros_bridge.contract.results import (backend_error_result, end_of, error_block,
                                             error_result, outcome_result)
from mcp_ros_bridge.contract.validation import ArgumentValidator, problem_field
from mcp_ros_bridge.messages import speaking, t
from mcp_ros_bridge.safety.approval import (Denied, IssuedApprovals, OperatorDesk,
                                            request_approval)
from mcp_ros_bridge.safety.approval_text import card_facts, plan_summary
from mcp_ros_bridge.safety.arbiter import (BusyError, MotionArbiter, OperatorHold,
                                           StoppedBeforeStart, stopping_once_cancelled)
from mcp_ros_bridge.safety.envelope import EnvelopedBackend
from mcp_ros_bridge.safety.idempotency import IdempotencyCache
from mcp_ros_bridge.safety.ratelimit import RateLimiter
from mcp_ros_bridge.server import heartbeat
from mcp_ros_bridge.server.audit import AuditLog
from mcp_ros_bridge.server.console.hold import held_result
from mcp_ros_bridge.server.identity import (peer, RequestContext, requester_key, scope_or_none,
                                            session_scope)
from mcp_ros_bridge.server.leased import lease_scope, LeaseGate
from mcp_ros_bridge.server.live_config import carry_over
from mcp_ros_bridge.server.repeats import run_once
from mcp_ros_bridge.server.stopped import note_where_stopped, stopped_result
import mcp_types as types

log = logging.getLogger('mcp_ros_bridge.calls')
GONE_REMEMBERED = 256
CANCELLED = 'why_cancelled'  # stop reasons are message ids (server/stopped.py renders them)


@dataclass
class CallSettings:
    """Policies of the call pipeline."""

    approval_policy: str = 'deny'
    motion_rate_per_s: float = 2.0
    motion_burst: int = 10
    idempotency_ttl_s: float = 600.0
    read_timeout_s: float = 15.0
    stop_wait_s: float = 5.0
    heartbeat_timeout_s: float = 0.0  # 0: off (server/heartbeat.py)
    lease_ttl_s: float = 60.0  # a motion's session holds the arm this long after its last call
    lang: str = 'en'  # of every result and error text (messages.LANGS)


class CallPipeline:
    """Runs tool calls against one backend with the safety layer in front of it."""

    def __init__(self, backend: RobotBackend, catalog: Catalog, settings: CallSettings,
                 audit: AuditLog) -> None:
        """Wrap ``backend`` in the envelope and set up the safety state."""
        self.raw_backend = backend
        self.settings = settings
        self.audit = audit
        self.arbiter = MotionArbiter()
        self.idempotency = IdempotencyCache(settings.idempotency_ttl_s)
        self.approvals = IssuedApprovals()
        self.rate = RateLimiter(settings.motion_rate_per_s, settings.motion_burst)
        self.leases = LeaseGate(settings.lease_ttl_s)
        self.memory = RobotMemory()  # what calls keep about the robot (held object, tare)
        self.desk: OperatorDesk | None = None  # the operator console, when one is served
        self.progress_watchers: list[Callable[[str, float, str], None]] = []
        self._validators: dict[tuple[str, str], ArgumentValidator] = {}
        self._gone: OrderedDict[tuple[str, str], None] = OrderedDict()
        self.set_catalog(catalog)

    def set_catalog(self, catalog: Catalog) -> None:
        """
        Install a (re)loaded catalog and everything derived from it, in one step.

        The envelope, the backend's settings and the state kept for robot.yaml
        (a tare taken against another gripper model) change together; call it
        between motions. Validators compile once per tool version.
        """
        old: Catalog | None = getattr(self, 'catalog', None)
        self.catalog = catalog
        self.backend = EnvelopedBackend(self.raw_backend, catalog.robot)
        if old is not None and old.robot_hash != catalog.robot_hash:
            carry_over(old.robot, catalog.robot, self.raw_backend, self.memory)
        keep = {(t.name, catalog.content_hash) for t in catalog.tools}
        self._validators = {k: v for k, v in self._validators.items() if k in keep}

    def validator(self, spec: ToolSpec) -> ArgumentValidator:
        """Return the compiled validator for ``spec``."""
        key = (spec.name, self.catalog.content_hash)
        v = self._validators.get(key)
        if v is None:
            v = self._validators[key] = ArgumentValidator(spec.input_schema)
        return v

    async def call(self, ctx: RequestContext, params: types.CallToolRequestParams
                   ) -> types.CallToolResult | types.InputRequiredResult:
        """Handle one ``tools/call``; its texts are in the server's language."""
        with speaking(self.settings.lang):
            return await self._call(ctx, params)

    async def _call(self, ctx: RequestContext, params: types.CallToolRequestParams
                    ) -> types.CallToolResult | types.InputRequiredResult:
        # One audit line for every call received, however it ends: written in ``finally``
        # (a plain file write, no await), so a cancelled call, a client that vanished and a
        # server shutting down mid-call are recorded too.
        started = time.monotonic()
        outcome, code = 'cancelled', None
        ended: dict[str, Any] = {}
        spec = None
        try:
            spec = self.catalog.get(params.name)
            if spec is None:
                outcome = 'unknown_tool'
                names = ', '.join(t.name for t in self.catalog.tools)
                raise MCPError(code=types.INVALID_PARAMS,
                               message=f'Unknown tool: {params.name}. Available tools: {names}')
            args = params.arguments if params.arguments is not None else {}
            result = await self._checked(ctx, params, spec, args)
            if isinstance(result, types.CallToolResult):
                outcome = 'error' if result.is_error else 'ok'
                code = error_block(result).get('code')
                ended = end_of(result)
            else:
                outcome = 'input_required'  # approval asked; the retry is its own call
            return result
        except anyio.get_cancelled_exc_class():
            raise
        except Exception:
            if outcome != 'unknown_tool':
                outcome, code = 'error', 'INTERNAL'
            raise
        finally:
            self.audit.record(params.name, {} if params.arguments is None else params.arguments,
                              outcome, time.monotonic() - started, code=code,
                              call_id=str(getattr(ctx, 'request_id', '')),
                              session=scope_or_none(ctx), **ended)
            if spec is not None:
                self._note_plan(spec, params.arguments, outcome, code, ended, ctx)

    def _note_plan(self, spec: ToolSpec, args: Any, outcome: str, code: Any,
                   ended: dict[str, Any], ctx: RequestContext) -> None:
        """Note a plan id issued (a plan-only motion) or run (``execute_plan``) as an event."""
        call = {'tool': spec.name, 'call_id': str(getattr(ctx, 'request_id', ''))}
        if spec.kind == 'execute_plan':
            plan_id = args.get('plan_id') if isinstance(args, dict) else None
            if isinstance(plan_id, str) and outcome in ('ok', 'error'):
                self.audit.note('plan_executed', plan_id=plan_id, outcome=outcome, code=code,
                                **call)
        elif outcome == 'ok' and 'plan_id' in ended:
            self.audit.note('plan_issued', plan_id=ended['plan_id'], **call)

    async def _checked(self, ctx: RequestContext, params: types.CallToolRequestParams,
                       spec: ToolSpec,
                       args: Any) -> types.CallToolResult | types.InputRequiredResult:
        if not isinstance(args, dict):
            return error_result(not_an_object_text(spec.name, args), 'INVALID_ARGUMENTS')
        kind = KINDS[spec.kind]
        validator = self.validator(spec)
        problems = validator.problems(args)
        if problems:
            returns = t(kind.returns) if kind.returns else ''
            text = validation_error_text(spec.name, problems, validator, returns)
            return error_result(text, 'INVALID_ARGUMENTS',
                                {'fields': [problem_field(p) for p in problems]})
        args = fill_defaults(spec.input_schema, args)
        self.leases.renew(ctx)  # any valid call of the holder keeps its lease
        if kind.preempts:
            return await self._run(ctx, spec, kind, args)
        if not kind.motion:
            return await self._run(ctx, spec, kind, args, timeout=self.settings.read_timeout_s)
        return await self._motion(ctx, params, spec, kind, args)

    async def _motion(self, ctx: RequestContext, params: types.CallToolRequestParams,
                      spec: ToolSpec, kind: Kind, args: dict[str, Any]
                      ) -> types.CallToolResult | types.InputRequiredResult:
        epoch = self.arbiter.stop_epoch
        # plan_only moves nothing, so it neither uses nor consumes an idempotency key: the
        # real call with that key still runs once.
        key = None if args.get('plan_only') else args.get('idempotency_key')
        # A repeat of a known key waits for (or replays) the first call: it is not rate
        # limited, refused as BUSY or asked for approval again, since it will not move.
        scope = session_scope(ctx)
        repeat = key is not None and self.idempotency.known(scope, spec.name, key)
        if not repeat:
            refusal = await self._refusal(ctx, spec, moves=not args.get('plan_only'))
            if refusal is not None:
                return refusal
        approved: Plan | Chain | None = None
        if spec.requires_approval and not repeat:
            planned = await self._plan_for_approval(ctx, params, spec, kind, args, epoch)
            if isinstance(planned, types.CallToolResult):
                return planned  # it cannot be planned: nothing to approve, nothing moved
            facts = self._approval_facts(planned, args)
            try:
                summary = await plan_summary(spec, args, self.backend, self.catalog.robot,
                                             facts)
                pending = await request_approval(
                    ctx, params, summary, self.settings.approval_policy, self.approvals,
                    self.desk, spec.name, planned,
                    card_facts(facts, self.catalog.robot, args) if facts is not None else None)
            except Denied as exc:
                self.audit.note('approval', tool=spec.name, outcome='denied', reason=str(exc))
                return error_result(t('not_approved', tool=spec.name, reason=exc),
                                    'NOT_APPROVED')
            if pending is not None:
                return pending
            self.audit.note('approval', tool=spec.name, outcome='approved')
            approved = planned

        def run() -> Awaitable[types.CallToolResult]:
            return self._hold_and_run(ctx, spec, kind, args, epoch, approved)
        if key is None:
            return await run()
        return await run_once(self.idempotency, scope, spec.name, key, args, run)

    def _approval_facts(self, planned: Plan | Chain | None,
                        args: dict[str, Any]) -> dict[str, Any] | None:
        """Return the facts an approval shows: the plan's, the job chain's, or none."""
        if isinstance(planned, tuple):
            return chain_facts(list(planned))
        shown = planned  # the plan just made; for execute_plan, the kept plan it runs
        if shown is None and 'plan_id' in args:
            shown = self.memory.plans.peek(str(args['plan_id']))
        return plan_facts(shown) if shown is not None else None

    async def _plan_for_approval(self, ctx: RequestContext, params: types.CallToolRequestParams,
                                 spec: ToolSpec, kind: Kind, args: dict[str, Any], epoch: int
                                 ) -> Plan | Chain | types.CallToolResult | None:
        """
        Plan a motion before asking, so the person approves what the plan says.

        A single-plan motion returns its plan, a job that previews its chain of arm
        plans (on a 2026-07-28 retry: what its request showed); what is approved then
        runs. The result of a motion that cannot be planned (nothing moved) is returned
        as it is; None: no plan to show (a preview, a job that does not preview, a
        backend that cannot plan ahead).
        """
        job = not kind.plans and 'plan_only' in kind.parameters
        if (not (kind.plans or job) or args.get('plan_only')
                or not await previews_plans(self.backend)):
            return None
        shown = self.approvals.plan_of(params.request_state)
        if shown is not None or (job and self.approvals.is_open(params.request_state)):
            return shown  # the retry of a request: what it showed runs
        chain: list[Plan] = []
        preview = await self._hold_and_run(ctx, spec, kind, {**args, 'plan_only': True}, epoch,
                                           chain=chain)
        if preview.is_error:
            return preview
        if job:  # every arm motion planned from where the one before ends
            return tuple(chain) or None
        plan_id = (preview.structured_content or {}).get('plan_id')
        if not isinstance(plan_id, str):
            return preview
        return self.memory.plans.take(plan_id)  # the approval holds it, not the agent

    async def _refusal(self, ctx: RequestContext, spec: ToolSpec,
                       moves: bool) -> types.CallToolResult | None:
        if self.arbiter.held_since is not None:
            return held_result(spec.name, self.arbiter.held_since)
        if moves:  # a preview moves nothing: it neither needs nor takes the lease
            leased = self.leases.claim(ctx, spec.name)
            if leased is not None:
                return leased
        running = self.arbiter.running
        if running is not None and running.preempted_by:
            # The held motion is already being stopped (stop_arm, cancel, deadman): a new
            # motion waits for the arm to be still rather than being refused as BUSY.
            await self.arbiter.wait_idle(self.settings.stop_wait_s)
        wait = self.rate.take(peer(ctx))
        if wait > 0:
            return error_result(t('rate_limited', tool=spec.name, wait=f'{wait:.1f}'),
                                'RATE_LIMITED', {'retry_after_s': round(wait, 2)})
        if self.arbiter.running is not None:
            return error_result(t('refused', tool=spec.name,
                                  reason=BusyError(self.arbiter.running)),
                                'BUSY', {'running_tool': self.arbiter.running.tool})
        return None

    async def _hold_and_run(self, ctx: RequestContext, spec: ToolSpec, kind: Kind,
                            args: dict[str, Any], epoch: int,
                            approved: Plan | Chain | None = None,
                            chain: list[Plan] | None = None) -> types.CallToolResult:
        request = requester_key(ctx)
        if request is not None and request in self._gone:
            return stopped_result(spec, 'why_gone_before')
        try:
            with self.arbiter.hold(spec.name, session_scope(ctx), request, epoch) as motion:
                def silent() -> None:
                    if self.arbiter.preempt('why_client_silent',
                                            lambda _: self.arbiter.running is motion):
                        log.warning('%s mid-motion; stopping the arm', t('why_client_silent'))
                        self.audit.note('deadman_stop', tool=spec.name,
                                        reason='why_client_silent')
                async with stopping_once_cancelled(motion, CANCELLED), heartbeat.watching(
                        ctx.session, ctx.request_id, self.settings.heartbeat_timeout_s, silent):
                    return await self._run(ctx, spec, kind, args, approved=approved,
                                           chain=chain)
        except BusyError as exc:
            return error_result(t('refused', tool=spec.name, reason=exc), 'BUSY',
                                {'running_tool': exc.running.tool})
        except OperatorHold as exc:
            return held_result(spec.name, exc.since)
        except StoppedBeforeStart:
            return stopped_result(spec, 'why_stop_arm_after')
        # Only reached when the motion was preempted (its cancel scope caught the cancel).
        return stopped_result(spec, motion.preempted_by, motion)

    def requester_gone(self, session: str, request_id: str | None = None) -> None:
        """
        Stop the motion an HTTP request (or any of a session's) started: its client left.

        A request is remembered for a while, so a call still on its way to the
        arbiter never starts.
        """
        if request_id is not None:
            self._gone[(session, request_id)] = None
            while len(self._gone) > GONE_REMEMBERED:
                self._gone.popitem(last=False)
            why = 'why_client_gone'
        else:
            why = 'why_session_ended'

        def started_by(request: object) -> bool:
            return isinstance(request, tuple) and request[0] == session and (
                request_id is None or request[1] == request_id)

        stopped = self.arbiter.preempt(why, started_by)
        if stopped:
            log.warning('%s mid-motion; stopping the arm', t(why))
            self.audit.note('deadman_stop', reason=why, session=session)
        if stopped or request_id is None:  # a vanished holder loses its lease with the stop
            self.leases.session_ended(session)

    async def _run(self, ctx: RequestContext, spec: ToolSpec, kind: Kind, args: dict[str, Any],
                   timeout: float | None = None, approved: Plan | Chain | None = None,
                   chain: list[Plan] | None = None) -> types.CallToolResult:
        async def progress(fraction: float, message: str) -> None:
            for watch in self.progress_watchers:
                watch(spec.name, fraction, message)
            try:
                await ctx.session.report_progress(max(0.0, min(1.0, fraction)), 1.0, message)
            except Exception:  # progress is best effort
                log.debug('progress notification failed', exc_info=True)

        scope = lease_scope(ctx)
        call_ctx = CallContext(self.backend, self.catalog.robot, spec.binding, progress,
                               memory=self.memory,
                               release_lease=lambda: self.leases.release(scope),
                               approved=approved, chain=chain)
        try:
            if kind.preempts:
                call_ctx.preempted = self.arbiter.preempt('why_stop_arm')
                outcome = await kind.run(call_ctx, args)
                if not await self.arbiter.wait_idle(self.settings.stop_wait_s):
                    log.error('the preempted motion did not release the arm within %.1f s',
                              self.settings.stop_wait_s)
            elif timeout is not None:
                outcome = await within(timeout, kind.run(call_ctx, args))
            else:
                outcome = await kind.run(call_ctx, args)
        except BackendError as exc:
            return backend_error_result(spec.name, exc)
        except asyncio.TimeoutError:
            return error_result(t('read_timed_out', tool=spec.name, timeout=timeout),
                                'TIMED_OUT', {'timeout_s': timeout})
        except anyio.get_cancelled_exc_class():
            if kind.motion:
                # Deadman: the caller cancelled, went away or was preempted. Stop the arm
                # before the cancellation unwinds (and the arbiter lets the arm go).
                running = self.arbiter.running
                if running is not None and not running.preempted_by:
                    running.preempted_by = CANCELLED
                    self.audit.note('deadman_stop', tool=spec.name, reason=CANCELLED)
                if running is None or running.preempted_by == CANCELLED:
                    self.leases.release(scope)  # the caller's own deadman: it may have gone
                with anyio.move_on_after(self.settings.stop_wait_s, shield=True) as bound:
                    await self._stop_quietly()
                if bound.cancelled_caught:
                    log.error('stop after cancellation took over %.1f s',
                              self.settings.stop_wait_s)
                if running is not None and running.scope.cancel_called:  # preempted: answered
                    await note_where_stopped(running, self.raw_backend, self.catalog.robot)
            raise
        except Exception as exc:  # noqa: BLE001 - reported to the agent, logged in full
            log.error('tool %s failed:\n%s', spec.name, traceback.format_exc())
            return error_result(t('internal_error', tool=spec.name, error=type(exc).__name__),
                                'INTERNAL')
        return outcome_result(outcome, spec.output_schema)

    async def _stop_quietly(self) -> None:
        try:
            await self.raw_backend.stop()
        except Exception:  # already on the failure path
            log.exception('stop after cancellation failed')


async def within(timeout: float, aw: Any) -> Any:
    """Await ``aw`` for at most ``timeout`` s; no extra task on Python >= 3.11."""
    if sys.version_info >= (3, 11):
        async with asyncio.timeout(timeout):
            return await aw
    return await asyncio.wait_for(aw, timeout)
