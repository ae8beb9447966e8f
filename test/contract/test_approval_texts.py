"""
What the person approving a motion is told: what will move, for every motion tool.

Every motion tool is marked ``requires_approval``; the host declines each request,
so nothing moves, and the question it was asked names the target, the whole path,
the offset, the direction, the object or the posture (issue: approval texts that
left out what will move, or measured a path by its last waypoint only).
"""

from __future__ import annotations

import math
from typing import Any

import anyio
from bridge_kit import copy_config, make_bridge, MODES
from doubles import RecordingBackend
from mcp import Client
from mcp_ros_bridge.backends.port import BackendInfo, GripperState, GripStatus
from mcp_ros_bridge.server.calls import CallSettings
import mcp_types as types
import pytest

MOTION_KINDS = ('move_to_pose', 'move_to_joints', 'cartesian_path', 'relative_move',
                'move_to_posture', 'move_until_contact', 'pick_object', 'place_object',
                'push_object')
START = (0.307, 0.0, 0.487)  # where the recording double's fingertip is
PATH = [{'x': 0.5, 'y': 0.0, 'z': 0.3}, {'x': 0.5, 'y': 0.2, 'z': 0.3},
        {'x': 0.3, 'y': 0.2, 'z': 0.3}]
CASES: list[tuple[str, dict[str, Any], tuple[str, ...]]] = [
    # a single-plan motion is told by its plan (the double's: 0.2 s, still), then its arguments
    ('plan_trajectory', {'waypoints': PATH},
     ('Target: x=0.300 y=0.200 z=0.300', 'The plan: 0.20 s, fingertip up to 0 mm/s')),
    ('move_arm_relative', {'offset': {'z': 0.1}},
     ('Offset: x=0.000 y=0.000 z=0.100 m', 'The plan: 0.20 s')),
    ('move_until_contact', {'direction': 'down', 'max_distance_m': 0.1},
     ('Straight down, at most 0.100 m at 30 mm/s, until a force above 5',)),
    # a job is told by its chain of arm plans (above, descend, lift), then its arguments
    ('pick_object', {'object': 'box'}, ("The job's 3 arm motions", 'Object: the box.',
                                        'Grip force: 15')),
    ('place_object', {'on': 'cylinder'}, ('Put it down on the cylinder.',
                                          'Then open the gripper.')),
    ('place_object', {'target': {'x': 0.4, 'y': -0.1}, 'release': False},
     ('Put it down at x=0.400 y=-0.100 m', 'Then keep holding it.')),
    ('place_object', {'target': {'toward': 'cylinder', 'x': 0.08, 'y': 0.0}},
     ('Put it down 0.080 m toward the cylinder (from the held object), 0.000 m left',)),
    ('place_object', {'target': {'from': 'cylinder', 'x': 0.15, 'y': -0.1}},
     ('Put it down 0.150 m forward, -0.100 m left of where the cylinder is now.',)),
    ('push_object', {'object': 'box', 'direction': 'left', 'distance_m': 0.05},
     ('Push the box left by 0.050 m',)),
    ('move_arm_to_posture', {'posture': 'home'}, ('Posture: home.',)),
    ('move_arm_joints', {'positions': [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785]},
     ('panda_joint2 -45.0°', 'panda_joint4 -135.0°')),
]


@pytest.fixture(params=MODES)
def mode(request: pytest.FixtureRequest) -> str:
    """Ask in both protocol generations (elicitation inside the call; input_required)."""
    return str(request.param)


IDS = [f'{tool}-{i}' for i, (tool, _, _) in enumerate(CASES)]


async def _asked(mode: str, tmp_path: Any, tool: str, args: dict[str, Any],
                 backend: RecordingBackend | None = None) -> list[str]:
    """Call ``tool`` with every motion marked requires_approval; the host declines each ask."""
    edits = {f'    kind: {k}\n': f'    kind: {k}\n    requires_approval: true\n'
             for k in MOTION_KINDS}
    bridge, used = make_bridge(copy_config(str(tmp_path / 'cfg'), edits),
                               CallSettings(approval_policy='deny'), backend=backend)
    asked: list[str] = []

    async def decline(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action='decline')

    async with Client(bridge.server, mode=mode, elicitation_callback=decline) as client:
        with anyio.fail_after(20):
            result = await client.call_tool(tool, args)
    assert result.is_error and len(asked) == 1, (tool, asked)
    assert not used.motion_calls, 'a declined motion moves nothing'
    return asked


@pytest.mark.anyio
@pytest.mark.parametrize('tool,args,said', CASES, ids=IDS)
async def test_the_approval_question_says_what_will_move(mode: str, tmp_path: Any, tool: str,
                                                         args: dict[str, Any],
                                                         said: tuple[str, ...]) -> None:
    backend = RecordingBackend()
    if tool == 'place_object':  # a job's chain is planned first: the hand holds the box
        backend.grip_state = GripperState(GripStatus.HOLDING, 0.05, 15.0, object_name='box')
    asked = await _asked(mode, tmp_path, tool, args, backend)
    for words in said:
        assert words in asked[0], (words, asked[0])


@pytest.mark.anyio
@pytest.mark.parametrize('tool,args,distance', [
    ('plan_trajectory', {'waypoints': PATH}, math.dist(START, (0.5, 0.0, 0.3)) + 0.4),
    ('move_arm_relative', {'offset': {'z': 0.1}}, 0.1)])
async def test_without_a_plan_the_question_gives_the_distance_but_no_speed(
        mode: str, tmp_path: Any, tool: str, args: dict[str, Any], distance: float) -> None:
    """A backend that cannot plan ahead: the whole path's length, no guessed speed or time."""
    backend = RecordingBackend()
    backend.info = BackendInfo('sim', 'no previews', previews_plans=False)
    asked = await _asked(mode, tmp_path, tool, args, backend)
    assert f'Distance: {distance:.3f} m.' in asked[0], asked[0]
    assert 'mm/s' not in asked[0] and ' s ' not in asked[0], asked[0]
