"""The envelope's one per-pose check applied to every sample of a planned path."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from doubles import RecordingBackend
from mcp_ros_bridge.backends.port import JointGoal, MotionLimits, Pose
from mcp_ros_bridge.catalog.loader import load_robot
from mcp_ros_bridge.catalog.robot import Workspace
from mcp_ros_bridge.safety.envelope import EnvelopedBackend, LimitError
from paths import CONFIG_DIR
import pytest

pytestmark = [pytest.mark.unit]

ROBOT, _ = load_robot(CONFIG_DIR)
DOWN = (0.0, 1.0, 0.0, 0.0)
HOME = dict(zip(ROBOT.arm_joints, ROBOT.home))


def _checked_limits(robot=ROBOT, backend: RecordingBackend | None = None) -> MotionLimits:
    """Return the limits the envelope hands to the backend for a joint move."""
    backend = backend or RecordingBackend()
    env = EnvelopedBackend(backend, robot)
    asyncio.run(env.move_to_joints(JointGoal(HOME, MotionLimits(0.2, 0.2, 40.0, 0.25, 60.0))))
    return backend.motion_calls[-1][1].limits


def _path(*zs: float) -> list[Pose]:
    return [Pose((0.4, 0.0, z), DOWN, 'panda_link0') for z in zs]


def test_backend_receives_a_path_check_that_passes_paths_inside_the_box() -> None:
    """Every motion goal carries the check; a path inside the box passes it."""
    check = _checked_limits().path_check
    assert check is not None
    check(_path(0.3, 0.6, 1.1), [0.0, 0.5, 1.0])


def test_path_check_refuses_the_first_sample_outside_naming_time_and_position() -> None:
    """The error names the sample, its time and where the tip would be."""
    check = _checked_limits().path_check
    with pytest.raises(LimitError) as info:
        check(_path(0.3, 1.0, 1.2, 1.25, 0.9), [0.0, 0.1, 0.2, 0.3, 0.4])
    err = info.value
    assert err.code == 'LIMIT_EXCEEDED'
    assert err.details['limit'] == 'workspace (planned path at t=0.200 s, sample 3 of 5)'
    assert err.details['value'] == (0.4, 0.0, 1.2)
    assert 'nothing moved' in err.advice


def test_path_samples_are_never_clamped_even_with_the_clamp_policy() -> None:
    """Clamping may adjust a target, never a path the robot would actually sweep."""
    robot = replace(ROBOT, limits=replace(ROBOT.limits, policies={'workspace': 'clamp'}))
    check = _checked_limits(robot).path_check
    with pytest.raises(LimitError):
        check(_path(0.3, 1.3), [0.0, 0.1])


def test_path_in_the_base_frame_is_checked_in_the_workspace_frame() -> None:
    """
    A workspace given in another frame: samples are transformed before the box check.

    The double answers every frame query with (0.307, 0, 0.487) rotated 180° about x, so a
    base-frame z of 0.3 becomes 0.187 in the workspace frame and z = 0.6 becomes -0.113.
    """
    ws = Workspace('panda_hand_tcp', (-1.0, -1.0, 0.0), (1.0, 1.0, 1.0))
    robot = replace(ROBOT, limits=replace(ROBOT.limits, workspace=ws))
    backend = RecordingBackend()
    backend.check_paths = False  # its fingers-down sample points up in this workspace frame
    check = _checked_limits(robot, backend).path_check
    assert ('end_effector_pose', ('panda_hand_tcp', 'panda_link0')) in backend.calls
    down_in_ws = (1.0, 0.0, 0.0, 0.0)  # the approach cone is measured in the workspace frame
    check([Pose((0.0, 0.0, 0.3), down_in_ws, 'panda_link0')], [0.0])
    with pytest.raises(LimitError) as info:
        check([Pose((0.0, 0.0, 0.6), down_in_ws, 'panda_link0')], [0.0])
    assert info.value.details['value'] == pytest.approx((0.307, 0.0, -0.113), abs=1e-4)
