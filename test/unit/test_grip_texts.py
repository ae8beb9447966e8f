"""Gripper-state and grip-report texts in both languages, over the recording backend."""

from doubles import RecordingBackend
from mcp_ros_bridge.backends.port import GripperState, GripStatus
from mcp_ros_bridge.capabilities.base import CallContext, Outcome
from mcp_ros_bridge.capabilities.grip_report import add_grip_report
from mcp_ros_bridge.capabilities.gripper import run_gripper_state
from mcp_ros_bridge.messages import speaking
import pytest

pytestmark = pytest.mark.anyio
HOLDING = GripperState(GripStatus.HOLDING, 0.0499, 15.0, slip_m=0.0001,
                       slip_method='object_in_hand', object_name='box')


def _ctx(state: GripperState) -> CallContext:
    backend = RecordingBackend()
    backend.grip_state = state
    return CallContext(backend, None, {})  # type: ignore[arg-type]


@pytest.mark.parametrize('lang,says', [
    ('en', 'HOLDING the box. Finger gap 49.9 mm, grip force 15 N, slip since the grasp 0.1 mm'),
    ('zh', 'HOLDING：正夹持 box。指间距离 49.9 mm，夹持力 15 N，抓取以来滑移 0.1 mm'),
])
async def test_gripper_state_reads_in_the_servers_language(lang, says):
    with speaking(lang):
        out = await run_gripper_state(_ctx(HOLDING), {})
    assert out.text.startswith(says), out.text
    assert out.structured == {'status': 'HOLDING', 'width_m': 0.0499, 'force_n': 15.0,
                              'force_source': 'measured', 'slip_mm': 0.1,
                              'slip_method': 'object_in_hand', 'object': 'box'}


@pytest.mark.parametrize('after,grip,says', [
    (GripperState(GripStatus.HOLDING, 0.05, 15.0, slip_m=0.0032, slip_method='finger_gap'),
     {'status': 'HOLDING', 'slip_mm': 3.1, 'slip_since_grasp_mm': 3.2, 'object': 'box'},
     ('The box slipped 3.1 mm in the grip', 'box 在夹持中滑移了 3.1 mm')),
    (GripperState(GripStatus.LOST, 0.0, 0.0, slip_m=0.05, slip_method='finger_gap'),
     {'status': 'LOST', 'slip_mm': 49.9, 'slip_since_grasp_mm': 50.0, 'object': 'box'},
     ('The box was lost', 'box 已掉落')),
])
async def test_motion_grip_report_says_slip_and_loss(after, grip, says):
    for lang, said in zip(('en', 'zh'), says):
        outcome = Outcome('Relative move succeeded.', {})
        with speaking(lang):
            await add_grip_report(_ctx(after), HOLDING, outcome)
        assert outcome.structured['grip'] == grip
        assert said in outcome.text, outcome.text
