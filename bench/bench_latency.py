"""
Latency of a read-only tool call through the bridge versus the SDK's bare echo tool.

Usage: ``python3 bench/bench_latency.py [--calls 2000] [--warmup 200] [--repeat 3]
[--smoke]`` (smoke: 30 calls, one run per row).
Measures p50 and p99 of ``get_joint_states`` (on the recording backend double,
so the server, contract and result layers are what is timed, not a robot)
against a minimal low-level SDK ``Server`` with one ``echo`` tool, on the same
transports in one run: in-memory, stdio and Streamable HTTP (each side in its
own subprocess: the bridge's own HTTP stack, the echo on the SDK's
``streamable_http_app`` under plain uvicorn), both protocol generations.
The comparison is fair: the echo tool publishes the same input and output
schemas as ``get_joint_states`` and returns the same text and structured
content (captured from one bridge call), so the client does the same work for
both and the difference is the bridge's own per-call work. Prints the ratio
(goal: at most 1.2x) and that per-call work in us, measured in-process.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import time
from typing import Any

import anyio
from smoke import add_flag, check, done

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path[:0] = [REPO, os.path.join(REPO, 'test')]
TOOL = 'get_joint_states'


async def bridge_sample() -> tuple[Any, Any]:
    """Return the bridge's ``Tool`` for TOOL and one result of calling it (in memory)."""
    from mcp import Client
    async with Client(bridge_server()) as client:
        tools = await client.list_tools()
        result = await client.call_tool(TOOL, {})
    return next(t for t in tools.tools if t.name == TOOL), result


def echo_server(sample: tuple[Any, Any]) -> Any:
    """Return a bare low-level SDK server whose echo tool mirrors TOOL's schemas and result."""
    import mcp_types as types
    from mcp.server.lowlevel import Server
    tool, result = sample
    echo = types.Tool(name='echo', description='Return a fixed result.',
                      input_schema=tool.input_schema, output_schema=tool.output_schema)
    text, structured = result.content[0].text, result.structured_content

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[echo])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        return types.CallToolResult(content=[types.TextContent(type='text', text=text)],
                                    structured_content=structured)

    return Server('echo', on_list_tools=list_tools, on_call_tool=call_tool)


def bridge_server() -> Any:
    """Return the bridge's SDK server on the recording backend double."""
    return bridge_server_object().server


def bridge_server_object() -> Any:
    """Return the :class:`BridgeServer` on the recording backend double."""
    from doubles import RecordingBackend
    from mcp_ros_bridge.capabilities import KINDS
    from mcp_ros_bridge.catalog.loader import load_catalog
    from mcp_ros_bridge.server.audit import AuditLog
    from mcp_ros_bridge.server.bridge import BridgeServer
    from mcp_ros_bridge.server.calls import CallSettings
    catalog = load_catalog(os.path.join(REPO, 'config'), kinds=KINDS)
    bridge = BridgeServer(catalog, RecordingBackend(),
                          CallSettings(), AuditLog(None))
    return bridge


async def _serve_http(which: str) -> None:
    """Serve one side over HTTP on a free port; print ``PORT n`` on stdout once listening."""
    import logging
    import re
    import uvicorn
    if which == 'echo-http':
        server = echo_server(await bridge_sample())
        # the SDK's own app under a standard uvicorn start (which sets TCP_NODELAY)
        config = uvicorn.Config(server.streamable_http_app(), host='127.0.0.1', port=0,
                                log_level='warning')
        web = uvicorn.Server(config)

        async def announce() -> None:
            while not web.started:
                await anyio.sleep(0.01)
            print(f'PORT {web.servers[0].sockets[0].getsockname()[1]}', flush=True)
        async with anyio.create_task_group() as tg:
            tg.start_soon(announce)
            await web.serve()
        return
    from mcp_ros_bridge.server.app import _serve_http as serve_bridge
    from mcp_ros_bridge.server.settings import ServeOptions

    class Announce(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            m = re.search(r'http://[0-9.]+:(\d+)/mcp', record.getMessage())
            if m:
                print(f'PORT {m.group(1)}', flush=True)
    logger = logging.getLogger('mcp_ros_bridge')
    logger.setLevel(logging.INFO)
    logger.addHandler(Announce())
    options = ServeOptions(transport='http', port=0, console=False)
    await serve_bridge(bridge_server_object(), options)


@contextlib.asynccontextmanager
async def http_side(which: str) -> Any:
    """Run one side over HTTP in a subprocess; yield its MCP URL."""
    import subprocess
    process = await anyio.open_process([sys.executable, __file__, '--serve', which], cwd=REPO,
                                       stderr=subprocess.DEVNULL)
    try:
        assert process.stdout is not None
        line = b''
        with anyio.fail_after(120):
            while b'\n' not in line:
                line += await process.stdout.receive(1)
        yield f'http://127.0.0.1:{int(line.split()[1])}/mcp'
    finally:
        process.kill()
        with anyio.move_on_after(10, shield=True):
            await process.wait()


async def _serve_stdio(which: str) -> None:
    from mcp.server.stdio import stdio_server
    server = echo_server(await bridge_sample()) if which == 'echo' else bridge_server()
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


async def measure(bridge: Any, echo: Any, mode: str, calls: int,
                  warmup: int) -> tuple[list[float], list[float]]:
    """Return per-call latencies in ms of the bridge (TOOL) and the echo server, interleaved."""
    if bridge == 'http':
        from mcp.client.streamable_http import streamable_http_client
        async with http_side('bridge-http') as ours, http_side('echo-http') as bare:
            return await measure(streamable_http_client(ours), streamable_http_client(bare),
                                 mode, calls, warmup)
    ours, bare = await interleaved([(bridge, TOOL), (echo, 'echo')], mode, calls, warmup)
    return ours, bare


async def interleaved(servers: list[tuple[Any, str]], mode: str, calls: int,
                      warmup: int) -> list[list[float]]:
    """
    Return per-call latencies in ms of each ``(server, tool)``, calls interleaved.

    All clients are open at once and take turns, call by call (the order
    flips every round), so the load of a shared machine falls on all alike.
    """
    from mcp import Client
    out: list[list[float]] = [[] for _ in servers]
    with anyio.fail_after(900):
        async with contextlib.AsyncExitStack() as stack:
            clients = [await stack.enter_async_context(Client(server, mode=mode))
                       for server, _ in servers]
            turns = list(zip(clients, [tool for _, tool in servers], out))
            for client in clients:
                await client.list_tools()
            for i in range(warmup + calls):
                for client, tool, found in turns[::1 if i % 2 else -1]:
                    t0 = time.perf_counter()
                    result = await client.call_tool(tool, {})
                    dt = (time.perf_counter() - t0) * 1000.0
                    if result.is_error:
                        raise RuntimeError(f'{tool} failed: {result.content}')
                    if i >= warmup:
                        found.append(dt)
    return out


def pct(values: list[float], q: float) -> float:
    """Return the q-th percentile (0-100)."""
    return statistics.quantiles(values, n=100, method='inclusive')[int(q) - 1] if q < 100 \
        else max(values)


async def per_call_work(calls: int) -> dict[str, float]:
    """Return the bridge's own work per get_joint_states call in us, step by step."""
    from mcp_ros_bridge.capabilities import CallContext, KINDS
    from mcp_ros_bridge.contract.results import outcome_result
    from mcp_ros_bridge.catalog.defaults import fill_defaults
    from mcp_ros_bridge.server.audit import AuditLog
    import mcp_types as types
    bridge = bridge_server_object()
    pipe = bridge.pipeline
    spec = pipe.catalog.get(TOOL)
    kind = KINDS[spec.kind]
    ctx = CallContext(pipe.backend, pipe.catalog.robot, spec.binding, None)
    params = types.CallToolRequestParams(name=TOOL, arguments={})
    audit = AuditLog(os.devnull)
    filled = fill_defaults(spec.input_schema, {})
    steps = {
        'validate + defaults': lambda: (pipe.validator(spec).problems({}),
                                        fill_defaults(spec.input_schema, {})),
        'capability (envelope, backend double)': lambda: kind.run(ctx, filled),
        'result': None, 'audit (to a file; off by default)': lambda: audit.record(
            TOOL, {}, 'ok', 0.001),
        'whole pipeline.call': lambda: pipe.call(None, params),
    }
    outcome = await kind.run(ctx, filled)
    steps['result'] = lambda: outcome_result(outcome, spec.output_schema)
    found = {}
    for name, step in steps.items():
        best = float('inf')
        for _ in range(3):
            t0 = time.thread_time()  # CPU time: steadier than wall time on a shared machine
            for _ in range(calls):
                done = step()
                if hasattr(done, '__await__'):
                    await done
            best = min(best, (time.thread_time() - t0) / calls * 1e6)
        found[name] = best
    audit.close()
    return found


async def run(calls: int, warmup: int, repeat: int, smoke: bool = False) -> None:
    """Run every transport ``repeat`` times, echo and bridge alternating; print the table."""
    from mcp import StdioServerParameters

    def stdio(which: str) -> StdioServerParameters:
        return StdioServerParameters(command=sys.executable, args=[__file__, '--serve', which],
                                     cwd=REPO)

    sample = await bridge_sample()
    rows = [
        ('in-memory legacy', 'legacy', bridge_server, lambda: echo_server(sample)),
        ('in-memory 2026-07-28', '2026-07-28', bridge_server, lambda: echo_server(sample)),
        ('stdio legacy', 'legacy', lambda: stdio('bridge'), lambda: stdio('echo')),
        ('stdio 2026-07-28', '2026-07-28', lambda: stdio('bridge'), lambda: stdio('echo')),
        ('HTTP legacy', 'legacy', lambda: 'http', lambda: 'http'),
        ('HTTP 2026-07-28', '2026-07-28', lambda: 'http', lambda: 'http'),
    ]
    print(f'{calls} calls after {warmup} warm-up calls, bridge and echo taking turns call by '
          f'call, {repeat} runs per row; '
          f'latency in ms (bridge: {TOOL} on the recording backend; echo: bare SDK server '
          'returning the same schemas and result). Medians of the runs; ratio spread min-max.')
    print(f"{'transport':22s} {'bridge p50':>10s} {'p99':>7s} {'echo p50':>9s} {'p99':>7s} "
          f"{'ratio p50':>16s} {'ratio p99':>16s}   (goal <= 1.2x)")
    for label, mode, ours, echo in rows:
        figures = []
        for _ in range(repeat):
            b, e = await measure(ours(), echo(), mode, calls, warmup)
            figures.append((pct(b, 50), pct(b, 99), pct(e, 50), pct(e, 99)))
        bp50, bp99, ep50, ep99 = (statistics.median(f[i] for f in figures) for i in range(4))
        r50 = [f[0] / f[2] for f in figures]
        r99 = [f[1] / f[3] for f in figures]
        print(f'{label:22s} {bp50:10.3f} {bp99:7.3f} {ep50:9.3f} {ep99:7.3f} '
              f'{_ratio(r50):>16s} {_ratio(r99):>16s}', flush=True)
        if smoke:
            check(**{label.replace(' ', '_'): [bp50, bp99, ep50, ep99] + r50 + r99})
    print(f"the bridge's own work per call, in process: CPU us (best of 3 x {calls})")
    work = await per_call_work(calls)
    for name, us in work.items():
        print(f'  {name:40s} {us:8.1f}')
    if smoke:
        check(per_call_work=list(work.values()))
        done()


def _ratio(values: list[float]) -> str:
    return f'{statistics.median(values):.2f}x {min(values):.2f}-{max(values):.2f}'


def main() -> int:
    """Parse arguments; either serve one side over stdio or run the benchmark."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    p.add_argument('--calls', type=int, default=2000)
    p.add_argument('--warmup', type=int, default=200)
    p.add_argument('--repeat', type=int, default=3)
    p.add_argument('--serve', choices=['echo', 'bridge', 'echo-http', 'bridge-http'],
                   help=argparse.SUPPRESS)
    add_flag(p)
    args = p.parse_args()
    if args.serve in ('echo-http', 'bridge-http'):
        anyio.run(_serve_http, args.serve)
    elif args.serve:
        anyio.run(_serve_stdio, args.serve)
    elif args.smoke:
        anyio.run(run, 30, 5, 1, True)
    else:
        anyio.run(run, args.calls, args.warmup, args.repeat)
    return 0


if __name__ == '__main__':
    sys.exit(main())
