"""
How MoveIt and gripper outcomes become MotionResult / GripResult / BackendError.

The outcomes are built by hand (as the goal runner returns them), so these
checks run wherever rclpy imports, without MoveIt.
"""

from types import SimpleNamespace

from mcp_ros_bridge.backends.ros import error_codes, gripper_goals
import pytest
import ros_support

pytestmark = pytest.mark.ros
pytest.importorskip('rclpy', reason='rclpy does not import: the ros layer needs it')
actions = pytest.importorskip('mcp_ros_bridge.backends.ros.actions')
gripper = pytest.importorskip('mcp_ros_bridge.backends.ros.gripper')
moveit = pytest.importorskip('mcp_ros_bridge.backends.ros.moveit')


def outcome(status, code=None, result=None):
    """Return an ActionOutcome with a MoveIt error code in its result."""
    if code is not None:
        result = SimpleNamespace(error_code=SimpleNamespace(val=code))
    return actions.ActionOutcome(status, result, feedback_count=0, duration_s=1.5)


def guard(contact=False, stale=False, peak=0.0, fault=None):
    """Return a ForceGuard (over no buffer) in the state it has after a motion."""
    from mcp_ros_bridge.backends.ros.guard import ForceGuard
    g = ForceGuard(None, 40.0, 0.5)
    g.contact, g.stale, g.peak_n, g.fault = contact, stale, peak, fault
    return g


@pytest.fixture
def iface():
    """Return a MoveItInterface with no node (only result interpretation is used)."""
    return moveit.MoveItInterface(ros_support.robot_config(), None, None, None, None)


def test_success(iface):
    result = iface._interpret(outcome('SUCCEEDED', 1), guard())
    assert result.status == 'SUCCEEDED' and result.duration_s == 1.5


def test_contact_abort_wins_and_reports_peak(iface):
    result = iface._interpret(outcome('CANCELED'), guard(contact=True, peak=55.0))
    assert result.status == 'CONTACT_ABORT' and result.peak_force_n == 55.0
    assert '55.0 N' in result.message


def test_stale_wrench_mid_motion_fails(iface):
    result = iface._interpret(outcome('CANCELED'), guard(stale=True))
    assert result.status == 'FAILED' and result.details['code'] == 'SENSOR_STALE'


def test_invalid_wrench_mid_motion_fails_naming_the_sample(iface):
    from mcp_ros_bridge.backends.sensor_checks import Rejection
    nan = Rejection('non_finite', 'Fz', 'nan', 0.0, 0.0)
    result = iface._interpret(outcome('CANCELED'), guard(fault=nan))
    assert result.status == 'FAILED' and result.details['code'] == 'SENSOR_FAULT'
    assert result.details['reason'] == 'non_finite' and 'Fz is nan' in result.message


@pytest.mark.parametrize('status,expected', [('TIMED_OUT', 'TIMED_OUT'),
                                             ('CANCELED', 'STOPPED')])
def test_timeout_and_cancel(iface, status, expected):
    assert iface._interpret(outcome(status), guard()).status == expected


def test_failure_during_execution_is_a_failed_motion(iface):
    result = iface._interpret(outcome('ABORTED', -4), guard())
    assert result.status == 'FAILED' and result.details['code'] == 'CONTROL_FAILED'


def test_execution_halted_by_move_group_is_stopped(iface):
    # execute_trajectory_action_capability.cpp: a stopped execution ends ABORTED, PREEMPTED
    assert iface._interpret(outcome('ABORTED', -7), guard()).status == 'STOPPED'


def test_timeout_advice_depends_on_the_stage():
    assert 'planning ran out of time' in error_codes.advice_for(-6, 'planning')
    assert 'planning or execution' in error_codes.advice_for(-6, 'execution')


def test_every_code_has_a_name_and_advice():
    for value, name in error_codes.CODES.items():
        assert error_codes.code_name(value) == name
        assert error_codes.advice_for(value)
    assert error_codes.code_name(-999) == 'CODE_-999'


@pytest.mark.anyio
@pytest.mark.parametrize('result,held,status', [
    ({'position': 0.015, 'effort': 20.0, 'stalled': True, 'reached_goal': False}, True,
     'HOLDING'),
    ({'position': 0.0, 'effort': 2.0, 'stalled': False, 'reached_goal': True}, False,
     'EMPTY'),
    ({'position': 0.0005, 'effort': 20.0, 'stalled': True, 'reached_goal': False}, False,
     'EMPTY'),
    # a 12 mm object: within the controller's 0.01 goal tolerance, so "reached" (not stalled)
    ({'position': 0.006, 'effort': 20.0, 'stalled': False, 'reached_goal': True}, True,
     'HOLDING'),
])
async def test_grasp_infers_object_held_from_fingers_stopping_short(result, held, status):
    config = ros_support.robot_config()
    iface = gripper.GripperInterface(config, None)
    grip = await iface._result(outcome('SUCCEEDED', result=object()), result, 0.0, 20.0,
                               grasp=True)
    assert grip.object_held is held and grip.status == status
    assert grip.width_m == pytest.approx(config.gripper_command.gap_m(result['position']))
    assert grip.force_source == 'commanded' and grip.force_n == 20.0


def test_parallel_gripper_result_reads_joint_state():
    config = ros_support.robot_config(gripper_interface='parallel_gripper_command')
    state = gripper_goals.read_gripper_result(config, {
        'state': {'position': [0.01], 'effort': [-12.0]}, 'stalled': True,
        'reached_goal': False})
    assert state.width_m == pytest.approx(0.02) and state.force_n == 12.0
