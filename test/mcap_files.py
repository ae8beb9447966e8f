"""Reading a recorded MCAP file back with the ``mcap`` library (an independent reader)."""

from __future__ import annotations

from typing import Any


def read_mcap(path: str) -> tuple[dict[str, Any], dict[str, list[Any]], dict[str, Any]]:
    """Return the file's channels by topic, its messages by topic and its metadata by name."""
    from mcap.reader import make_reader  # the caller skips where mcap is not installed
    with open(path, 'rb') as f:
        reader = make_reader(f, validate_crcs=True)
        summary = reader.get_summary()
        assert summary is not None
        channels = {c.topic: c for c in summary.channels.values()}
        messages: dict[str, list[Any]] = {t: [] for t in channels}
        for _, channel, message in reader.iter_messages(log_time_order=False):
            messages[channel.topic].append(message)
        meta = {m.name: m.metadata for m in reader.iter_metadata()}
    return channels, messages, meta
