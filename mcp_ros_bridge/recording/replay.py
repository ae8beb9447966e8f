"""
``mcp-ros-bridge replay FILE``: re-run the recorded tool calls on the simulation, in order.

The simulation is built from the robot config the recording names (or
``--config``), and each recorded call (its redacted arguments) is sent through
an MCP client to the same call pipeline, one after the other. Approval asked in
the recording is taken as given (the policy is ``allow``); a recorded plan id is
replaced by the one its replayed plan-only call issued. Per call it prints the
recorded and the replayed status and end pose, and their distance for each motion that ran
to its end (one a stop cut short runs to its end in the replay).
"""

from __future__ import annotations

import bisect
import math
import os
from typing import Any

from mcp_ros_bridge.recording.channels import CALLS
from mcp_ros_bridge.recording.reader import read_session, Session

SKIPPED = frozenset({'unknown_tool', 'input_required'})
STOPPED = 'STOPPED'  # a stop cut the recorded motion short: its end is not compared
MATCH_M = 0.005


def recorded_calls(session: Session) -> list[tuple[dict[str, Any], tuple[float, ...] | None]]:
    """Return each replayable tool call with its recorded end position (None if unknown)."""
    times = [at for at, _ in session.tips]
    calls = []
    for entry in session.records:
        record = entry.parsed()
        if entry.topic != CALLS or record is None or record.get('outcome') in SKIPPED:
            continue
        end = _position(record.get('final_pose'))
        if end is None:  # the first tip pose sampled once the call had returned
            i = bisect.bisect_left(times, entry.log_ns)
            end = session.tips[i][1] if i < len(times) else None
        calls.append((record, end))
    return calls


def _position(pose: Any) -> tuple[float, ...] | None:
    try:
        p = pose['position_m']
        return (float(p['x']), float(p['y']), float(p['z']))
    except (TypeError, KeyError, ValueError):
        return None


def _compared(bridge: Any, record: dict[str, Any]) -> bool:
    """Return whether the call is a motion that ran to its end in the recording (not a plan)."""
    from mcp_ros_bridge.capabilities import KINDS
    spec = bridge.catalog.get(str(record['tool']))
    args = record.get('args')
    planned = isinstance(args, dict) and args.get('plan_only') is True  # its pose: the plan's
    return (spec is not None and KINDS[spec.kind].motion and record.get('outcome') == 'ok'
            and record.get('code') != STOPPED and not planned)


def _with_plan_id(args: Any, plan_ids: dict[str, str]) -> Any:
    """Return ``args`` with a recorded ``plan_id`` swapped for the replay's own."""
    if isinstance(args, dict) and args.get('plan_id') in plan_ids:
        return {**args, 'plan_id': plan_ids[args['plan_id']]}
    return args


def _status(structured: Any, is_error: bool, code: Any) -> str:
    if is_error:
        return f'error {code}'
    status = structured.get('status') if isinstance(structured, dict) else None
    return f'ok {status}' if status else 'ok'


def _fmt(p: tuple[float, ...] | None) -> str:
    return '-' if p is None else '(' + ', '.join(f'{v:.3f}' for v in p) + ')'


async def replay(path: str, config_dir: str = '') -> list[dict[str, Any]]:
    """Replay ``path`` on a fast simulation; return one row per call."""
    from mcp import Client
    from mcp_ros_bridge.contract.results import error_block
    from mcp_ros_bridge.server.app import build
    from mcp_ros_bridge.server.settings import ServeOptions
    session = read_session(path)
    config = config_dir or session.start.get('config_dir', '')
    options = ServeOptions(config_dir=config if os.path.isdir(config) else '', sim_speed=0.0,
                           watch=False, approval_policy='allow', motion_rate_per_s=1000.0,
                           motion_burst=1000)
    bridge, backend = await build(options)
    robot = bridge.catalog.robot
    out = []
    plan_ids: dict[str, str] = {}  # recorded -> replayed
    try:
        async with Client(bridge.server, mode='legacy') as client:
            for record, recorded_end in recorded_calls(session):
                args = _with_plan_id(record.get('args') or {}, plan_ids)
                result = await client.call_tool(str(record['tool']), args)
                issued = result.structured_content or {}
                if isinstance(record.get('plan_id'), str) and issued.get('plan_id'):
                    plan_ids[record['plan_id']] = issued['plan_id']
                pose = await backend.end_effector_pose(robot.base_frame, robot.end_effector)
                replayed = tuple(pose.position)
                out.append({
                    'seq': record.get('seq'), 'tool': record['tool'],
                    'recorded': f"{record.get('outcome')} {record.get('code') or ''}".strip(),
                    'replayed': _status(result.structured_content, bool(result.is_error),
                                        error_block(result).get('code')),
                    'recorded_end': recorded_end, 'replayed_end': replayed,
                    'distance_m': math.dist(recorded_end, replayed)
                    if recorded_end is not None and _compared(bridge, record) else None})
    finally:
        await backend.close()
    return out


def main(path: str, config_dir: str = '') -> int:
    """Print the replay table; exit status 1 when an end pose is off by more than 5 mm."""
    import asyncio
    rows = asyncio.run(replay(path, config_dir))
    print(f"{'seq':>4}  {'tool':<24} {'recorded':<14} {'replayed':<18} "
          f"{'recorded end (m)':<24} {'replayed end (m)':<24} mm")
    off = 0
    for r in rows:
        d = r['distance_m']
        off += d is not None and d > MATCH_M
        print(f"{r['seq']!s:>4}  {r['tool']:<24} {r['recorded']:<14} {r['replayed']:<18} "
              f"{_fmt(r['recorded_end']):<24} {_fmt(r['replayed_end']):<24} "
              f"{'-' if d is None else f'{d * 1000:.1f}'}")
    print(f'{len(rows)} calls replayed; {off} end poses more than {MATCH_M * 1000:g} mm off')
    return 1 if off else 0
