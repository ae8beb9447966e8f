"""
``mcp-ros-bridge verify FILE``: whether the chain of tool-call and event records is intact.

Intact means: every record parses, its hash is the hash of its content, its
``prev`` is the previous record's hash (the first one's the file's seed) and the
``seq`` numbers run 1, 2, … without a gap; and when the file was closed, the
count and the last hash match its end metadata. Otherwise the first record that
was changed or removed is named.
"""

from __future__ import annotations

from mcp_ros_bridge.recording.chain import digest
from mcp_ros_bridge.recording.reader import read_session, Session


def check(session: Session) -> tuple[bool, str]:
    """Return (intact, one line saying so or naming the first bad record)."""
    if not session.start:
        return False, 'no recording metadata: not a file the bridge wrote, or its start changed'
    last, seq = session.start.get('chain_seed', ''), 0
    for index, entry in enumerate(session.records, 1):
        record = entry.parsed()
        where = f'record {index} ({entry.topic}'
        if record is None:
            return False, f'{where}) was changed: its bytes are no JSON record'
        where += f', seq {record.get("seq")}, {record.get("tool") or record.get("event")})'
        if record.get('hash') != digest(record):
            return False, f'{where} was changed: its content does not match its hash'
        if record.get('seq') != seq + 1 or record.get('prev') != last:
            return False, (f'{where}: the record before it was removed or changed '
                           f'(expected seq {seq + 1} after hash {last[:12]}…)')
        last, seq = str(record['hash']), seq + 1
    if session.cut and session.closed:
        return False, (f'record {seq + 1} and later cannot be read: the finished file was '
                       f'changed ({session.cut})')
    if session.crc_error:
        return False, (f'intact chain of {seq} records, but robot data was changed: '
                       f'{session.crc_error}')
    if session.end is None:
        note = f' (file cut short: {session.cut})' if session.cut else ' (file not closed)'
        return True, f'intact: {seq} records chained{note}; nothing after them is vouched for'
    if session.end.get('chained_records') != str(seq) or session.end.get('last_hash') != last:
        return False, (f'record {seq + 1} and later were removed: the file was closed after '
                       f'{session.end.get("chained_records")} records, {seq} remain')
    return True, f'intact: {seq} records chained, file closed {session.end.get("stopped")}'


def main(path: str) -> int:
    """Print the verdict on ``path``; exit status 0 when intact, 1 when not."""
    ok, line = check(read_session(path))
    print(f'{path}: {line}')
    return 0 if ok else 1
