"""
The served languages and how a YAML text in several languages is resolved.

A text in ``tools.yaml`` or ``prompts.yaml`` (a title, a description, a
parameter description inside ``input``) is a string or ``{en, zh}``. One
language is served per server; a text without it falls back to English.
"""

from __future__ import annotations

import re
from typing import Any, TypeGuard

LANGS = ('en', 'zh')
# Values of a schema keyword that are data, not schemas: never resolved.
_DATA_KEYWORDS = frozenset({'default', 'examples', 'enum', 'const'})
_CJK_GAP = re.compile(r'(?<=[\u3000-\u9fff\uff00-\uffef])\s+|\s+(?=[\u3000-\u9fff\uff00-\uffef])')


def is_text_map(value: Any) -> TypeGuard[dict[str, str]]:
    """Return True for ``{en: ..., zh: ...}``: English given, only known languages, strings."""
    return (isinstance(value, dict) and 'en' in value and set(value) <= set(LANGS)
            and all(isinstance(v, str) for v in value.values()))


def pick_text(text: Any, lang: str) -> str:
    """Return the text in ``lang``, falling back to English."""
    chosen = text if isinstance(text, str) else str(text.get(lang) or text['en'])
    # YAML folding joins lines with a space, which Chinese text does not use.
    return _CJK_GAP.sub('', chosen.strip())


def localize_schema(schema: dict[str, Any], lang: str) -> dict[str, Any]:
    """Return a copy of a JSON Schema whose ``{en, zh}`` descriptions are strings in ``lang``."""
    return {key: _localize_keyword(key, value, lang) for key, value in schema.items()}


def _localize_keyword(key: str, value: Any, lang: str) -> Any:
    if key == 'description' and is_text_map(value):
        return pick_text(value, lang)
    if key in _DATA_KEYWORDS:
        return value
    if key == 'properties' and isinstance(value, dict):  # names, not keywords
        return {name: _localize(sub, lang) for name, sub in value.items()}
    return _localize(value, lang)


def _localize(node: Any, lang: str) -> Any:
    if isinstance(node, list):
        return [_localize(v, lang) for v in node]
    return localize_schema(node, lang) if isinstance(node, dict) else node
