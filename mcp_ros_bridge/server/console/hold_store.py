"""
The operator hold kept across bridge restarts: ``hold.json`` in the state directory.

A STOP writes the file before the arm is stopped; a person's release removes it.
A bridge that starts with the file present starts held (until a person releases
it on the console). A file that cannot be read is a hold too (fail closed): a
torn or edited file never lets motions run by itself.
"""

from __future__ import annotations

from dataclasses import dataclass
import json
import logging
import os
import time

from mcp_ros_bridge.server.state_dir import write_private

log = logging.getLogger('mcp_ros_bridge.console')
FILE = 'hold.json'


@dataclass(frozen=True)
class HoldRecord:
    """A hold: since when (wall time, s since the epoch) and by whom."""

    since: float
    by: str


class HoldStore:
    """The hold file of one bridge (``path`` None: the hold lives in memory only)."""

    def __init__(self, state_dir: str | None) -> None:
        """Keep the hold in ``state_dir``/hold.json (None: nowhere)."""
        self.path = os.path.join(state_dir, FILE) if state_dir else None

    def load(self) -> HoldRecord | None:
        """Return the stored hold, None when there is none; an unreadable file holds."""
        if self.path is None or not os.path.lexists(self.path):
            return None
        try:
            with open(self.path, encoding='utf-8') as f:
                data = json.load(f)
            return HoldRecord(float(data['since']), str(data['by']))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning('hold file %s unreadable (%s): the arm starts held', self.path, exc)
            return HoldRecord(time.time(), f'unreadable hold file {self.path}')

    def save(self, record: HoldRecord) -> bool:
        """Store ``record``; False (logged) when it could not be written."""
        if self.path is None:
            return False
        try:
            write_private(self.path, json.dumps({'since': record.since, 'by': record.by}))
            return True
        except OSError as exc:
            log.error('the hold could not be kept in %s (%s): a restart would lose it',
                      self.path, exc)
            return False

    def clear(self) -> None:
        """Remove the stored hold (a person released it)."""
        if self.path is not None and os.path.lexists(self.path):
            os.unlink(self.path)


def monotonic_since(record: HoldRecord) -> float:
    """Return the monotonic time the hold of ``record`` began (never in the future)."""
    return time.monotonic() - max(0.0, time.time() - record.since)
