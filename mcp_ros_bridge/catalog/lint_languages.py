"""
Lint rule ``text-languages``: every text a client shows exists in every served language.

The title, the description and each parameter description are ``{en, zh}``
with the same units in parentheses (parameters), so ``--lang zh`` serves no English text
and error messages read the unit from either language.
"""

from __future__ import annotations

from typing import Any

from mcp_ros_bridge.catalog.language import is_text_map, LANGS
from mcp_ros_bridge.catalog.lint_model import PAREN, Report, UNITS, walk


def _units(text: str) -> list[str]:
    return [u.strip() for u in PAREN.findall(text) if u.strip() in UNITS]


def check_languages(report: Report, i: int, name: str, raw: dict[str, Any],
                    schema: dict[str, Any]) -> None:
    """Check that each text is ``{en, zh}`` and both languages state the same units."""
    base = ('tools', i)
    texts: list[tuple[tuple[Any, ...], Any]] = [(('title',), raw.get('title')),
                                                (('description',), raw.get('description'))]
    texts += [(node.path + ('description',), node.schema['description'])
              for node in walk(schema) if 'description' in node.schema]
    pair = '{' + ', '.join(f'{lang}: ...' for lang in LANGS) + '}'
    for rel, text in texts:
        if isinstance(text, str) and text.strip():
            report.add('text-languages', name, base, rel,
                       'this text is in one language only; with --lang zh it is served '
                       'untranslated', f'write it as {pair}')
        elif is_text_map(text):
            missing = [lang for lang in LANGS if not text.get(lang, '').strip()]
            if missing:
                report.add('text-languages', name, base, rel,
                           f"this text has no {', '.join(missing)} version",
                           f'add {missing[0]}: beside en')
            elif rel[0] == 'input' and len({tuple(_units(t)) for t in text.values()}) > 1:
                shown = '; '.join(f'{lang} {_units(t)}' for lang, t in text.items())
                report.add('text-languages', name, base, rel,
                           f'the languages state different units ({shown})',
                           'state the same unit in ASCII parentheses in every language, '
                           'e.g. (m)')
