"""
How a job's steps reach the robot: run, or (``plan_only``) planned and checked, moving nothing.

The jobs in :mod:`.pick_place` say what each step does (a free move, a straight
line, a guarded touch, a gripper action) through a :class:`Steps`; :class:`Run`
sends it to the port, :class:`Preview` plans it instead and records the step
plan: each arm motion planned from the end state of the one before, carrying
what the hand would hold (``planned``); a guarded touch ends in contact by
design and is not planned (``contact``), gripper actions are not run
(``gripper``). A run after an approval executes the approved chain's plans in
turn; a motion whose plan no longer starts where the arm is (after a touch) or
goes elsewhere is planned again, and so is every motion after it.
"""

from __future__ import annotations

from dataclasses import replace
import math
from typing import Any

from mcp_ros_bridge.backends.port import (BackendError, CartesianGoal, GraspGoal, GripStatus,
                                          MotionLimits, MotionResult, MotionStatus, Plan, Pose,
                                          PoseGoal, ReleaseGoal, RobotState)
from mcp_ros_bridge.capabilities.base import CallContext, NUM, STR, XYZ
from mcp_ros_bridge.capabilities.guarded import approach
from mcp_ros_bridge.capabilities.jobs import Job
from mcp_ros_bridge.capabilities.preview import previews_plans, unsupported

STEP_M = 0.005
SAME_TARGET_M = 0.002  # an approved plan runs for a step whose target is this close to its own
GRASP_SPEED_MPS, GRIP_TIMEOUT_S = 0.05, 10.0
STEP_PLAN = {'type': 'array', 'items': {'type': 'object', 'properties': {
    'step': STR, 'action': STR, 'target_m': XYZ, 'check': STR, 'duration_s': NUM}}}


def _xyz(p: tuple[float, ...]) -> dict[str, float]:
    return {k: round(float(v), 4) for k, v in zip('xyz', p)}


class Steps:
    """What a job's steps do, in the base frame; :class:`Run` moves, :class:`Preview` plans."""

    def __init__(self, ctx: CallContext, job: Job, lim: MotionLimits) -> None:
        """Keep the call, the job and the motion limits of every step."""
        self.ctx, self.job, self.lim = ctx, job, lim
        self.base, self.link = ctx.robot.base_frame, ctx.robot.end_effector

    def pose(self, xyz: tuple[float, ...], q: tuple[float, float, float, float]) -> Pose:
        """Return the fingertip pose ``xyz`` with orientation ``q`` in the base frame."""
        return Pose(xyz, q, self.base)  # type: ignore[arg-type]

    def _open_goal(self) -> ReleaseGoal:
        return ReleaseGoal(self.ctx.robot.gripper_max_width_m, GRASP_SPEED_MPS, GRIP_TIMEOUT_S)

    async def free(self, target: Pose) -> None:
        """Move the fingertip freely to ``target``."""
        raise NotImplementedError

    async def line(self, target: Pose, free: bool = False,
                   touch: frozenset[str] = frozenset()) -> None:
        """
        Move straight to ``target`` (``free``: a free motion where no line is).

        ``touch``: the known objects the hand may touch on the way.
        """
        raise NotImplementedError

    async def touch(self, start: Pose, distance_m: float, force_n: float) -> MotionResult | None:
        """Approach down from ``start`` until contact."""
        raise NotImplementedError

    async def release(self) -> None:
        """Open the fingers fully."""
        raise NotImplementedError

    async def grasp(self, force_n: float) -> None:
        """Close on the object and hold it with ``force_n``."""
        raise NotImplementedError

    async def here(self) -> Pose:
        """Return where the fingertip is (or would be, after the steps so far)."""
        raise NotImplementedError


class Run(Steps):
    """
    Run the steps through the port (each failure is the step's fixable error).

    After an approval the result's ``plans_run_as_approved`` counts the motions
    that ran their approved plan.
    """

    def __init__(self, ctx: CallContext, job: Job, lim: MotionLimits) -> None:
        """Take the chain the person approved, if any, to run its plans in turn."""
        super().__init__(ctx, job, lim)
        approved = ctx.approved
        self.approved: list[Plan] = list(approved) if isinstance(approved, tuple) else []
        if self.approved:
            job.structured['plans_run_as_approved'] = 0

    async def _approved(self, target: Pose) -> MotionResult | None:
        """Run the next approved plan if it goes to ``target`` from where the arm is; else None."""
        if not self.approved:
            return None
        plan = self.approved.pop(0)
        aim = plan.target
        if aim is None or math.dist(aim.position, target.position) > SAME_TARGET_M:
            self.approved.clear()  # the job went another way: it plans the rest as it runs
            return None
        try:
            result = await self.ctx.backend.execute(plan, self.job.sub)
        except BackendError as exc:
            if exc.code != 'STALE_PLAN':
                raise
            self.approved.clear()  # the arm is elsewhere (a touch ended it): plan from there
            return None
        self.job.structured['plans_run_as_approved'] += 1
        return result

    async def free(self, target: Pose) -> None:
        """Plan and run a free motion of the fingertip to ``target``."""
        result = await self._approved(target)
        if result is None:
            result = await self.ctx.backend.move_to_pose(
                PoseGoal(target, self.lim, link=self.link), self.job.sub)
        await self.job.moved(result)

    async def line(self, target: Pose, free: bool = False,
                   touch: frozenset[str] = frozenset()) -> None:
        """Move in a straight line to ``target``; ``free``: a free motion where no line is."""
        approved = await self._approved(target)
        if approved is not None:
            await self.job.moved(approved)
            return
        goal = CartesianGoal([target], self.lim, link=self.link, max_step_m=STEP_M,
                             may_touch=touch)
        result = await self.ctx.backend.follow_cartesian_path(goal, self.job.sub)
        if free and result.status is MotionStatus.PARTIAL:
            result = await self.ctx.backend.move_to_pose(
                PoseGoal(target, self.lim, link=self.link), self.job.sub)
        await self.job.moved(result)

    async def touch(self, start: Pose, distance_m: float, force_n: float) -> MotionResult | None:
        """Approach straight down from ``start`` (where the arm is) until contact."""
        speed = self.ctx.robot.limits.max_guarded_speed_mps
        touch = await approach(self.ctx, (0.0, 0.0, -1.0), distance_m, speed, force_n,
                               self.job.sub)
        self.job.took(touch.duration_s)
        if touch.status.value not in ('CONTACT_ABORT', 'SUCCEEDED'):
            await self.job.moved(replace(touch, duration_s=0.0))
        return touch

    async def release(self) -> None:
        """Open the fingers fully."""
        await self.job.gripped(await self.ctx.backend.release(self._open_goal(), self.job.sub),
                               GripStatus.OPEN)

    async def grasp(self, force_n: float) -> None:
        """Close on the object and hold it with ``force_n``."""
        await self.job.gripped(await self.ctx.backend.grasp(
            GraspGoal(force_n, GRASP_SPEED_MPS, GRIP_TIMEOUT_S), self.job.sub),
            GripStatus.HOLDING)

    async def here(self) -> Pose:
        """Return the fingertip pose now."""
        return await self.ctx.backend.end_effector_pose(self.base, self.link)


class Preview(Steps):
    """
    Plan and check the steps as a chain; nothing moves. ``plan`` is the step plan so far.

    Each motion is planned from the end state of the one before (the first from
    where the arm is), with what the hand would hold then, and passes the same
    checks the run's plan will (on ROS: MoveIt plans from that start state).
    """

    def __init__(self, ctx: CallContext, job: Job, lim: MotionLimits) -> None:
        """Start with no step planned and the arm where it is."""
        super().__init__(ctx, job, lim)
        self.plan: list[dict[str, Any]] = []
        self.state: RobotState | None = None  # where the steps so far would leave the arm
        self.held: str | None = None  # what the hand would hold (None: what it holds now)
        self.last: Pose | None = None

    @staticmethod
    async def available(ctx: CallContext, args: dict[str, Any]) -> None:
        """Refuse plan_only on a backend that cannot preview a plan."""
        if not await previews_plans(ctx.backend):
            raise unsupported(args)

    def _record(self, action: str, target: Pose | None, check: str,
                duration_s: float | None = None) -> None:
        step: dict[str, Any] = {'step': self.job.current, 'action': action, 'check': check}
        if target is not None:
            step['target_m'] = _xyz(target.position)
            self.last = target
        if duration_s is not None and check == 'planned':  # a check's plan starts elsewhere
            step['duration_s'] = round(duration_s, 3)
            self.job.took(duration_s)
        self.plan.append(step)

    async def _planned(self, goal: PoseGoal | CartesianGoal,
                       free: bool = False) -> tuple[str, float]:
        """
        Plan ``goal`` from the chain's state; return how it was checked and its duration.

        ``free``: a line that is not feasible (PARTIAL) is planned as a free motion, as
        the run does. A plan that could not run fails the step with the run's error.
        """
        b, start = self.ctx.backend, self.state
        if start is not None and self.held is not None and self.held != start.held:
            start = replace(start, held=self.held)
        plan = await b.plan(goal, start)
        if free and isinstance(goal, CartesianGoal) and plan.status is MotionStatus.PARTIAL:
            return await self._planned(PoseGoal(goal.waypoints[-1], goal.limits, link=self.link))
        if not plan.executable:
            await self.job.moved(MotionResult(plan.status, plan.message, fraction=plan.fraction,
                                              details=plan.details))
        self.state = plan.end
        if self.ctx.chain is not None:
            self.ctx.chain.append(plan)
        return 'planned', plan.duration_s

    async def free(self, target: Pose) -> None:
        """Plan the free motion from where the steps before would leave the arm."""
        check, took = await self._planned(PoseGoal(target, self.lim, link=self.link))
        self._record('free', target, check, took)

    async def line(self, target: Pose, free: bool = False,
                   touch: frozenset[str] = frozenset()) -> None:
        """Plan the straight line from where the steps before would leave the arm."""
        goal = CartesianGoal([target], self.lim, link=self.link, max_step_m=STEP_M,
                             may_touch=touch)
        check, took = await self._planned(goal, free)
        self._record('line', target, check, took)

    async def touch(self, start: Pose, distance_m: float, force_n: float) -> MotionResult | None:
        """Record the guarded touch-down: from ``start`` down at most ``distance_m``."""
        end = (*start.position[:2], start.position[2] - distance_m)
        self._record('until_contact', self.pose(end, start.orientation), 'contact')
        return None

    async def release(self) -> None:
        """Record the opening of the fingers: from here on the hand holds nothing."""
        self.held = ''
        self._record('open', None, 'gripper')

    async def grasp(self, force_n: float) -> None:
        """Record the grasp: the later steps are planned carrying the job's object."""
        self.held = self.job.held
        self._record('grasp', None, 'gripper')

    async def here(self) -> Pose:
        """Return where the previous step would have left the fingertip."""
        return self.last if self.last is not None else await self.ctx.backend.end_effector_pose(
            self.base, self.link)
