"""
A backend created and started in the background, so the server answers meanwhile.

Listing tools needs only the catalog, not the robot: the server can answer
``initialize`` and ``tools/list`` while the backend's heavy imports (MuJoCo,
rclpy) and its start-up run. Every port call waits until the backend is up,
or fails with UNAVAILABLE naming why it did not start. :func:`serve_while_starting`
runs the transport and the start side by side; a failed start ends both.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, TYPE_CHECKING

from mcp_ros_bridge.backends.port import (BackendError, BackendInfo, CartesianGoal, GraspGoal,
                                          GripperState, GripResult, GuardedGoal, Image,
                                          JointGoal, JointStates, MotionGoal, MotionResult, Plan,
                                          Pose, PoseGoal, ProgressFn, ReleaseGoal, RobotBackend,
                                          RobotState, WrenchSamples)
from mcp_ros_bridge.catalog.robot import RobotConfig
from mcp_ros_bridge.messages import t

if TYPE_CHECKING:
    from mcp_ros_bridge.catalog.bindings import ActionBinding, ServiceBinding, TopicBinding


class DeferredBackend(RobotBackend):
    """
    The backend port over a backend that :meth:`start` creates and starts.

    Every port method is written out (no ``__getattr__``): each waits for the
    start, then calls the started backend.
    """

    def __init__(self, name: str, create: Callable[[], RobotBackend],
                 start: Callable[[RobotBackend], Awaitable[None]] | None = None) -> None:
        """
        Remember how to create the backend; nothing is imported or started yet.

        ``start`` starts the created backend (default: its ``start()``); calls
        wait until it returns.
        """
        self._info = BackendInfo(name, f'the {name} backend (starting)')
        self._create = create
        self._start = start or _start
        self._backend: RobotBackend | None = None
        self._failure: BaseException | None = None
        self._done: asyncio.Event | None = None
        self._config: RobotConfig | None = None  # a reload before the backend was created

    @property
    def info(self) -> BackendInfo:
        """Return the started backend's info, or a placeholder naming it while it starts."""
        return self._info

    def reconfigure(self, config: RobotConfig) -> None:
        """Pass a reloaded robot.yaml on, now or (still starting) once the backend exists."""
        self._config = config
        if self._backend is not None:
            self._configure(self._backend)

    def _configure(self, backend: RobotBackend) -> None:
        if self._config is not None:
            backend.reconfigure(self._config)

    def _event(self) -> asyncio.Event:
        if self._done is None:
            self._done = asyncio.Event()
        return self._done

    async def start(self) -> None:
        """Create the backend off the event loop, then start it; raise what failed."""
        try:
            backend = await asyncio.to_thread(self._create)
            self._configure(backend)
            await self._start(backend)
            self._backend, self._info = backend, backend.info
            self._configure(backend)  # a reload while it started
        except BaseException as exc:
            self._failure = exc
            raise
        finally:
            self._event().set()

    async def wait_started(self) -> BackendInfo:
        """Wait until the start ended; return the started backend's info (UNAVAILABLE if none)."""
        return (await self._ready()).info

    async def _ready(self) -> RobotBackend:
        await self._event().wait()
        if self._backend is None:
            raise BackendError('UNAVAILABLE', t('backend_not_started', name=self.info.name,
                                                failure=self._failure),
                               advice=t('backend_not_started_fix'))
        return self._backend

    async def close(self) -> None:
        """Wait for a start in progress to end, then close the backend if it started."""
        if self._done is not None:
            await self._done.wait()
        if self._backend is not None:
            await self._backend.close()

    async def ready(self, timeout_s: float) -> list[str]:
        """Wait for the start, then for what the started backend needs to serve."""
        return await (await self._ready()).ready(timeout_s)

    async def joint_states(self) -> JointStates:
        """Wait for the start; read the joint states."""
        return await (await self._ready()).joint_states()

    async def wrench_samples(self, count: int) -> WrenchSamples:
        """Wait for the start; read wrench samples."""
        return await (await self._ready()).wrench_samples(count)

    async def end_effector_pose(self, frame: str, link: str = '') -> Pose:
        """Wait for the start; read a link's pose."""
        return await (await self._ready()).end_effector_pose(frame, link)

    async def tip_poses(self, joint_rows: Sequence[Sequence[float]]) -> list[Pose]:
        """Wait for the start; compute tip poses."""
        return await (await self._ready()).tip_poses(joint_rows)

    async def plan(self, goal: MotionGoal, start: RobotState | None = None) -> Plan:
        """Wait for the start; plan a motion."""
        return await (await self._ready()).plan(goal, start)

    async def execute(self, plan: Plan, progress: ProgressFn | None = None) -> MotionResult:
        """Wait for the start; run a plan."""
        return await (await self._ready()).execute(plan, progress)

    async def move_to_pose(self, goal: PoseGoal,
                           progress: ProgressFn | None = None) -> MotionResult:
        """Wait for the start; move to a pose."""
        return await (await self._ready()).move_to_pose(goal, progress)

    async def move_to_joints(self, goal: JointGoal,
                             progress: ProgressFn | None = None) -> MotionResult:
        """Wait for the start; move to joint positions."""
        return await (await self._ready()).move_to_joints(goal, progress)

    async def follow_cartesian_path(self, goal: CartesianGoal,
                                    progress: ProgressFn | None = None) -> MotionResult:
        """Wait for the start; follow a straight-line path."""
        return await (await self._ready()).follow_cartesian_path(goal, progress)

    async def move_until_contact(self, goal: GuardedGoal,
                                 progress: ProgressFn | None = None) -> MotionResult:
        """Wait for the start; move until contact."""
        return await (await self._ready()).move_until_contact(goal, progress)

    async def stop(self) -> MotionResult:
        """Wait for the start; stop."""
        return await (await self._ready()).stop()

    async def grasp(self, goal: GraspGoal, progress: ProgressFn | None = None) -> GripResult:
        """Wait for the start; grasp."""
        return await (await self._ready()).grasp(goal, progress)

    async def release(self, goal: ReleaseGoal,
                      progress: ProgressFn | None = None) -> GripResult:
        """Wait for the start; release."""
        return await (await self._ready()).release(goal, progress)

    async def gripper_state(self) -> GripperState:
        """Wait for the start; read the gripper state."""
        return await (await self._ready()).gripper_state()

    async def capture_image(self, camera: str, width: int, height: int) -> Image:
        """Wait for the start; capture an image."""
        return await (await self._ready()).capture_image(camera, width, height)

    async def object_pose(self, name: str, frame: str) -> Pose:
        """Wait for the start; read an object's pose."""
        return await (await self._ready()).object_pose(name, frame)

    async def read_topic(self, binding: TopicBinding) -> dict[str, Any]:
        """Wait for the start; read a declared topic."""
        return await (await self._ready()).read_topic(binding)

    async def call_service(self, binding: ServiceBinding,
                           request: Mapping[str, Any]) -> dict[str, Any]:
        """Wait for the start; call a declared service."""
        return await (await self._ready()).call_service(binding, request)

    async def send_action_goal(self, binding: ActionBinding, goal: Mapping[str, Any],
                               progress: ProgressFn | None = None) -> dict[str, Any]:
        """Wait for the start; send a declared action goal."""
        return await (await self._ready()).send_action_goal(binding, goal, progress)


async def _start(backend: RobotBackend) -> None:
    await backend.start()


SERVE_STOP_S = 2.0  # how long a failed start waits for serving to end once cancelled


async def serve_while_starting(backend: DeferredBackend, serving: Awaitable[None],
                               stuck: Callable[[BaseException], None] | None = None) -> None:
    """
    Run ``serving`` while ``backend`` starts; a failed start stops serving and is raised.

    A start in progress is never cancelled (a half-started ROS node could not be
    shut down in order): when serving ends first, the start is awaited. Serving
    that does not end within :data:`SERVE_STOP_S` of a failed start (a stdio
    server blocked reading an open stdin) is handed to ``stuck`` with the failure,
    which must end the process: the client then sees EOF instead of a hang.
    """
    start = asyncio.ensure_future(backend.start())
    serve = asyncio.ensure_future(serving)
    try:
        await asyncio.wait({start, serve}, return_when=asyncio.FIRST_COMPLETED)
        failure = start.exception() if start.done() and not start.cancelled() else None
        if failure is not None:
            serve.cancel()
            await asyncio.wait({serve}, timeout=SERVE_STOP_S)
            if not serve.done() and stuck is not None:
                stuck(failure)
            raise failure
        await serve
    finally:
        if not serve.done():
            serve.cancel()
        await asyncio.gather(serve, start, return_exceptions=True)
