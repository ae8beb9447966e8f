"""What agents read besides tools: the object catalog without a pose source, resources, prompts."""

from __future__ import annotations

import json
import re

from bridge_kit import make_bridge, MODES, text_of
from doubles import RecordingBackend
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp_ros_bridge.backends.port import BackendError, BackendInfo
import pytest

pytestmark = [pytest.mark.contract, pytest.mark.anyio]


@pytest.mark.parametrize('mode', MODES)
async def test_list_objects_without_a_pose_source_says_so(mode):
    """A backend with no object pose source still lists sizes and says why poses are missing."""
    bridge, backend = make_bridge()
    backend.fail_object_pose = BackendError('UNSUPPORTED', 'no object pose source on ROS')
    async with Client(bridge.server, mode=mode) as c:
        r = await c.call_tool('list_objects', {})
    assert not r.is_error
    s = r.structured_content
    assert s['pose_source'].startswith('none') and all('pose' not in o for o in s['objects'])
    assert [o['name'] for o in s['objects']] == ['box', 'cylinder']
    assert 'no object pose source' in text_of(r)


@pytest.mark.parametrize('mode', MODES)
async def test_resources_are_listed_and_read(mode):
    """The robot description and object catalog resources come from robot.yaml and the tools."""
    bridge, _ = make_bridge()
    async with Client(bridge.server, mode=mode) as c:
        listed = await c.list_resources()
        uris = sorted(str(r.uri) for r in listed.resources)
        assert uris == ['robot://description', 'robot://gripper', 'robot://objects']
        desc = json.loads((await c.read_resource('robot://description')).contents[0].text)
        objs = json.loads((await c.read_resource('robot://objects')).contents[0].text)
        hand = json.loads((await c.read_resource('robot://gripper')).contents[0].text)
        with pytest.raises(MCPError):
            await c.read_resource('robot://nothing')
    robot = bridge.catalog.robot
    assert desc['postures_rad']['home'] == list(robot.home)
    assert desc['limits']['approach_cone_deg'] == robot.limits.approach_cone_deg
    assert desc['tool_list']['version'] == bridge.catalog.content_hash
    assert 'move_arm_relative' in desc['tool_list']['tools']
    assert {o['name']: o['size_m'] for o in objs['objects']} == {
        'box': [0.05, 0.05, 0.05], 'cylinder': [0.05, 0.05, 0.1]}
    geometry = robot.gripper_geometry  # the gripper resource says what robot.yaml says
    assert hand['tcp'] == robot.end_effector and desc['gripper']['geometry'] == 'robot://gripper'
    assert hand['open_width_m'] == robot.gripper_max_width_m
    assert hand['finger_length_m'] == geometry.finger_length_m > 0
    assert hand['fingertips_past_tcp_m'] == geometry.tip_past_tcp_m > 0
    assert hand['hand_size_m'] == dict(zip('xyz', geometry.hand_size_m))
    assert hand['lowest_tcp_z_fingers_down_m'] == pytest.approx(
        robot.limits.workspace.lo[2] + geometry.tip_past_tcp_m)


@pytest.mark.parametrize('mode', MODES)
async def test_prompts_are_listed_and_filled(mode):
    """Task skills from prompts.yaml: listed with arguments, rendered with the given values."""
    bridge, _ = make_bridge()
    async with Client(bridge.server, mode=mode) as c:
        prompts = {p.name: p for p in (await c.list_prompts()).prompts}
        assert set(prompts) == {'pick_and_place', 'weigh_object'}
        assert [a.name for a in prompts['pick_and_place'].arguments] == ['object', 'x', 'y']
        got = await c.get_prompt('pick_and_place', {'object': 'box', 'x': '0.45', 'y': '0.25'})
        with pytest.raises(MCPError):
            await c.get_prompt('pick_and_place', {'object': 'box'})
    text = got.messages[0].content.text
    assert 'Move the box so that its centre ends at x=0.45, y=0.25 m' in text
    assert '{"offset": {"z": -0.12}}' in text
    tools = {t.name for t in bridge.catalog.tools}
    fields = {'grasp_z_m', 'mass_kg', 'plan_only', 'pick_and_place', 'held_mass_g', 'slip_mm'}
    named = set(re.findall(r'\b[a-z]+(?:_[a-z]+)+\b', text)) - fields
    assert named and named <= tools, named - tools  # every tool a skill names exists


async def test_prompts_in_chinese(tmp_path):
    """With --lang zh the prompts are Chinese."""
    from mcp_ros_bridge.catalog.prompts import load_prompts
    from paths import CONFIG_DIR
    zh = {p.name: p for p in load_prompts(CONFIG_DIR, 'zh')}
    assert '称量' in zh['weigh_object'].render({'object': 'box'})
    assert '物体名称' in zh['pick_and_place'].arguments[0].description


@pytest.mark.parametrize('mode', MODES)
async def test_plan_only_is_refused_where_the_backend_cannot_preview(mode):
    """A backend that does not check whole plans before moving never gets a plan_only goal."""
    backend = RecordingBackend()
    backend.info = BackendInfo('ros', 'cannot preview')
    bridge, _ = make_bridge(backend=backend)
    async with Client(bridge.server, mode=mode) as c:
        r = await c.call_tool('move_arm_to_posture', {'posture': 'home', 'plan_only': True})
        ok = await c.call_tool('move_arm_to_posture', {'posture': 'home'})
    assert r.is_error and 'UNSUPPORTED' in text_of(r) and 'nothing moved' in text_of(r)
    assert not ok.is_error
    assert [c[0] for c in backend.motion_calls] == ['move_to_joints']


class DriftingWrench(RecordingBackend):
    """A recording backend whose load keeps changing (the arm is not at rest)."""

    async def wrench_samples(self, count):
        """Return the double's samples with Fz ramping by 1 N across the window."""
        w = await super().wrench_samples(count)
        rows = tuple((r[0], r[1], r[2] + i / max(count, 1), *r[3:])
                     for i, r in enumerate(w.samples))
        return type(w)(rows, w.stamps, w.frame_id, w.age_s, w.rate_hz)


async def test_tare_of_a_changing_load_is_refused_and_changes_nothing():
    """A tare needs a still load: a drifting window is refused and the reference stays."""
    bridge, _ = make_bridge(backend=DriftingWrench())
    async with Client(bridge.server, mode='legacy') as c:
        r = await c.call_tool('tare_ft_sensor', {'window_s': 0.1})
        read = await c.call_tool('read_ft_sensor', {})
    assert r.is_error and 'load changed during the tare window' in text_of(r)
    assert 'tare_ft_sensor again' in text_of(r)
    assert read.structured_content['compensation'] == 'gripper_gravity'
