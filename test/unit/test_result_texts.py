"""Result rendering: no negative zero in texts, error blocks in _meta, never a bad structure."""

from mcp_ros_bridge.backends.port import BackendError, Pose
from mcp_ros_bridge.capabilities.base import fmt, Outcome
from mcp_ros_bridge.contract.results import (backend_error_result, error_block, ERROR_META_KEY,
                                             error_result, outcome_result)
from mcp_ros_bridge.failure import Failure
from mcp_ros_bridge.geometry import describe_pose, fixed, rpy_deg_to_quat
import pytest


@pytest.mark.parametrize('value, digits, text', [
    (-0.0, 1, '0.0'), (-0.0001, 1, '0.0'), (-0.04, 1, '0.0'), (-0.05001, 1, '-0.1'),
    (-10.0, 1, '-10.0'), (0.0, 3, '0.000'), (-1e-9, 3, '0.000'), (1.25, 1, '1.2'),
])
def test_fixed_never_prints_negative_zero(value: float, digits: int, text: str) -> None:
    """``fixed`` drops the sign of a value that rounds to zero, and only then."""
    assert fixed(value, digits) == text


@pytest.mark.parametrize('value, text', [(-0.0, '0'), (-0.0004, '0'), (-0.0006, '-0.001'),
                                         (-2.5, '-2.5'), (3.0, '3')])
def test_fmt_never_prints_negative_zero(value: float, text: str) -> None:
    """The compact text formatter says 0, not -0 (e.g. a torque of -0.0001 Nm)."""
    assert fmt(value) == text


def test_describe_pose_has_no_negative_zero() -> None:
    """A fingers-down pose with a tiny negative pitch reads pitch=0.0, not pitch=-0.0."""
    pose = Pose((-0.00001, 0.3, 0.5), rpy_deg_to_quat(180.0, -0.01, -0.02), 'panda_link0')
    text = describe_pose(pose)
    assert '-0.0' not in text and '=-0 ' not in text, text
    assert 'x=0.000' in text and 'pitch=0.0' in text and 'yaw=0.0' in text


def test_error_result_carries_the_block_in_meta_only() -> None:
    """A pipeline error has text and ``_meta`` details, and no structuredContent at all."""
    r = error_result('force_n must be a number in [5, 30] (N)', 'INVALID_ARGUMENTS',
                     {'fields': ['force_n']})
    wire = r.model_dump(by_alias=True, exclude_none=True, mode='json')
    assert wire['isError'] is True and 'structuredContent' not in wire
    assert wire['_meta'][ERROR_META_KEY] == {'code': 'INVALID_ARGUMENTS',
                                             'details': {'fields': ['force_n']}}
    assert error_block(r)['code'] == 'INVALID_ARGUMENTS'


def test_backend_error_keeps_code_message_and_advice() -> None:
    """A backend failure names the code in the text and in the block."""
    r = backend_error_result('move_arm_to_pose', BackendError('NO_IK_SOLUTION', 'out of reach'))
    assert r.is_error and r.structured_content is None
    assert 'NO_IK_SOLUTION' in r.content[0].text and 'closer to the base' in r.content[0].text
    assert error_block(r) == {'code': 'NO_IK_SOLUTION', 'details': {'message': 'out of reach'}}


def test_failed_outcome_keeps_a_valid_structure_and_names_its_status() -> None:
    """A motion that ended in CONTACT_ABORT keeps its (valid) result; the code is its status."""
    out = Outcome('Motion ended with CONTACT_ABORT.', {'status': 'CONTACT_ABORT'},
                  Failure('CONTACT_ABORT', 'the force guard stopped the arm'))
    r = outcome_result(out, {'type': 'object', 'required': ['status']})
    assert r.structured_content == {'status': 'CONTACT_ABORT'}
    assert error_block(r)['code'] == 'CONTACT_ABORT'
    schema = {'type': 'object', 'required': ['status', 'duration_s']}
    dropped = outcome_result(out, schema)
    assert dropped.structured_content is None and dropped.content[0].text == out.text
    ok = outcome_result(Outcome('fine', {'status': 'SUCCEEDED'}))
    assert ok.meta is None and error_block(ok) == {}
