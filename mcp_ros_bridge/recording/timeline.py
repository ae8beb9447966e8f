"""``mcp-ros-bridge inspect FILE``: the timeline of calls, decisions and stops as a table."""

from __future__ import annotations

import datetime
import os
from typing import Any

from mcp_ros_bridge.recording.channels import CALLS
from mcp_ros_bridge.recording.reader import read_session, Session

COLUMNS = ('time', 'seq', 'kind', 'what', 'outcome', 'code/decision', 'ms', 'by', 'session')


def rows(session: Session) -> list[tuple[str, ...]]:
    """Return one row per tool-call or event record, in the order they were written."""
    table: list[tuple[str, ...]] = []
    for entry in session.records:
        r: dict[str, Any] = entry.parsed() or {}
        at = datetime.datetime.fromtimestamp(entry.log_ns / 1e9, datetime.timezone.utc)
        call = entry.topic == CALLS
        table.append((at.strftime('%H:%M:%S.%f')[:-3], str(r.get('seq', '?')),
                      'call' if call else 'event',
                      str(r.get('tool', '')) if call else
                      f"{r.get('event', '')} {r.get('tool', '') or r.get('part', '')}".strip(),
                      str(r.get('outcome', '')),
                      str(r.get('code') or r.get('decision') or r.get('reason')
                          or r.get('plan_id') or ''),
                      f"{r['duration_ms']:.0f}" if isinstance(r.get('duration_ms'), (int, float))
                      else '', str(r.get('decided_by', '')), str(r.get('session', '') or '')))
    return table


def render(table: list[tuple[str, ...]]) -> str:
    """Return ``table`` with aligned columns under a header."""
    widths = [max([len(c)] + [len(row[i]) for row in table]) for i, c in enumerate(COLUMNS)]
    lines = ['  '.join(c.ljust(w) for c, w in zip(row, widths)).rstrip()
             for row in [COLUMNS, tuple('-' * w for w in widths), *table]]
    return '\n'.join(lines)


def main(path: str) -> int:
    """Print the file's metadata line, its timeline and its message counts."""
    session = read_session(path)
    meta = session.start
    print(f"{os.path.basename(path)}: robot {meta.get('robot', '?')} on "
          f"{meta.get('backend', '?')}, bridge {meta.get('bridge_version', '?')} "
          f"({meta.get('git_commit', '')[:12] or 'no commit'}), started "
          f"{meta.get('started', '?')}, "
          f"{'stopped ' + session.end.get('stopped', '?') if session.end else 'not closed'}")
    print(render(rows(session)))
    print('messages: ' + ', '.join(f'{t} {n}' for t, n in sorted(session.counts.items())))
    if session.cut:
        print(f'file cut short: {session.cut}')
    return 0
