"""
Texts the model reads come from the message table, not English literals in the code.

Two walks over the package's syntax trees: every ``t('id', ...)`` call site names
an id of the table and renders in both languages with exactly the values it
passes; and no string literal or f-string with English words reaches a field that
carries a text (a constructor's message argument, a ``message=``/``advice=``/...
keyword, a ``'message'`` key, an assignment to ``message``, ``why``, ``reason``...).
"""

import ast
from pathlib import Path
import re
import string

from mcp_ros_bridge.capabilities import KINDS
from mcp_ros_bridge.catalog.loader import load_catalog
from mcp_ros_bridge.messages import MESSAGES, speaking, t
from paths import CONFIG_DIR, REPO
import pytest

PACKAGE = Path(REPO) / 'mcp_ros_bridge'
SOURCES = sorted(PACKAGE.rglob('*.py'))
# Where results and errors are composed.
AREAS = ('capabilities', 'safety', 'contract', 'server', 'backends')
# The argument that carries a text the model reads, per callable (position, keyword).
TEXT_ARGS = {'Outcome': (0, 'text'), 'error_result': (0, 'text'), 'Denied': (0, ''),
             'BackendError': (1, 'message'), 'KeyReuseError': (0, ''),
             'KeysExhausted': (0, ''), 'FirstCallAbandoned': (0, ''),
             'MotionResult': (1, 'message'), 'GripResult': (1, 'message'),
             'ArmRun': (1, 'message'), 'result': (2, 'message'), '_begin_halt': (2, 'reason'),
             'halt': (0, 'reason'), '_halt_all': (0, 'reason'), 'notify': (1, 'message'),
             'progress': (1, 'message'), 'report_progress': (2, 'message'),
             'ros_only': (0, 'what'), 'stopped_result': (1, 'why')}
TEXT_KEYWORDS = {'message', 'text', 'advice', 'reason', 'why', 'note', 'what', 'label'}
TEXT_NAMES = {'message', 'msg', 'text', 'advice', 'reason', 'why', 'note', 'what', 'label',
              'halt_reason', 'stop_reason', 'summary'}
HAN = re.compile(r'[\u4e00-\u9fff]')


def _has_words(node: ast.AST) -> bool:
    """Return True for a literal (or f-string) holding two or more English words."""
    parts = [node] if isinstance(node, ast.Constant) else (
        node.values if isinstance(node, ast.JoinedStr) else [])
    text = ' '.join(p.value for p in parts if isinstance(p, ast.Constant)
                    and isinstance(p.value, str))
    return sum(w.isalpha() and w.islower() for w in text.split()) >= 2


def _texts(node: ast.AST) -> list[ast.AST]:
    """Return the literal parts a value may be: both branches of ``a if c else b``, ``or``."""
    if isinstance(node, ast.IfExp):
        return _texts(node.body) + _texts(node.orelse)
    if isinstance(node, ast.BoolOp):
        return [v for value in node.values for v in _texts(value)]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _texts(node.left) + _texts(node.right)
    return [node]


def literal_texts(source: str) -> list[int]:
    """Return the lines where a text the model reads is an English literal."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        values: list[ast.AST] = []
        if isinstance(node, ast.Call):
            name = getattr(node.func, 'id', getattr(node.func, 'attr', ''))
            pos, kw = TEXT_ARGS.get(name, (None, ''))
            if pos is not None and len(node.args) > pos:
                values.append(node.args[pos])
            values += [k.value for k in node.keywords if k.arg in TEXT_KEYWORDS | {kw}]
        elif isinstance(node, ast.Dict):  # {'message': ...} of a structured result
            values += [v for k, v in zip(node.keys, node.values)
                       if isinstance(k, ast.Constant) and k.value in TEXT_NAMES]
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(getattr(tg, 'id', getattr(tg, 'attr', '')) in TEXT_NAMES for tg in targets):
                values.append(node.value)
        if any(_has_words(v) for value in values for v in _texts(value)):
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
    assert literal_texts("message = ('it stopped here' if a else t('x'))") == [1]
    assert literal_texts("run = replace(run, message=f'followed {n} of the path')") == [1]
    assert literal_texts("self.result(w, s, f'{why}; the fingers hold', 0.0)") == [1]
    assert literal_texts("task.halt('backend closing')") == [1]
    assert literal_texts("why = self.halt_reason or f'no grasp within {n} s'") == [1]
    assert literal_texts("ArmRun(status, 'nothing was moving', 0.0)") == [1]
    assert literal_texts("x = {'status': 'PLANNED', 'message': t('plan_only_note')}") == []
    assert literal_texts("x = {'status': 'PLANNED', 'message': 'planned only; nothing moved'}") \
        == [1]


def _placeholders(text: str) -> set[str]:
    return {re.split(r'[.\[]', name)[0] for _, name, _, _ in string.Formatter().parse(text)
            if name}


def _ids(node: ast.AST) -> tuple[list[str], list[str]]:
    """Return (ids, id prefixes) a t() call's first argument may name."""
    ids, prefixes = [], []
    for part in _texts(node):
        if isinstance(part, ast.Constant) and isinstance(part.value, str):
            ids.append(part.value)
        elif isinstance(part, ast.JoinedStr) and isinstance(part.values[0], ast.Constant):
            prefixes.append(str(part.values[0].value))
    if isinstance(node, ast.BinOp) and isinstance(node.left, ast.Constant):
        prefixes, ids = [str(node.left.value)], []  # 'advice_' + code
    return ids, prefixes


def message_call_sites() -> list[tuple[str, int, list[str], list[str], set[str] | None]]:
    """Return every t() call: file, line, ids, id prefixes, keywords (None with **values)."""
    sites = []
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding='utf-8'))):
            if not (isinstance(node, ast.Call) and getattr(node.func, 'id', '') == 't'
                    and node.args):
                continue
            ids, prefixes = _ids(node.args[0])
            keywords = None if any(k.arg is None for k in node.keywords) else {
                str(k.arg) for k in node.keywords}
            sites.append((str(path.relative_to(PACKAGE)), node.lineno, ids, prefixes,
                          keywords))
    return sites


SITES = message_call_sites()


def test_the_walk_sees_the_message_call_sites():
    assert len(SITES) > 300
    assert sum(bool(ids) for _, _, ids, _, _ in SITES) > 300


def _sample(name: str, template: str) -> object:
    """Return a value that renders in ``template``'s spec for ``name`` (numbers fit all)."""
    return 1.25 if re.search(r'\{' + name + r'(![rs])?:[^}]*[fgde%]\}', template) else 1


@pytest.mark.parametrize('lang', ['en', 'zh'])
def test_every_message_call_site_names_an_id_and_renders(lang):
    """Each id exists; the values passed are exactly its placeholders; both languages render."""
    problems = []
    for where, line, ids, prefixes, keywords in SITES:
        for prefix in prefixes:
            if not any(k.startswith(prefix) for k in MESSAGES):
                problems.append(f'{where}:{line}: no message id starts with {prefix!r}')
        for key in ids:
            if key not in MESSAGES:
                problems.append(f'{where}:{line}: unknown message id {key!r}')
                continue
            en, zh = MESSAGES[key]
            wanted = _placeholders(en)
            if keywords is not None and keywords != wanted:
                problems.append(f'{where}:{line}: {key} takes {sorted(wanted)}, '
                                f'the call passes {sorted(keywords)}')
                continue
            values = {n: _sample(n, en + zh) for n in wanted}
            with speaking(lang):
                try:
                    rendered = t(key, **values)
                except (KeyError, ValueError, IndexError, AttributeError) as exc:
                    problems.append(f'{where}:{line}: {key} does not render: {exc!r}')
                    continue
            if lang == 'zh' and not HAN.search(rendered) and HAN.search(zh + en):
                problems.append(f'{where}:{line}: {key} has no Chinese text')
    assert problems == []


def _descriptions(schema: object, path: str) -> list[tuple[str, str]]:
    found = []
    if isinstance(schema, dict):
        if isinstance(schema.get('description'), str):
            found.append((path, schema['description']))
        for key, sub in schema.items():
            found += _descriptions(sub, f'{path}.{key}')
    elif isinstance(schema, list):
        for i, sub in enumerate(schema):
            found += _descriptions(sub, f'{path}.{i}')
    return found


def test_every_parameter_description_at_every_depth_is_chinese_under_zh():
    """Nested ones too (e.g. move_arm_relative.offset.x), not only the top-level ones."""
    catalog = load_catalog(CONFIG_DIR, 'zh', kinds=KINDS)
    english = [(tool.name + where, text) for tool in catalog.tools
               for where, text in _descriptions(tool.input_schema, '')
               if not HAN.search(text)]
    assert english == []
