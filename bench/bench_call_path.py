"""
How much of the bridge one ``move_arm_to_pose`` call crosses: functions and files.

Usage: ``python3 bench/bench_call_path.py [--smoke]``. Runs one warm-up call and
then one measured call of ``move_arm_to_pose`` on the embedded simulation
through the in-memory MCP client, with a profile hook on every thread. Counts
the bridge's own functions and source files entered, from the ``tools/call``
to the backend's ``execute`` and over the whole call (planning, the motion's
stepping thread and the result included). A count, not a time: the same on
any machine for the same code.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
from types import FrameType
from typing import Any

import anyio
from smoke import add_flag, check, done

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path[:0] = [REPO, HERE]
PACKAGE = os.path.join(REPO, 'mcp_ros_bridge') + os.sep
EXECUTE = (os.path.join(PACKAGE, 'backends', 'sim', 'backend.py'), 'SimBackend.execute')
ARGS = {'position': {'x': 0.45, 'y': 0.1, 'z': 0.35}}


class PathTrace:
    """Records the bridge functions entered, in order, on every thread."""

    def __init__(self) -> None:
        """Start empty."""
        self.entered: list[tuple[str, str]] = []
        self.lock = threading.Lock()
        self.on = False  # hooked on every thread from the start; recording only when on

    def hook(self, frame: FrameType, event: str, _arg: Any) -> None:
        """Note a call of a function defined in the package."""
        if event != 'call' or not self.on:
            return
        code = frame.f_code
        if code.co_filename.startswith(PACKAGE):
            with self.lock:
                self.entered.append((code.co_filename, code.co_qualname))

    def counts(self, until: tuple[str, str] | None = None) -> tuple[int, int]:
        """Return (functions, files) entered, up to the first entry of ``until`` if given."""
        seen: set[tuple[str, str]] = set()
        for item in self.entered:
            if item == until:
                seen.add(item)
                break
            seen.add(item)
        return len(seen), len({f for f, _ in seen})


async def run(smoke: bool) -> None:
    """Make the call twice, trace the second, print the counts."""
    from mcp import Client
    from mcp_ros_bridge.backends.sim import SimBackend
    from mcp_ros_bridge.capabilities import KINDS
    from mcp_ros_bridge.catalog.loader import load_catalog
    from mcp_ros_bridge.server.bridge import BridgeServer
    from mcp_ros_bridge.server.calls import CallSettings
    catalog = load_catalog(os.path.join(REPO, 'config'), kinds=KINDS)
    trace = PathTrace()
    # every thread the bridge starts (the simulation's, the worker pool) gets the hook
    threading.setprofile(trace.hook)
    sys.setprofile(trace.hook)
    sim = SimBackend(catalog.robot, speed=0)
    await sim.start()
    bridge = BridgeServer(catalog, sim, CallSettings())
    try:
        async with Client(bridge.server) as client:
            for args in ({**ARGS, 'position': {**ARGS['position'], 'y': -0.1}}, ARGS):
                trace.on = args is ARGS
                result = await client.call_tool('move_arm_to_pose', args)
                trace.on = False
                if result.is_error:
                    raise RuntimeError(f'the call failed: {result.content}')
    finally:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]
        bridge.close()
        await sim.close()
    to_execute, whole = trace.counts(EXECUTE), trace.counts()
    if EXECUTE not in trace.entered:
        raise RuntimeError('the backend execute was not reached')
    print('one sim move_arm_to_pose, bridge code only (functions / files entered)')
    print(f'tools/call to SimBackend.execute: {to_execute[0]} functions in {to_execute[1]} files')
    print(f'whole call:                       {whole[0]} functions in {whole[1]} files')
    if smoke:
        check(functions=[to_execute[0], whole[0]], files=[to_execute[1], whole[1]])
        done()


def main() -> int:
    """Parse arguments and run the count."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    add_flag(p)
    args = p.parse_args()
    anyio.run(run, args.smoke)
    return 0


if __name__ == '__main__':
    sys.exit(main())
