"""Result fields that hosts parse: one value per angle, slip as a running maximum."""

import math

from mcp_ros_bridge.backends.port import GripperState, GripStatus
from mcp_ros_bridge.capabilities.base import CallContext
from mcp_ros_bridge.capabilities.grip_report import forget_slip, slip_since_grasp
from mcp_ros_bridge.geometry import normalise_deg, pose_to_dict, quat_to_rpy_deg
import pytest


class _Pose:
    frame_id = 'base'
    position = (0.0, 0.0, 0.0)

    def __init__(self, q):
        self.orientation = q


@pytest.mark.parametrize('angle, expected', [
    (-180.0, 180.0), (180.0, 180.0), (-179.99996, 180.0), (540.0, 180.0), (-540.0, 180.0),
    (-0.0, 0.0), (359.0, -1.0), (-181.0, 179.0), (12.5, 12.5)])
def test_angles_are_normalised_to_minus_180_exclusive_180_inclusive(angle, expected):
    got = normalise_deg(angle, 3)
    assert got == pytest.approx(expected) and -180.0 < got <= 180.0
    assert math.copysign(1.0, got) > 0 or got < 0, 'no -0.0'


def test_fingers_down_reads_roll_180_whatever_the_quaternion_sign():
    for q in ((0.0, 1.0, 0.0, 0.0), (0.0, -1.0, 0.0, 0.0), (0.0, 1.0, 1e-9, 0.0)):
        o = pose_to_dict(_Pose(q))['orientation_deg']
        assert (o['roll'], o['pitch'], o['yaw']) == (180.0, 0.0, 0.0), (q, o)
        assert -180.0 < quat_to_rpy_deg(q)[0] <= 180.0


def _state(slip_mm, name='box'):
    return GripperState(GripStatus.HOLDING, 0.05, 15.0, slip_m=slip_mm / 1000,
                        slip_method='object_in_hand', object_name=name)


def test_slip_since_grasp_is_a_running_maximum_reset_by_a_new_grasp():
    ctx = CallContext(backend=None, robot=None, binding=None)  # type: ignore[arg-type]
    seen = [slip_since_grasp(ctx, _state(mm)) for mm in (0.17, 0.03, 0.25, 0.1)]
    assert [round(v * 1000, 3) for v in seen] == [0.17, 0.17, 0.25, 0.25]
    assert slip_since_grasp(ctx, _state(0.02, 'cylinder')) == pytest.approx(2e-5), \
        'another object: its own record'
    forget_slip(ctx)
    assert slip_since_grasp(ctx, _state(0.01, 'cylinder')) == pytest.approx(1e-5)


def test_a_straight_path_reports_length_and_error_only_as_far_as_it_ran():
    from mcp_ros_bridge.backends.port import MotionLimits, MotionResult, MotionStatus, Pose
    from mcp_ros_bridge.capabilities.motion import motion_outcome
    at = Pose((0.5, 0.0, 0.2), (0.0, 1.0, 0.0, 0.0), 'base')
    limits = MotionLimits(0.2, 0.2, 40.0, 0.25, 30.0)
    ran = motion_outcome('Path', MotionResult(MotionStatus.SUCCEEDED, 'ok', final_pose=at,
                                              fraction=1.0), limits,
                         target=(0.5, 0.0, 0.203), requested_m=0.2).structured
    refused = motion_outcome('Path', MotionResult(MotionStatus.PARTIAL, 'only half',
                                                  final_pose=at, fraction=0.5), limits,
                             target=(0.5, 0.0, 0.4), requested_m=0.2).structured
    traced = motion_outcome('Path', MotionResult(MotionStatus.SUCCEEDED, 'ok', fraction=1.0,
                                                 details={'path_length_m': 0.2345}),
                            limits, requested_m=0.2).structured
    assert ran['path_length_m'] == 0.2 and ran['position_error_mm'] == pytest.approx(3.0)
    assert 'path_length_m' not in refused, 'nothing ran'
    assert refused['position_error_mm'] == pytest.approx(200.0)
    assert traced['path_length_m'] == 0.2345, "the backend's traced length wins"
