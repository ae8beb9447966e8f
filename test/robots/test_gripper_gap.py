"""
The open finger gap init writes, and ``pick_object`` of an object wider than it.

Baxter's right gripper is a mirrored pair of 20.8 mm prismatic fingers (one a mimic):
init writes the gap of both, 41.7 mm, with the figure it came from. The shipped 50 mm
box does not fit: pick_object is refused over MCP before anything is called that moves
(on main: a 20.8 mm gap, no refusal, the arm drove onto the box).
"""

from __future__ import annotations

import os

from mcp import Client
from mcp_ros_bridge.catalog.init_config import write_config
from mcp_ros_bridge.contract.results import error_block
import pytest
from robot_data import robots_dir
import yaml

from bridge_kit import make_bridge, MODES, text_of  # noqa: I100 - on the path robot_data sets

pytestmark = [pytest.mark.robots]


def _baxter_right(out: str) -> dict:
    write_config(out, os.path.join(robots_dir(), 'baxter_description/urdf/baxter.urdf'),
                 tip='right_gripper')
    with open(os.path.join(out, 'robot.yaml'), encoding='utf-8') as f:
        return yaml.safe_load(f)


def test_a_mirrored_pair_opens_by_both_strokes(tmp_path):
    robot = _baxter_right(str(tmp_path))
    assert robot['gripper']['max_width_m'] == pytest.approx(2 * 0.020833)
    with open(tmp_path / 'robot.yaml', encoding='utf-8') as f:
        line = next(x for x in f if 'max_width_m' in x)
    assert 'CHECK' in line and 'r_gripper_r_finger_joint 0.020833' in line, line


@pytest.mark.anyio
@pytest.mark.parametrize('mode', MODES)
async def test_pick_of_an_object_wider_than_the_gap_moves_nothing(tmp_path, mode):
    robot = _baxter_right(str(tmp_path))
    box = robot['objects']['box']['size_m']
    assert min(box[:2]) > robot['gripper']['max_width_m']  # the shipped 50 mm box
    bridge, backend = make_bridge(str(tmp_path))
    async with Client(bridge.server, mode=mode) as client:
        result = await client.call_tool('pick_object', {'object': 'box'})
    assert result.is_error and error_block(result)['code'] == 'INVALID_GOAL', text_of(result)
    text = text_of(result)
    assert '50 mm' in text and '41.7 mm' in text and 'nothing moved' in text, text
    assert '(here: none)' in text  # the 50 mm cylinder does not fit either
    assert backend.motion_calls == []
    assert not [c for c in backend.calls if 'grip' in c[0] or 'release' in c[0]], backend.calls


def test_the_so101_jaw_closes_at_its_lower_limit_from_its_geometry(tmp_path):
    """The jaw's centre of mass is nearer the fixed jaw's at the lower limit (on main: open)."""
    urdf = os.path.join(robots_dir(), 'so_arm_description/urdf/so101.urdf')
    write_config(str(tmp_path), urdf)
    with open(tmp_path / 'robot.yaml', encoding='utf-8') as f:
        text = f.read()
    command = yaml.safe_load(text)['gripper']['command']
    assert command == {'open': 1.74533, 'closed': -0.174533, 'unit': 'rad', 'joint': 'gripper'}
    line = next(x for x in text.splitlines() if x.startswith('  command:'))
    assert 'CHECK: closed at the lower limit' in line and '30.5 mm' in line, line
