"""
What a real client lists from the served bridge (stdio), on the Panda and an arm from ``init``.

The bar a model reads: every parameter of every tool has a description with its own text,
the model-visible part (name, title, description, inputSchema) of the en list is within
``MAX_MODEL_CHARS``, and no text names a config file, a robot:// resource or a backend.
"""

from __future__ import annotations

import json
import sys

import anyio
from bridge_kit import REPO
from mcp import Client, StdioServerParameters
from mcp_ros_bridge.catalog.lint_audience import (FOR_SOMEONE_ELSE, MAX_MODEL_CHARS, texts_of,
                                                  undescribed)
from mcp_ros_bridge.catalog.listing import MODEL_KEYS
import pytest
from server_process import serve_argv, server_env, SIM

pytestmark = [pytest.mark.contract, pytest.mark.anyio]


def _ur3_config(tmp_path) -> str:
    from mcp_ros_bridge.catalog.init_config import write_config
    sys.path.insert(0, f'{REPO}/test/robots')
    from robot_data import robots_dir
    out = str(tmp_path / 'ur3')
    write_config(out, f'{robots_dir()}/ur_description/urdf/ur3_robot.urdf', '')
    return out


async def _listed(*flags: str) -> list[dict]:
    params = StdioServerParameters(command=sys.executable, args=serve_argv(*flags), cwd=REPO,
                                   env=server_env(None))
    with anyio.fail_after(120):
        async with Client(params) as client:
            tools = (await client.list_tools()).tools
    return [t.model_dump(by_alias=True, exclude_none=True) for t in tools]


@pytest.mark.parametrize('arm', ['panda', 'ur3'])
@pytest.mark.parametrize('lang', ['en', 'zh'])
async def test_the_listed_tools_meet_the_bar(arm, lang, tmp_path):
    """Every parameter described, the en model part within budget, every text for this reader."""
    if not SIM:
        pytest.skip('the simulation backend does not import here')
    flags = ('--lang', lang) + (('--config', _ur3_config(tmp_path)) if arm == 'ur3' else ())
    tools = await _listed(*flags)
    assert len(tools) >= 20
    missing = [f"{t['name']}:{p}" for t in tools for p in undescribed(t['inputSchema'])]
    assert missing == []
    seen = [{k: t[k] for k in MODEL_KEYS if k in t} for t in tools]
    size = len(json.dumps({'tools': seen}, separators=(',', ':'), ensure_ascii=False))
    if lang == 'en':
        assert size <= MAX_MODEL_CHARS, size
    wrong = [(t['name'], where, FOR_SOMEONE_ELSE.search(text).group(0))
             for t in seen for where, text in texts_of(t) if FOR_SOMEONE_ELSE.search(text)]
    assert wrong == []
    zero = [(t['name'], text) for t in seen for _, text in texts_of(t) if ' 0 ' in f' {text} '
            and 'joint' in text]
    assert zero == [], 'a count of zero things is not said'
