"""
Latency of a read-only tool call through the bridge versus the SDK's bare echo tool.

Usage: ``python3 bench/bench_latency.py [--calls 2000] [--warmup 200]``.
Measures p50 and p99 of ``get_joint_states`` (on the recording backend double,
so the server, contract and result layers are what is timed, not a robot)
against a minimal low-level SDK ``Server`` with one ``echo`` tool, on the same
transports in one run: in-memory (both protocol modes) and stdio (legacy).
Prints the ratio; the goal is at most 1.2x.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import Any

import anyio

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path[:0] = [REPO, os.path.join(REPO, 'test')]
ECHO_SCHEMA = {'type': 'object', 'properties': {'text': {'type': 'string'}},
               'additionalProperties': False}


def echo_server() -> Any:
    """Return a minimal low-level SDK server with one echo tool."""
    import mcp_types as types
    from mcp.server.lowlevel import Server

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[types.Tool(
            name='echo', description='Echo the text back.', input_schema=ECHO_SCHEMA)])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        text = (params.arguments or {}).get('text', '')
        return types.CallToolResult(content=[types.TextContent(type='text', text=text)])

    return Server('echo', on_list_tools=list_tools, on_call_tool=call_tool)


def bridge_server() -> Any:
    """Return the bridge's SDK server on the recording backend double."""
    from doubles import RecordingBackend
    from mcp_ros_bridge.capabilities import KINDS
    from mcp_ros_bridge.catalog.loader import load_catalog
    from mcp_ros_bridge.server.audit import AuditLog
    from mcp_ros_bridge.server.bridge import BridgeServer
    from mcp_ros_bridge.server.calls import CallSettings
    catalog = load_catalog(os.path.join(REPO, 'config'), kinds=KINDS)
    bridge = BridgeServer(catalog, RecordingBackend(),
                          CallSettings(), AuditLog(None))
    return bridge.server


async def _serve_stdio(which: str) -> None:
    from mcp.server.stdio import stdio_server
    server = echo_server() if which == 'echo' else bridge_server()
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


async def _no_validation(self: Any, name: str, result: Any) -> None:
    return None


async def measure(target: Any, mode: str, tool: str, args: dict[str, Any], calls: int,
                  warmup: int, client_validates: bool = True) -> list[float]:
    """Return per-call latencies in ms of ``calls`` sequential calls."""
    from mcp import Client
    out = []
    with anyio.fail_after(600):
        async with Client(target, mode=mode) as client:
            if not client_validates:
                # Isolate the server: skip the client's jsonschema check of structuredContent.
                client.session.validate_tool_result = _no_validation.__get__(client.session)
            await client.list_tools()
            for i in range(warmup + calls):
                t0 = time.perf_counter()
                result = await client.call_tool(tool, args)
                dt = (time.perf_counter() - t0) * 1000.0
                if result.is_error:
                    raise RuntimeError(f'{tool} failed: {result.content}')
                if i >= warmup:
                    out.append(dt)
    return out


def pct(values: list[float], q: float) -> float:
    """Return the q-th percentile (0-100)."""
    return statistics.quantiles(values, n=100, method='inclusive')[int(q) - 1] if q < 100 \
        else max(values)


async def run(calls: int, warmup: int) -> None:
    """Run every transport and print the table."""
    from mcp import StdioServerParameters

    def stdio(which: str) -> StdioServerParameters:
        return StdioServerParameters(command=sys.executable, args=[__file__, '--serve', which],
                                     cwd=REPO)

    rows = [
        ('in-memory legacy', 'legacy', bridge_server, echo_server),
        ('in-memory 2026-07-28', '2026-07-28', bridge_server, echo_server),
        ('stdio legacy', 'legacy', lambda: stdio('bridge'), lambda: stdio('echo')),
        ('stdio 2026-07-28', '2026-07-28', lambda: stdio('bridge'), lambda: stdio('echo')),
    ]
    print(f'{calls} calls after {warmup} warm-up calls each; latency in ms '
          '(bridge: get_joint_states on the recording backend; echo: bare SDK server)')
    print(f"{'transport':22s} {'bridge p50':>10s} {'p99':>7s} {'echo p50':>9s} {'p99':>7s} "
          f"{'ratio p50':>9s} {'p99':>6s}")
    for label, mode, ours, echo in rows:
        e = await measure(echo(), mode, 'echo', {'text': 'hi'}, calls, warmup)
        for suffix, validates in (('', True), (' *', False)):
            b = await measure(ours(), mode, 'get_joint_states', {}, calls, warmup, validates)
            bp50, bp99, ep50, ep99 = pct(b, 50), pct(b, 99), pct(e, 50), pct(e, 99)
            print(f'{label + suffix:22s} {bp50:10.3f} {bp99:7.3f} {ep50:9.3f} {ep99:7.3f} '
                  f'{bp50 / ep50:8.2f}x {bp99 / ep99:5.2f}x', flush=True)
    print('* the client skips its jsonschema check of structuredContent against the '
          'outputSchema (the echo tool publishes none), isolating the server side.')


def main() -> int:
    """Parse arguments; either serve one side over stdio or run the benchmark."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    p.add_argument('--calls', type=int, default=2000)
    p.add_argument('--warmup', type=int, default=200)
    p.add_argument('--serve', choices=['echo', 'bridge'], help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.serve:
        anyio.run(_serve_stdio, args.serve)
    else:
        anyio.run(run, args.calls, args.warmup)
    return 0


if __name__ == '__main__':
    sys.exit(main())
