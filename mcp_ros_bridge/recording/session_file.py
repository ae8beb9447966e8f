"""
One MCAP file being written: schemas and channels registered on first use, chunks, metadata.

Chunks are uncompressed so that a changed byte of a tool-call record changes that
record (``verify`` names it) rather than a whole compressed chunk; each chunk is
flushed to the disk when closed, so a crash loses at most the chunk in progress.
"""

from __future__ import annotations

import json
import time
from typing import Any, BinaryIO

from mcap.well_known import MessageEncoding, SchemaEncoding
from mcap.writer import CompressionType, Writer
from mcp_ros_bridge.recording.channels import as_json, JSON_SCHEMAS
from mcp_ros_bridge.recording.fast_cdr import faster

CHUNK_BYTES = 256 * 1024
PROFILE = 'ros2'
START_META, END_META = 'mcp_ros_bridge', 'mcp_ros_bridge_end'


class SessionFile:
    """An open MCAP file; every method runs on the recorder's writer thread."""

    def __init__(self, path: str, ros_schemas: dict[str, tuple[str, str]],
                 metadata: dict[str, str]) -> None:
        """Create ``path``; ``ros_schemas`` maps a topic to (type, ros2msg text)."""
        self.path, self.opened = path, time.monotonic()
        self._stream: BinaryIO = open(path, 'wb')  # noqa: SIM115 - closed by finish()
        self._writer = Writer(self._stream, chunk_size=CHUNK_BYTES,
                              compression=CompressionType.NONE)
        self._writer.start(profile=PROFILE, library='mcp_ros_bridge')
        self._writer.add_metadata(START_META, metadata)
        self._ros = ros_schemas
        self._channels: dict[str, tuple[int, Any]] = {}
        self.counts: dict[str, int] = {}

    def _channel(self, topic: str) -> tuple[int, Any]:
        found = self._channels.get(topic)
        if found is not None:
            return found
        if topic in self._ros:
            from mcap_ros2._dynamic import serialize_dynamic
            kind, text = self._ros[topic]
            schema = self._writer.register_schema(kind, SchemaEncoding.ROS2, text.encode())
            channel = self._writer.register_channel(topic, MessageEncoding.CDR, schema)
            found = channel, faster(kind, serialize_dynamic(kind, text)[kind])
        else:
            schema_doc = JSON_SCHEMAS.get(topic, {'type': 'object'})
            schema = self._writer.register_schema(
                str(schema_doc.get('title', topic.strip('/'))), SchemaEncoding.JSONSchema,
                json.dumps(schema_doc).encode())
            found = self._writer.register_channel(topic, MessageEncoding.JSON, schema), None
        self._channels[topic] = found
        return found

    def write(self, topic: str, message: dict[str, Any], log_ns: int) -> None:
        """Append ``message`` on ``topic`` (CDR when the topic has a ROS type, else JSON)."""
        channel, encode = self._channel(topic)
        data = encode(message) if encode is not None else json.dumps(
            as_json(message), ensure_ascii=False, default=str).encode()
        self.counts[topic] = self.counts.get(topic, 0) + 1
        self._writer.add_message(channel, log_time=log_ns, data=data, publish_time=log_ns,
                                 sequence=self.counts[topic])

    def flush(self) -> None:
        """Close the chunk in progress and hand everything to the operating system."""
        self._writer.flush()  # type: ignore[no-untyped-call]

    def size(self) -> int:
        """Return the bytes written so far."""
        return self._stream.tell()

    def finish(self, metadata: dict[str, str]) -> None:
        """Write the end metadata, the index and the footer; close the file."""
        try:
            self._writer.add_metadata(END_META, metadata)
            self._writer.finish()  # type: ignore[no-untyped-call]
        finally:
            self._stream.close()
