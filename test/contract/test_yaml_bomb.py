"""A YAML alias bomb or an oversized file in the config is refused fast; the server serves on."""

from __future__ import annotations

import os
from typing import Any

import anyio
from mcp import Client
from mcp_ros_bridge.catalog import yaml_lines
from mcp_ros_bridge.catalog.yaml_lines import ConfigError, load_yaml
import pytest
from test_reload import watched
import yaml

pytestmark = [pytest.mark.contract, pytest.mark.anyio]


def bomb(levels: int, fan: int = 9) -> str:
    """Return a "billion laughs" document: ``fan ** levels`` values from a few hundred bytes."""
    rows = [f"lol0: &l0 [{', '.join(['lol'] * fan)}]"]
    rows += [f"lol{k}: &l{k} [{', '.join([f'*l{k - 1}'] * fan)}]" for k in range(1, levels)]
    return '\n'.join(rows) + '\n'


def append(config_dir: str, text: str) -> None:
    """Append ``text`` to tools.yaml."""
    with open(os.path.join(config_dir, 'tools.yaml'), 'a', encoding='utf-8') as f:
        f.write(text)


@pytest.mark.parametrize('levels', [7, 9])  # 4.8 million and 387 million values
async def test_alias_bomb_is_refused_naming_the_line(levels: int) -> None:
    """The expansion budget stops the bomb after MAX_NODES values, at the alias's line."""
    text = bomb(levels)
    assert len(text) < 800
    with pytest.raises(ConfigError) as err:
        load_yaml(text, 'tools.yaml')
    assert 'aliases expand the document' in str(err.value)
    assert err.value.line is not None and 2 <= err.value.line <= levels


async def test_a_few_aliases_still_load() -> None:
    """Ordinary anchors and aliases (well under the budget) keep working."""
    doc = load_yaml('base: &b {x: 1, y: [1, 2]}\nother: *b\nthird: *b\n', 'f.yaml')
    assert doc.data['other'] == doc.data['third'] == {'x': 1, 'y': [1, 2]}
    assert doc.line_of(('third', 'y')) == 1


async def test_oversized_file_is_refused() -> None:
    """A config text over MAX_CHARS is refused before it is parsed."""
    with pytest.raises(ConfigError) as err:
        load_yaml('#' * (yaml_lines.MAX_CHARS + 1), 'tools.yaml')
    assert 'larger than' in str(err.value)


def test_the_c_parser_is_used_where_pyyaml_has_it() -> None:
    """The libyaml parser is used (about 10x faster); the pure-Python one is the fallback."""
    expected = yaml.CSafeLoader if getattr(yaml, '__with_libyaml__', False) else yaml.SafeLoader
    assert yaml_lines._LOADER is expected


async def test_bomb_in_a_hot_reload_is_refused_while_calls_go_on(tmp_path: Any) -> None:
    """The reload fails fast with the reason; reads and stop_arm keep answering meanwhile."""
    async with watched(tmp_path) as (bridge, watcher, cfg), Client(bridge.server) as client:
        with anyio.fail_after(30):
            old_hash = bridge.catalog.content_hash
            append(cfg, bomb(9))
            await watcher.next_reload()
            assert 'aliases expand the document' in (watcher.last_error or '')
            read = await client.call_tool('get_joint_states', {})
            stop = await client.call_tool('stop_arm', {})
            assert not read.is_error and not stop.is_error
            assert bridge.catalog.content_hash == old_hash
