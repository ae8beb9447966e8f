"""``--lang`` is accepted before or after every subcommand; after it wins."""

import json

from mcp_ros_bridge.cli import _parser, main
import pytest

COMMANDS = (['serve'], ['tools'], ['lint'], ['demo'])


@pytest.mark.parametrize('command', COMMANDS, ids=lambda c: c[0])
def test_lang_before_or_after_the_subcommand(command):
    assert _parser().parse_args(command).lang == 'en'
    assert _parser().parse_args(['--lang', 'zh'] + command).lang == 'zh'
    assert _parser().parse_args(command + ['--lang', 'zh']).lang == 'zh'
    assert _parser().parse_args(['--lang', 'zh'] + command + ['--lang', 'en']).lang == 'en'


@pytest.mark.parametrize('command', COMMANDS, ids=lambda c: c[0])
def test_unknown_lang_is_refused(command, capsys):
    for argv in (['--lang', 'fr'] + command, command + ['--lang', 'fr']):
        with pytest.raises(SystemExit) as exc:
            _parser().parse_args(argv)
        assert exc.value.code == 2
        assert "invalid choice: 'fr'" in capsys.readouterr().err


@pytest.mark.parametrize('argv', (['--lang', 'zh', 'tools'], ['tools', '--lang', 'zh']))
def test_tools_prints_chinese_titles_either_way(argv, capsys):
    assert main(argv) == 0
    tools = {t['name']: t for t in json.loads(capsys.readouterr().out)['tools']}
    assert tools['stop_arm']['title'] == '停止机械臂'
    width = tools['release_object']['inputSchema']['properties']['width_m']
    assert width['description'].startswith('手指间距')


def test_lint_measures_the_served_language(capsys):
    assert main(['lint', '--json']) == 0
    en = json.loads(capsys.readouterr().out)['summary']
    assert main(['--lang', 'zh', 'lint', '--json']) == 0
    zh = json.loads(capsys.readouterr().out)['summary']
    assert en['warning'] == zh['warning'] == 0
    assert en['tokens'] != zh['tokens']
