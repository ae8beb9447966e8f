"""
Read a session file record by record, also one cut short by a crash (no index, no footer).

The file is read as a stream of MCAP records (chunks opened), in the order they
were written, so ``verify`` sees each record where it is and a truncated file
yields everything before the cut.
"""

from __future__ import annotations

from dataclasses import dataclass, field
import json
import os
import struct
from typing import Any

from mcap.exceptions import McapError
from mcap.records import Channel, Message, Metadata, Schema
from mcap.stream_reader import CRCValidationError, StreamReader
from mcap.writer import MCAP0_MAGIC as MAGIC
from mcp_ros_bridge.recording.channels import CHAINED, TF
from mcp_ros_bridge.recording.session_file import END_META, START_META


@dataclass
class Entry:
    """A tool-call or event record as stored: its topic, log time and raw bytes."""

    topic: str
    log_ns: int
    data: bytes

    def parsed(self) -> dict[str, Any] | None:
        """Return the record, or None when its bytes are no JSON object."""
        try:
            value = json.loads(self.data)
        except ValueError:
            return None
        return value if isinstance(value, dict) else None


@dataclass
class Session:
    """What a file holds: metadata, the chained records, tip poses, message counts."""

    start: dict[str, str] = field(default_factory=dict)
    end: dict[str, str] | None = None
    records: list[Entry] = field(default_factory=list)
    tips: list[tuple[int, tuple[float, float, float]]] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    cut: str = ''  # why reading stopped early ('' when the file is whole)
    closed: bool = False  # the file ends with the MCAP magic (it was finished)
    crc_error: str = ''  # a chunk whose bytes no longer match its CRC


def read_session(path: str) -> Session:
    """Read ``path`` in write order."""
    session = Session()
    channels: dict[int, Channel] = {}
    schemas: dict[int, Schema] = {}
    with open(path, 'rb') as f:
        try:
            for record in StreamReader(f, validate_crcs=False).records:
                if isinstance(record, Schema):
                    schemas[record.id] = record
                elif isinstance(record, Channel):
                    channels[record.id] = record
                elif isinstance(record, Metadata):
                    if record.name == START_META:
                        session.start = dict(record.metadata)
                    elif record.name == END_META:
                        session.end = dict(record.metadata)
                elif isinstance(record, Message) and record.channel_id in channels:
                    _message(session, channels[record.channel_id], schemas, record)
        except (McapError, EOFError, ValueError, KeyError, struct.error) as exc:
            session.cut = f'{type(exc).__name__}: {exc}'
        f.seek(0, os.SEEK_END)
        if f.tell() >= len(MAGIC):
            f.seek(-len(MAGIC), os.SEEK_END)
            session.closed = f.read() == MAGIC
        f.seek(0)
        try:
            for _ in StreamReader(f, validate_crcs=True).records:
                pass
        except CRCValidationError as exc:
            session.crc_error = str(exc)
        except (McapError, EOFError, ValueError, KeyError, struct.error):
            pass  # already in ``cut``
    return session


def _message(session: Session, channel: Channel, schemas: dict[int, Schema],
             message: Message) -> None:
    topic = channel.topic
    session.counts[topic] = session.counts.get(topic, 0) + 1
    if topic in CHAINED:
        session.records.append(Entry(topic, message.log_time, bytes(message.data)))
    elif topic == TF:
        position = tip_position(channel, schemas, bytes(message.data))
        if position is not None:
            session.tips.append((message.log_time, position))


def tip_position(channel: Channel, schemas: dict[int, Schema],
                 data: bytes) -> tuple[float, float, float] | None:
    """Return the tip position of a /tf message (CDR or JSON)."""
    try:
        if channel.message_encoding == 'cdr':
            from mcap_ros2._dynamic import generate_dynamic
            schema = schemas[channel.schema_id]
            decoded: Any = generate_dynamic(schema.name, schema.data.decode())[schema.name](data)
            t = decoded.transforms[0].transform.translation
            return (t.x, t.y, t.z)
        t = json.loads(data)['transforms'][0]['transform']['translation']
        return (float(t['x']), float(t['y']), float(t['z']))
    except (ValueError, KeyError, IndexError, AttributeError):
        return None
