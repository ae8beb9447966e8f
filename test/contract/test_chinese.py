"""``serve --lang zh`` over stdio in both protocol generations: the model reads Chinese."""

from __future__ import annotations

import re
import sys

import anyio
from bridge_kit import MODES, REPO
from mcp import Client, StdioServerParameters
import pytest
from server_process import serve_argv, server_env

pytestmark = [pytest.mark.contract, pytest.mark.anyio]

HAN = re.compile(r'[\u4e00-\u9fff]')


def _zh_server() -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=serve_argv('--lang', 'zh'),
                                 cwd=REPO, env=server_env(None))


@pytest.mark.parametrize('mode', MODES)
async def test_tool_list_is_chinese(mode: str) -> None:
    """Titles, descriptions and every parameter description are Chinese; the rest is not."""
    with anyio.fail_after(120):
        async with Client(_zh_server(), mode=mode) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
    grasp = tools['grasp_object_force_control']
    assert grasp.title == '力控抓取物体'
    force = grasp.input_schema['properties']['force_n']
    assert force['description'].startswith('要调节到的夹持力') and '(N)' in force['description']
    assert force['minimum'] > 0 and force['type'] == 'number'
    for tool in tools.values():
        assert HAN.search(tool.title or ''), tool.name
        assert HAN.search(tool.description or ''), tool.name
        for prop, sub in tool.input_schema.get('properties', {}).items():
            assert HAN.search(sub['description']), (tool.name, prop)
