"""``serve --lang zh`` over stdio in both protocol generations: the model reads Chinese."""

from __future__ import annotations

import re
import sys

import anyio
from bridge_kit import error_code, make_bridge, MODES, REPO, text_of
from mcp import Client, StdioServerParameters
import pytest
from server_process import serve_argv, server_env

pytestmark = [pytest.mark.contract, pytest.mark.anyio]

HAN = re.compile(r'[\u4e00-\u9fff]')
EXAMPLE = re.compile(r'(?:Valid example|有效示例)[:：] ?([a-z_]+\(.*\))$', re.MULTILINE)
FAR = {'x': 0.85, 'y': 0.0, 'z': 0.05}  # in the workspace box, out of the arm's reach
WRONG_TYPE = {'position': {'x': '0.4', 'y': 0.1, 'z': 0.35}}
RADIANS = {'position': {'x': 0.4, 'y': 0.1, 'z': 0.35},
           'orientation': {'roll': 3.14159, 'pitch': 0, 'yaw': 1.5708}}


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
    for name in ('pick_object', 'grasp_object_force_control'):  # each tool describes its own
        force = tools[name].input_schema['properties']['force_n']
        assert force['description'].startswith('夹持力') and '(N)' in force['description']
        assert force['minimum'] > 0 and force['type'] == 'number'
    described, listed = set(), set()
    for tool in tools.values():
        assert HAN.search(tool.title or ''), tool.name
        assert HAN.search(tool.description or ''), tool.name
        for prop, sub in tool.input_schema.get('properties', {}).items():
            listed.add((tool.name, prop))
            if 'description' in sub:
                described.add((tool.name, prop))
                assert HAN.search(sub['description']), (tool.name, prop)
    assert described == listed, listed - described


async def _english(tool: str, args: dict) -> str:
    bridge, _ = make_bridge()
    async with Client(bridge.server) as client:
        return text_of(await client.call_tool(tool, args))


@pytest.mark.parametrize('mode', MODES)
async def test_errors_and_results_are_chinese(mode: str) -> None:
    """Errors name the same field and valid call as in English; results read Chinese too."""
    with anyio.fail_after(120):
        async with Client(_zh_server(), mode=mode) as client:
            bad = await client.call_tool('move_arm_to_pose', WRONG_TYPE)
            cone = await client.call_tool('move_arm_to_pose', RADIANS)
            joints = await client.call_tool('get_joint_states', {})
            moved = await client.call_tool('move_arm_to_pose', {'position': RADIANS['position']})
            far = await client.call_tool('move_arm_to_pose', {'position': FAR})
    bad_text, cone_text = text_of(bad), text_of(cone)
    assert bad.is_error and error_code(bad) == 'INVALID_ARGUMENTS'
    assert bad_text.startswith('move_arm_to_pose 的参数无效；没有执行任何操作。')
    assert 'position.x 必须是数字 在 [' in bad_text and '不带引号和单位的 JSON 数字 0.4' in bad_text
    assert '改正后的调用返回到达的位姿 (m, deg) 及其位置误差 (mm)。' in bad_text
    en_bad = await _english('move_arm_to_pose', WRONG_TYPE)
    assert EXAMPLE.findall(bad_text) == EXAMPLE.findall(en_bad) != []
    assert cone.is_error and error_code(cone) == 'LIMIT_EXCEEDED'
    assert 'roll 3.14159 看起来是弧度：180 度' in cone_text and '没有任何运动' in cone_text
    en_cone = await _english('move_arm_to_pose', RADIANS)
    assert 'roll 3.14159 looks like radians: 180 deg' in en_cone
    shown = re.compile(r'"orientation": \{[^}]*\}')
    assert shown.findall(cone_text) == shown.findall(en_cone) != []
    assert not joints.is_error and text_of(joints).startswith('机械臂关节 (rad)：[')
    assert not moved.is_error and moved.structured_content['status'] == 'SUCCEEDED'
    assert far.is_error and error_code(far) == 'NO_IK_SOLUTION', text_of(far)
    assert '没有关节构型能以所要求的姿态到达目标' in text_of(far) and '目标距肩部 0.90 m' in text_of(far)
    assert re.match(r'移动到位姿成功，用时 [0-9.]+ 秒。当前位于 panda_link0 中 x=0\.4', text_of(moved))


async def test_tare_and_object_list_results_are_chinese() -> None:
    """The tare and the object list answer in Chinese; names, numbers and JSON stay as sent."""
    with anyio.fail_after(120):
        async with Client(_zh_server(), mode='2026-07-28') as client:
            cleared = await client.call_tool('tare_ft_sensor', {'clear': True})
            listed = await client.call_tool('list_objects', {})
    assert text_of(cleared) == '未设置皮重；读数仅扣除夹爪重量。'
    assert text_of(listed).startswith('2 个已知物体') and 'panda_link0' in text_of(listed)
    assert '抓取时指尖中心位于 z=' in text_of(listed)
