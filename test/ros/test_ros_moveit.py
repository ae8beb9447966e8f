"""
Typed MoveIt and gripper end to end: fake move_group and gripper action servers.

Runs where ``moveit_msgs`` and ``control_msgs`` import (a ROS machine); skips
cleanly elsewhere, saying why. The fakes check what the bridge sends (group,
scaling inside (0, cap], workspace) and answer with scripted outcomes.
"""

import asyncio
import os
import threading

from mcp_ros_bridge.backends.port import (BackendError, GraspGoal, MotionLimits, Pose,
                                          PoseGoal)
from mcp_ros_bridge.backends.ros import RosBackend
import pytest
import ros_support

pytestmark = [pytest.mark.ros_moveit, pytest.mark.anyio]
pytest.importorskip('rclpy', reason='rclpy does not import: the ros layer needs it')
moveit_action = pytest.importorskip(
    'moveit_msgs.action', reason='moveit_msgs is not installed (typed MoveIt tests need ROS)')
control_action = pytest.importorskip(
    'control_msgs.action', reason='control_msgs is not installed (gripper tests need ROS)')
rclpy_action = pytest.importorskip('rclpy.action')
_N = iter(range(1_000_000))
TARGET = Pose((0.4, 0.0, 0.4), (0.0, 1.0, 0.0, 0.0), 'panda_link0')


class FakeMoveGroup:
    """A move_group action server answering with ``self.code`` after PLANNING/MONITOR."""

    def __init__(self, peer, name):
        """Serve MoveGroup on ``name``."""
        self.code, self.goals, self.executing = 1, [], threading.Event()
        self.hold = False
        self.server = rclpy_action.ActionServer(
            peer.node, moveit_action.MoveGroup, name, self._execute,
            cancel_callback=lambda h: rclpy_action.CancelResponse.ACCEPT)
        peer.before_close.append(self.server.destroy)

    def _execute(self, handle):
        self.goals.append(handle.request)
        feedback = moveit_action.MoveGroup.Feedback()
        for state in ('PLANNING', 'MONITOR'):
            feedback.state = state
            handle.publish_feedback(feedback)
        self.executing.set()
        result = moveit_action.MoveGroup.Result()
        while self.hold and not handle.is_cancel_requested:
            threading.Event().wait(0.005)
        if handle.is_cancel_requested:
            handle.canceled()
            return result
        result.error_code.val = self.code
        (handle.succeed if self.code == 1 else handle.abort)()
        return result


@pytest.fixture
async def rig():
    """Return (backend, move_group fake, sensor publisher, peer)."""
    peer = ros_support.Peer()
    tag = f'/mg{os.getpid()}_{next(_N)}'
    config = ros_support.robot_config(
        actions={'move_group': f'{tag}/move_action', 'gripper': f'{tag}/gripper_cmd',
                 'execute_trajectory': f'{tag}/execute_trajectory'},
        force_guard='required')
    fake = FakeMoveGroup(peer, f'{tag}/move_action')
    pub = ros_support.SensorPublisher(peer, config)
    backend = RosBackend(config, node_name='bridge_moveit')
    await backend.start()
    assert await backend.wait_for_sensors(5.0) == []
    yield backend, fake, pub, peer
    await backend.close()
    peer.close()


def pose_goal(vel=0.2):
    """Return a pose goal with the given velocity scaling."""
    return PoseGoal(TARGET, MotionLimits(vel, 0.2, contact_force_limit_n=40.0, timeout_s=10.0))


async def test_pose_goal_reaches_move_group_with_explicit_scaling(rig):
    backend, fake, _, _ = rig
    reports = []

    async def progress(fraction, message):
        reports.append(message)

    result = await backend.move_to_pose(pose_goal(), progress)
    assert result.status == 'SUCCEEDED'
    request = fake.goals[-1].request
    assert request.group_name == 'panda_arm'
    assert request.max_velocity_scaling_factor == pytest.approx(0.2)
    assert request.workspace_parameters.max_corner.z == pytest.approx(1.19)
    assert 'executing' in reports


async def test_no_ik_solution_is_a_backend_error_with_advice(rig):
    backend, fake, _, _ = rig
    fake.code = -31
    with pytest.raises(BackendError, match='NO_IK_SOLUTION') as err:
        await backend.move_to_pose(pose_goal())
    assert 'out of reach' in err.value.advice


async def test_zero_scaling_never_reaches_move_group(rig):
    backend, fake, _, _ = rig
    with pytest.raises(BackendError, match='INVALID_GOAL'):
        await backend.move_to_pose(pose_goal(vel=0.0))
    assert fake.goals == []


async def test_force_above_limit_aborts_the_motion(rig):
    backend, fake, pub, _ = rig
    fake.hold = True
    task = asyncio.ensure_future(backend.move_to_pose(pose_goal()))
    assert await asyncio.to_thread(fake.executing.wait, 5.0)
    pub.force = (0.0, 0.0, 80.0)
    result = await task
    assert result.status == 'CONTACT_ABORT' and result.peak_force_n >= 80.0


async def test_grasp_reports_object_held_when_the_gripper_stalls(rig):
    backend, _, _, peer = rig
    name = backend.config.ros.actions['gripper']

    def execute(handle):
        handle.succeed()
        return control_action.GripperCommand.Result(position=0.01, effort=20.0, stalled=True,
                                                    reached_goal=False)

    server = rclpy_action.ActionServer(peer.node, control_action.GripperCommand, name, execute)
    peer.before_close.append(server.destroy)
    grip = await backend.grasp(GraspGoal(force_n=20.0))
    assert grip.object_held and grip.stalled and grip.status == 'SUCCEEDED'
