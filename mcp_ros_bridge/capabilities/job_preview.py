"""
A job run for real or as a preview (``plan_only``): the same steps, the same checks and errors.

A preview moves nothing and uses no idempotency key (the server skips the key
for plan_only); it returns the step plan (each step's action, fingertip target
and how it was checked: :mod:`.job_steps`) or the first step that would fail,
as the fixable error the run would give.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from mcp_ros_bridge.backends.port import MotionLimits
from mcp_ros_bridge.capabilities.base import CallContext, fmt, Outcome
from mcp_ros_bridge.capabilities.job_steps import Preview, Run, Steps
from mcp_ros_bridge.capabilities.jobs import Job
from mcp_ros_bridge.messages import t

StepsFn = Callable[[CallContext, dict[str, Any], Job, Steps], Awaitable[Any]]


async def preview_or_run(ctx: CallContext, args: dict[str, Any], job: Job, lim: MotionLimits,
                         steps: StepsFn) -> tuple[Any, list[dict[str, Any]] | None]:
    """Run ``steps`` (the job's value, None) or preview them (None, the step plan)."""
    if not job.preview:
        return await steps(ctx, args, job, Run(ctx, job, lim)), None
    await Preview.available(ctx, args)
    do = Preview(ctx, job, lim)
    await steps(ctx, args, job, do)
    return None, do.plan


def _describe(step: dict[str, Any]) -> str:
    where = ''
    if 'target_m' in step:
        p = step['target_m']
        where = t('job_plan_target', x=fmt(p['x']), y=fmt(p['y']), z=fmt(p['z']))
    return t('job_plan_step', step=t('step_' + step['step']), where=where,
             check=t('job_check_' + step['check']))


def planned_job(job: Job, plan: list[dict[str, Any]]) -> Outcome:
    """Return the PLANNED result of a preview: the step plan, nothing moved."""
    text = t('job_planned', tool=job.tool, steps='; '.join(_describe(s) for s in plan))
    s = {**job.structured, 'status': 'PLANNED', 'message': t('plan_only_note'),
         'steps_done': [], 'plan': plan}
    return Outcome(text, s)
