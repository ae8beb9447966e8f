"""Texts the model reads come from the message table, not English literals in the code."""

import ast
from pathlib import Path

from paths import REPO
import pytest

PACKAGE = Path(REPO) / 'mcp_ros_bridge'
# Where results and errors are composed.
AREAS = ('capabilities', 'safety', 'contract', 'server', 'backends')
# The argument that carries a text the model reads, per constructor.
TEXT_ARGS = {'Outcome': (0, 'text'), 'error_result': (0, 'text'), 'Denied': (0, ''),
             'BackendError': (1, 'message'), 'KeyReuseError': (0, ''),
             'KeysExhausted': (0, ''), 'FirstCallAbandoned': (0, ''),
             'MotionResult': (1, 'message'), 'GripResult': (1, 'message')}


def _has_words(node: ast.AST) -> bool:
    """Return True for a literal (or f-string) holding two or more English words."""
    parts = [node] if isinstance(node, ast.Constant) else (
        node.values if isinstance(node, ast.JoinedStr) else [])
    text = ' '.join(p.value for p in parts if isinstance(p, ast.Constant)
                    and isinstance(p.value, str))
    return sum(w.isalpha() and w.islower() for w in text.split()) >= 2


def literal_texts(source: str) -> list[int]:
    """Return the lines where a text the model reads is an English literal."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, 'id', getattr(node.func, 'attr', ''))
        if name not in TEXT_ARGS:
            continue
        pos, kw = TEXT_ARGS[name]
        args = [node.args[pos]] if len(node.args) > pos else []
        args += [k.value for k in node.keywords if k.arg in (kw, 'advice')]
        if any(_has_words(a) for a in args):
            lines.append(node.lineno)
    return lines


@pytest.mark.parametrize('area', AREAS)
def test_no_english_literal_texts(area):
    found = {str(p.relative_to(PACKAGE)): literal_texts(p.read_text(encoding='utf-8'))
             for p in sorted((PACKAGE / area).rglob('*.py'))}
    assert {k: v for k, v in found.items() if v} == {}


def test_the_check_finds_a_literal():
    source = "Outcome(f'It moved in {s} s and stopped.', {})\nOutcome(t('x'), {})"
    assert literal_texts(source) == [1]
    assert literal_texts("BackendError('NO_IK', 'out of reach', advice='move closer')") == [1]
    assert literal_texts("BackendError('NO_IK', t('sim_no_ik'))") == []
