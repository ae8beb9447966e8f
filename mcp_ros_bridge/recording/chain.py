"""
The hash chain over a file's tool-call and event records.

Each record gets ``seq`` (1, 2, …), ``prev`` (the previous record's hash; the
first one's is the file's seed, kept in its metadata) and ``hash``: SHA-256 of
the record without ``hash`` as canonical JSON. Changing a byte of a record
breaks its hash; removing one breaks the next record's ``prev`` and ``seq``.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any


def canonical(record: dict[str, Any]) -> bytes:
    """Return the bytes a record's hash is taken over (every key but ``hash``)."""
    body = {k: v for k, v in record.items() if k != 'hash'}
    return json.dumps(body, sort_keys=True, separators=(',', ':'), ensure_ascii=False,
                      default=str).encode()


def digest(record: dict[str, Any]) -> str:
    """Return the hex SHA-256 of ``record``'s canonical form."""
    return hashlib.sha256(canonical(record)).hexdigest()


class Chain:
    """Links records in the order they are written."""

    def __init__(self, seed: str) -> None:
        """Start after ``seed`` (the file's chain seed)."""
        self.last, self.count = seed, 0

    def link(self, record: dict[str, Any]) -> dict[str, Any]:
        """Return ``record`` with ``seq``, ``prev`` and ``hash`` set."""
        self.count += 1
        linked = {**record, 'seq': self.count, 'prev': self.last}
        linked['hash'] = self.last = digest(linked)
        return linked
