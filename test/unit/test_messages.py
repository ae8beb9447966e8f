"""The message table: every text in both languages with the same placeholders."""

from string import Formatter

from mcp_ros_bridge.capabilities import KINDS
from mcp_ros_bridge.messages import LANGS, MESSAGES, speaking, t, TABLES
import pytest


def _fields(template):
    return sorted(f for _, f, spec, _ in Formatter().parse(template) if f is not None)


@pytest.mark.parametrize('key', sorted(MESSAGES))
def test_every_text_has_both_languages_and_the_same_placeholders(key):
    texts = MESSAGES[key]
    assert len(texts) == len(LANGS)
    assert all(isinstance(s, str) for s in texts)
    en, zh = texts
    assert en.strip() or en == ' ', key  # a separator may be only a space
    assert zh.strip() or not en.strip() or key.startswith('verb_'), key
    assert _fields(en) == _fields(zh), key


def test_keys_are_unique_across_tables():
    assert sum(len(table) for table in TABLES) == len(MESSAGES)


def test_the_language_is_the_callers_and_english_elsewhere():
    assert t('refused', tool='move_arm_to_pose', reason='x') == 'move_arm_to_pose refused: x'
    with speaking('zh'):
        assert t('refused', tool='move_arm_to_pose', reason='x') == 'move_arm_to_pose 被拒绝：x'
        with speaking('fr'):
            assert t('keys_none') == 'none'
        assert t('keys_none') == '无'
    assert t('keys_none') == 'none'


def test_what_each_kind_returns_is_in_the_table():
    assert [k.name for k in KINDS.values() if k.returns not in MESSAGES] == []
