"""
Start the bridge: load the catalog, start the backend, serve MCP over stdio or HTTP.

:func:`serve` is the one start path of both entry points (``mcp-ros-bridge serve``
and the ROS node executable): it creates the backend, starts it once (waiting
``ready_wait_s`` for a ROS robot's sensors), serves, and closes it once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AsyncExitStack
import logging
import os
import socket
import sys
from typing import Any, Literal

import anyio
from mcp_ros_bridge.backends.deferred import DeferredBackend, serve_while_starting
from mcp_ros_bridge.backends.factory import make_backend
from mcp_ros_bridge.backends.port import BackendError, RobotBackend
from mcp_ros_bridge.capabilities import KINDS
from mcp_ros_bridge.catalog.loader import Catalog, load_catalog
from mcp_ros_bridge.catalog.robot import default_config_dir
from mcp_ros_bridge.messages import speaking, t
from mcp_ros_bridge.server.audit import AuditLog
from mcp_ros_bridge.server.bridge import BridgeServer
from mcp_ros_bridge.server.connection_guard import (ACCEPT_BATCH, connection_ceiling,
                                                    ConnectionBook, guarded_protocol,
                                                    H11_MAX_HEAD_BYTES, QuietAcceptErrors,
                                                    raise_file_limit)
from mcp_ros_bridge.server.console.panel import Console, restore_hold
from mcp_ros_bridge.server.host_guard import host_policy
from mcp_ros_bridge.server.http_transport import build_app, check_bind
from mcp_ros_bridge.server.reload import CatalogWatcher
from mcp_ros_bridge.server.settings import ServeOptions
from mcp_ros_bridge.server.state_dir import operator_secret, state_directory
from mcp_ros_bridge.server.stdio_guard import guarded_stdio_server

log = logging.getLogger('mcp_ros_bridge')
TOKEN_ENV = 'MCP_ROS_BRIDGE_TOKEN'


def read_token(options: ServeOptions) -> str | None:
    """Return the bearer token from ``--token-file`` or the environment, if any."""
    if options.token_file:
        with open(options.token_file, encoding='utf-8') as f:
            token = f.read().strip()
        if not token:
            raise ValueError(f'token file {options.token_file} is empty')
        return token
    return os.environ.get(TOKEN_ENV) or None


def load(options: ServeOptions) -> Catalog:
    """Load the catalog ``options`` name."""
    return load_catalog(options.config_dir or default_config_dir(), options.lang, kinds=KINDS)


def named_backend(options: ServeOptions, catalog: Catalog,
                  ros_args: Sequence[str] = ()) -> RobotBackend:
    """Create (not start) the backend ``options`` name; ``ros_args`` go to a ROS node."""
    return make_backend(options.backend, catalog.robot, sim_speed=options.sim_speed,
                        node_name=options.node_name, namespace=options.namespace,
                        use_sim_time=options.use_sim_time, ros_args=ros_args)


async def start_backend(backend: RobotBackend, ready_wait_s: float) -> None:
    """Start ``backend``; a ROS backend then waits a moment for its sensors and tip link."""
    await backend.start()
    for note in await backend.ready(ready_wait_s):
        log.warning('%s', note)


def assemble(options: ServeOptions, catalog: Catalog, backend: RobotBackend) -> BridgeServer:
    """Build the server on ``backend``; nothing is started."""
    audit = AuditLog(options.audit_log or None)
    return BridgeServer(catalog, backend, options.call_settings(), audit, options.lang)


async def build(options: ServeOptions, backend: RobotBackend | None = None
                ) -> tuple[BridgeServer, RobotBackend]:
    """Load the catalog, create and start the backend, and build the server."""
    catalog = load(options)
    if backend is None:
        backend = named_backend(options, catalog)
    await start_backend(backend, options.ready_wait_s)
    return assemble(options, catalog, backend), backend


def attach_console(bridge: BridgeServer, options: ServeOptions) -> Console | None:
    """Return the operator console on ``bridge`` when ``options`` serve one (else None)."""
    from mcp_ros_bridge.server.console.hold_store import HoldStore
    state = state_directory(options.state_dir, bridge.catalog.config_dir)
    store = HoldStore(state)
    if not options.console or options.transport == 'stdio' and options.console_port < 0:
        restore_hold(bridge, store)  # kept: nobody here can release it, motions stay refused
        return None
    from mcp_ros_bridge.server.console.app_resource import offer
    console = Console(bridge, options.console_rate_hz, options.console_approval_wait_s,
                      options.lang, store)
    console.secret, console.secret_how = operator_secret(options.operator_secret_file, state)
    offer(bridge.resources, console)
    return console


def console_routes(console: Console, options: ServeOptions, host: str,
                   book: ConnectionBook) -> Any:
    """Return the console's guarded ASGI app, with the Host/Origin policy of ``host``."""
    from mcp_ros_bridge.server.console.mount import guarded_console
    from mcp_ros_bridge.server.console.routes import ConsoleRoutes
    from mcp_ros_bridge.server.console_connections import ConsoleConnections
    token = read_token(options)
    policy = host_policy(host, token, options.allowed_hosts, options.allowed_origins)
    routes = ConsoleRoutes(console, console.secret, policy, console.secret_how)
    return ConsoleConnections(guarded_console(routes), book, options.http_body_timeout_s)


def _booked_config(app: Callable[[ConnectionBook], Any], options: ServeOptions,
                   lifespan: Literal['on', 'off']) -> tuple[Any, ConnectionBook, int]:
    """Return uvicorn's config serving ``app(book)``, the book and the open-file limit."""
    import uvicorn
    asyncio.get_running_loop().set_exception_handler(QuietAcceptErrors())
    files = raise_file_limit()
    book = ConnectionBook(connection_ceiling(options.http_max_connections, files),
                          options.http_head_timeout_s)
    config = uvicorn.Config(app(book), log_level='warning', lifespan=lifespan,
                            http=guarded_protocol(book), timeout_keep_alive=5,
                            h11_max_incomplete_event_size=H11_MAX_HEAD_BYTES,
                            backlog=ACCEPT_BATCH)
    return config, book, files


def _listen(host: str, port: int) -> socket.socket:
    """
    Return a bound, listening TCP socket whose connections send without Nagle's delay.

    Created with ``IPPROTO_TCP`` (asyncio sets ``TCP_NODELAY`` on each accepted
    socket only for that protocol) and with ``TCP_NODELAY`` on the listener, which
    accepted sockets inherit: a response's head and body leave at once instead of
    the body waiting ~40 ms for the client's delayed ACK of the head.
    """
    family = socket.AF_INET6 if ':' in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind((host, port))
    sock.listen(ACCEPT_BATCH)
    return sock


def _show_console(console: Console, host: str, port: int) -> None:
    console.url = f'http://{host}:{port}/console'  # robot://console: no secret for the agent
    log.info('%s', t('console_secret_url', url=f'{console.url}#secret={console.secret}'))


async def _serve_console(console: Console, options: ServeOptions) -> None:
    """Serve the console alone on its loopback port (MCP runs over stdio), booked as HTTP is."""
    sock = _listen('127.0.0.1', options.console_port)
    _show_console(console, '127.0.0.1', sock.getsockname()[1])
    config, _, _ = _booked_config(
        lambda book: console_routes(console, options, '127.0.0.1', book), options, 'off')
    await _uvicorn_server(config, console).serve([sock])


async def _beside_console(serving: Awaitable[None], console: Console | None,
                          options: ServeOptions) -> None:
    """Await ``serving`` (stdio) with the console on its own port, if there is one."""
    if console is None:
        await serving
        return
    async with anyio.create_task_group() as tg:
        tg.start_soon(_serve_console, console, options)
        await serving
        console.close()
        tg.cancel_scope.cancel()


async def _serve_http(bridge: BridgeServer, options: ServeOptions,
                      console: Console | None = None) -> None:
    def is_stop_tool(name: str) -> bool:
        spec = bridge.catalog.get(name)
        return spec is not None and spec.kind == 'stop'

    def app(book: ConnectionBook) -> Any:
        served = build_app(bridge.server, options.host, options.port, read_token(options),
                           options.allowed_origins, bridge.pipeline.requester_gone,
                           options.allowed_hosts, options.http_body_timeout_s, book,
                           is_stop_tool)
        if console is None:
            return served
        from mcp_ros_bridge.server.console.mount import ConsoleBeside
        return ConsoleBeside(served, console_routes(console, options, options.host, book))

    config, book, files = _booked_config(app, options, 'on')
    sock = _listen(options.host, options.port)
    if console is not None:
        _show_console(console, options.host, sock.getsockname()[1])
    log.info('serving MCP over HTTP at http://%s:%d/mcp (at most %d connections, %d more '
             'for stops, %d console viewers; open-file limit %d)', options.host,
             sock.getsockname()[1], book.ceiling, book.reserve, book.viewer_pool, files)
    await _uvicorn_server(config, console).serve([sock])


def _uvicorn_server(config: Any, console: Console | None) -> Any:
    """Return uvicorn's server; on shutdown it first ends the console's open streams."""
    import uvicorn
    if console is None:
        return uvicorn.Server(config)
    ending = console.close  # an open event stream would keep the shutdown waiting

    class EndingStreams(uvicorn.Server):
        async def shutdown(self, sockets: Any = None) -> None:
            ending()
            await super().shutdown(sockets)
    return EndingStreams(config)


async def serve(options: ServeOptions, backend: RobotBackend | None = None,
                ros_args: Sequence[str] = ()) -> None:
    """
    Run the bridge until the client disconnects (stdio) or the task is cancelled.

    Without ``backend``, the one named by ``options`` is created (with
    ``ros_args`` for a ROS node) and started while serving; a given backend
    (a test double) is started before serving. Either is closed once at the end.
    Texts are in ``options.lang``, also those made by the backend's own tasks.
    """
    with speaking(options.lang):
        await _serve(options, backend, ros_args)


async def _serve(options: ServeOptions, backend: RobotBackend | None,
                 ros_args: Sequence[str]) -> None:
    if options.transport == 'http':
        # Fail fast on a bad token file or an unprotected public bind, before the robot starts.
        check_bind(options.host, read_token(options))
    if backend is None:
        # Created and started below while serving: tools/list need not wait for the robot.
        catalog = load(options)
        backend = DeferredBackend(
            options.backend, lambda: named_backend(options, catalog, ros_args),
            lambda started: start_backend(started, options.ready_wait_s))
        bridge = assemble(options, catalog, backend)
    else:
        bridge, backend = await build(options, backend)
    async with AsyncExitStack() as stack:
        if options.record:  # imported only when asked for (mcap is an optional dependency)
            from mcp_ros_bridge.recording.session import Recording
            recording = Recording(bridge, options.record, options.record_max_mb)
            stack.push_async_callback(recording.close)  # the last: after the robot stopped
            recording.start()
        stack.push_async_callback(backend.close)
        if options.record:
            stack.push_async_callback(recording.last_sample)  # before the backend closes
        stack.callback(bridge.pipeline.audit.close)
        stack.callback(bridge.close)
        console = attach_console(bridge, options)
        if console is not None:
            stack.callback(console.close)
        if options.watch:
            watcher = CatalogWatcher(bridge.catalog.config_dir, options.lang,
                                     bridge.install_catalog, current=lambda: bridge.catalog,
                                     allow_looser=options.reload_loosens_limits)
            watcher.hook_sighup()
            watcher_task = asyncio.create_task(watcher.run())
            stack.callback(watcher_task.cancel)
        serving = _serve_http(bridge, options, console) if options.transport == 'http' \
            else _beside_console(_serve_stdio(bridge), console, options)
        if isinstance(backend, DeferredBackend):
            def stuck(failure: BaseException) -> None:  # stdio blocked reading an open stdin
                bridge.pipeline.audit.close()
                print(failure_line(failure), file=sys.stderr, flush=True)
                os._exit(2)  # nothing started that needs stopping; the client sees EOF
            await serve_while_starting(backend, serving, stuck)
        else:
            await serving


async def _serve_stdio(bridge: BridgeServer) -> None:
    async with guarded_stdio_server() as (read, write):
        await bridge.server.run(read, write, bridge.server.create_initialization_options())
    # stdio EOF: the client is gone; serve()'s exit stack stops the robot (deadman).


_DISCONNECTS = (BrokenPipeError, ConnectionResetError, anyio.BrokenResourceError,
                anyio.ClosedResourceError)


def failure_line(exc: BaseException) -> str:
    """Return the one line the entry points print for a failure that ends the server."""
    if isinstance(exc, BackendError):
        return f'mcp-ros-bridge: {exc}. {exc.advice}'
    return f'mcp-ros-bridge: {exc}'


def disconnect_cause(exc: BaseException) -> BaseException | None:
    """Return the first leaf when ``exc`` (or every leaf of its group) is a lost client."""
    if isinstance(exc, _DISCONNECTS):
        return exc
    leaves = [disconnect_cause(e) for e in getattr(exc, 'exceptions', None) or [None]
              if e is not None]
    return leaves[0] if leaves and all(leaves) else None


def run(options: ServeOptions, ros_args: Sequence[str] = ()) -> int:
    """Blocking wrapper for the entry points; returns an exit status."""
    try:
        asyncio.run(serve(options, ros_args=ros_args))
    except KeyboardInterrupt:
        return 0
    except Exception as exc:
        cause = disconnect_cause(exc)
        if cause is None:
            raise
        # The client vanished (e.g. killed host on stdio): one line, not a traceback. The
        # exit stack has stopped the robot already.
        log.warning('client disconnected abruptly (%s: %s); server stopped',
                    type(cause).__name__, cause)
    return 0
