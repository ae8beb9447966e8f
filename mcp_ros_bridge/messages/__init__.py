"""
Every text a model reads in a result or an error, in each served language: one table by id.

``t('id', **values)`` renders the entry in the language of the current call. The
call pipeline sets it once per call from the server's one ``lang`` setting
(``speaking``); anywhere else it is English. Numbers, field names, tool names,
units and JSON are passed as values, so they read the same in every language.

To add a text: one entry ``'area_what': ('English {value}', '中文 {value}')`` in
the table of its area (``contract``, ``ros``, ...), with the same
placeholders in both languages (a unit test checks this), then ``t('area_what',
value=...)`` where the English string was.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from mcp_ros_bridge.messages import (console, contract, grip, lease, manipulation, moveit,
                                     push, refusals, reload, results, robots, ros, ros_motion,
                                     sensing, sim, transport)

LANGS = ('en', 'zh')
TABLES = (console.TABLE, contract.TABLE, grip.TABLE, lease.TABLE, manipulation.TABLE,
          moveit.TABLE, push.TABLE, refusals.TABLE, reload.TABLE, results.TABLE, robots.TABLE,
          ros.TABLE, ros_motion.TABLE, sensing.TABLE, sim.TABLE, transport.TABLE)
MESSAGES: dict[str, tuple[str, str]] = {k: v for table in TABLES for k, v in table.items()}
_LANG: ContextVar[str] = ContextVar('mcp_ros_bridge_lang', default='en')


def current_language() -> str:
    """Return the language texts are rendered in here."""
    return _LANG.get()


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Render texts in ``lang`` (one of LANGS) inside the block."""
    token = _LANG.set(lang if lang in LANGS else 'en')
    try:
        yield
    finally:
        _LANG.reset(token)


def t(key: str, /, **values: Any) -> str:
    """Return the text ``key`` in the current language with ``values`` filled in."""
    en, zh = MESSAGES[key]
    return (zh if _LANG.get() == 'zh' else en).format(**values)


class Said(str):
    """
    A table text held in a data structure (a result schema's description); see ``said``.

    It is its English text wherever it is used as a string; ``localized`` renders it
    in the current language (the tool list does, per served language).
    """

    key: str
    values: dict[str, Any]

    def localized(self) -> str:
        """Return the text in the current language."""
        return t(self.key, **self.values)


def said(key: str, /, **values: Any) -> Said:
    """Return the table text ``key`` with ``values`` to be rendered later (``Said``)."""
    text = Said(MESSAGES[key][0].format(**values))
    text.key, text.values = key, values
    return text
