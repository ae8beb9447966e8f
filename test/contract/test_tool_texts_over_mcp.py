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


def _init_config(tmp_path, arm: str) -> str:
    """Return a config directory ``init`` wrote from example-robot-data's ``arm``."""
    from mcp_ros_bridge.catalog.init_config import write_config
    sys.path.insert(0, f'{REPO}/test/robots')
    from robot_data import arm_files, robots_dir
    urdf, srdf = ((f'{robots_dir()}/ur_description/urdf/ur3_robot.urdf', '') if arm == 'ur3'
                  else arm_files(arm)[:2])
    out = str(tmp_path / arm)
    write_config(out, urdf, srdf)
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
    flags = ('--lang', lang) + (('--config', _init_config(tmp_path, arm)) if arm == 'ur3' else ())
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


def _urdf_facts(config_dir: str) -> tuple[str, dict[str, tuple[float, float]]]:
    """Return the URDF's robot name and each revolute joint's limits, read from the file."""
    import xml.etree.ElementTree as ET
    from mcp_ros_bridge.catalog.loader import load_robot
    robot, _ = load_robot(config_dir)
    root = ET.parse(robot.description['urdf']).getroot()
    limits = {j.get('name'): (float(j.find('limit').get('lower')),
                              float(j.find('limit').get('upper')))
              for j in root.iter('joint') if j.get('type') == 'revolute'}
    return root.get('name'), limits


@pytest.mark.parametrize('arm', ['panda', 'ur3', 'xarm7'])
async def test_get_robot_info_says_what_the_description_says(arm, tmp_path):
    """The URDF's robot name, its true joint limits with the margin, the gripper geometry."""
    if not SIM:
        pytest.skip('the simulation backend does not import here')
    config = _init_config(tmp_path, arm)
    name, limits = _urdf_facts(config)
    params = StdioServerParameters(command=sys.executable, args=serve_argv('--config', config),
                                   cwd=REPO, env=server_env(None))
    with anyio.fail_after(120):
        async with Client(params) as client:
            r = await client.call_tool('get_robot_info', {})
            bad = await client.call_tool('get_robot_info', {'extra': 1})
    assert bad.is_error and 'extra' in bad.content[0].text
    assert not r.is_error
    s = r.structured_content
    assert s['robot'] == name and name in r.content[0].text
    margin = s['joint_limit_margin_rad']
    assert margin > 0 and len(s['arm_joints']) >= 6
    for j in s['arm_joints']:
        assert (j['min_rad'], j['max_rad']) == pytest.approx(limits[j['name']]), j
        assert j['usable_min_rad'] == pytest.approx(j['min_rad'] + margin)
        assert j['usable_max_rad'] == pytest.approx(j['max_rad'] - margin)
    g = s['gripper']
    assert g['open_gap_m'] > 0 and g['force_n']['max'] > g['force_n']['min'] > 0
    assert 'fingertips_below_tip_m' in g and s['frames']['tip'] and s['caps']
    assert len(r.content[0].text) < 400, 'the text is short; structuredContent has the rest'
