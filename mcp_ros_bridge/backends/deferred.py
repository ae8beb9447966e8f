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
from collections.abc import Awaitable, Callable
from typing import Any

from mcp_ros_bridge.backends.port import BackendError, BackendInfo, RobotBackend
from mcp_ros_bridge.catalog.robot import RobotConfig
from mcp_ros_bridge.messages import t


class DeferredBackend:
    """The backend port over a backend that :meth:`start` creates and starts."""

    def __init__(self, name: str, create: Callable[[], RobotBackend],
                 start: Callable[[RobotBackend], Awaitable[None]] | None = None) -> None:
        """
        Remember how to create the backend; nothing is imported or started yet.

        ``start`` starts the created backend (default: its ``start()``); calls
        wait until it returns.
        """
        self.info = BackendInfo(name, f'the {name} backend (starting)')
        self._create = create
        self._start = start or _start
        self._backend: RobotBackend | None = None
        self._failure: BaseException | None = None
        self._done: asyncio.Event | None = None
        self._config: RobotConfig | None = None  # a reload before the backend was created

    def reconfigure(self, config: RobotConfig) -> None:
        """Pass a reloaded robot.yaml on, now or (still starting) once the backend exists."""
        self._config = config
        if self._backend is not None:
            self._configure(self._backend)

    def _configure(self, backend: RobotBackend) -> None:
        hook = getattr(backend, 'reconfigure', None)
        if self._config is not None and hook is not None:
            hook(self._config)

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
            self._backend, self.info = backend, backend.info
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

    def __getattr__(self, name: str) -> Any:
        """Return the port method ``name``: it waits for the backend, then calls it."""
        if name.startswith('_'):
            raise AttributeError(name)

        async def call(*args: Any, **kwargs: Any) -> Any:
            return await getattr(await self._ready(), name)(*args, **kwargs)
        return call


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
