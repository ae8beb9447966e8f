"""
Jobs: tools made of several port calls, with progress per step and failures that say what happened.

A failed step ends the job with that step's fixable error and what had already
happened: the steps done, whether the gripper holds something and where the
fingertip is ("holding the box at z 0.150 m").
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
import re
from typing import Any

from mcp_ros_bridge.backends.port import BackendError, GripResult, GripStatus, MotionResult
from mcp_ros_bridge.capabilities.base import CallContext, fmt, NUM, Outcome, STR
from mcp_ros_bridge.failure import advice_for, Failure
from mcp_ros_bridge.messages import t

# a step's own "nothing moved" (en, zh), untrue of the job once earlier steps moved
_NOTHING_MOVED = re.compile(r'[Nn]othing (?:moved|was executed)(?: again)?|没有(?:执行)?任何运动')
# an unnamed geom's id ("tool0/geom11"): a model reads the link's name ("tool0")
GEOM_ID = re.compile(r'(?<=[\w.-])/geom\d+\b')
JOB_FIELDS = {'status': STR, 'message': STR, 'object': STR,
              'steps_done': {'type': 'array', 'items': STR}, 'failed_step': STR,
              'duration_s': NUM, 'plans_run_as_approved': {'type': 'integer'}}


def named(text: str) -> str:
    """Return ``text`` with internal geom ids (``tool0/geom11``) as their link's name."""
    return GEOM_ID.sub('', text)


class StepFailed(Exception):
    """A job step failed: its failure in the job's words and the robot's state after it."""

    def __init__(self, failure: Failure, state: str) -> None:
        """Keep the failure and the state ("holding the box at z 0.150 m")."""
        super().__init__(f'{failure.code}: {failure.message}')
        self.failure, self.state = failure, state


class Job:
    """Runs named steps in order, reporting progress and turning failures into outcomes."""

    def __init__(self, ctx: CallContext, tool: str, steps: list[str], held: str = '',
                 preview: bool = False) -> None:
        """Prepare ``steps`` (message ids ``step_<name>``) of ``tool``; ``preview``: plan_only."""
        self.ctx, self.tool, self.steps, self.preview = ctx, tool, steps, preview
        self.done: list[str] = []
        self.held, self.current = held, ''
        self.structured: dict[str, Any] = {'duration_s': 0.0}  # the robot's, summed per step

    async def _step_progress(self, fraction: float, message: str) -> None:
        """Report ``fraction`` of the current step as a fraction of the whole job."""
        if self.ctx.progress is None:
            return
        i = self.steps.index(self.current) if self.current in self.steps else 0
        await self.ctx.progress((i + max(0.0, min(1.0, fraction))) / len(self.steps),
                                f"{t('step_' + self.current)}: {message}")

    @property
    def sub(self) -> Any:
        """Return the progress function a backend call of this step reports to."""
        return self._step_progress if self.ctx.progress else None

    @asynccontextmanager
    async def step(self, name: str) -> AsyncIterator[None]:
        """Run one step; a BackendError inside becomes this step's failure."""
        self.current = name
        await self._step_progress(0.0, t('step_started'))
        try:
            yield
        except BackendError as exc:
            raise StepFailed(self._in_job_words(exc.failure.advised()),
                             await self.where()) from exc
        self.done.append(name)

    async def moved(self, result: MotionResult) -> MotionResult:
        """Fail the step unless the motion succeeded."""
        self.took(result.duration_s)
        if not result.succeeded:
            failed = result.failure  # its code, message and advice; the motion's facts stay out
            raise BackendError(failed.code, failed.message, advice=failed.advice.strip())
        return result

    async def gripped(self, result: GripResult, want: GripStatus) -> GripResult:
        """Fail the step unless the gripper ended in ``want`` (HOLDING or OPEN)."""
        self.took(result.duration_s)
        if result.status is not want:
            raise BackendError(result.status.value, result.message,
                               advice=t(f'job_grip_fix_{want.value}'))
        return result

    def took(self, seconds: float) -> None:
        """Add a step's motion time to the job's duration."""
        self.structured['duration_s'] = round(self.structured['duration_s'] + seconds, 3)

    async def where(self) -> str:
        """Describe the robot now: what the gripper holds and the fingertip height."""
        ctx = self.ctx
        try:
            grip = await ctx.backend.gripper_state()
            tip = await ctx.backend.end_effector_pose(ctx.robot.base_frame,
                                                      ctx.robot.end_effector)
        except BackendError:
            return t('job_state_unknown')
        z = fmt(tip.position[2], 3)
        if grip.status is GripStatus.HOLDING:
            return t('job_state_holding', object=grip.object_name or self.held or '?', z=z)
        return t('job_state_empty', status=grip.status.value, z=z)

    def _in_job_words(self, failure: Failure) -> Failure:
        """
        Return the current step's failure as the job tells it.

        Advice written for a path tool (split the path, move the waypoints) is
        replaced by the job's (``job_advice_<code>``: what to change in this
        call); internal geom ids become link names.
        """
        message = failure.message
        advice = advice_for(failure.code, 'job_advice_') or failure.advice
        if self.done and not self.preview:
            message, advice = _this_step_only(message), _this_step_only(advice)
        return replace(failure, message=named(message), advice=named(advice))

    def outcome(self, failed: StepFailed) -> Outcome:
        """Return the error outcome of the failed step with what had already happened."""
        f = failed.failure
        done = ', '.join(t('step_' + s) for s in self.done) or t('job_nothing_done')
        if self.preview and self.done:  # nothing ran: the steps before were planned, checked
            done = t('job_preview_checked', steps=done)
        text = t('job_failed', tool=self.tool, step=t('step_' + self.current), code=f.code,
                 message=f.message, advice=f.advice, done=done, state=failed.state)
        done_list = [] if self.preview else list(self.done)
        s = {**self.structured, 'status': 'FAILED', 'message': f.message,
             'steps_done': done_list, 'failed_step': self.current}
        extra = {'plan_only': True, 'steps_checked': list(self.done)} if self.preview else {}
        details = {**f.details, 'failed_step': self.current, 'steps_done': done_list,
                   'state': failed.state, **extra}
        return Outcome(text, s, replace(f, details=details))


def _this_step_only(text: str) -> str:
    """Say that the failing step, not the job, moved nothing (the steps before it ran)."""
    def said(match: re.Match[str]) -> str:
        still = t('job_step_still')
        return still[:1].upper() + still[1:] if match.group(0)[0] == 'N' else still
    return _NOTHING_MOVED.sub(said, text)


async def refuse_while_holding(ctx: CallContext, fix: str) -> None:
    """Refuse a job that needs empty fingers while the gripper holds an object (advice ``fix``)."""
    grip = await ctx.backend.gripper_state()
    if grip.status is GripStatus.HOLDING:
        raise BackendError('REJECTED', t('pick_holding', object=grip.object_name or '?'),
                           advice=t(fix))
