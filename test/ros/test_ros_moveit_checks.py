"""
Plan, check, execute and the honest gripper, over real rclpy and the generated types.

MoveIt 2 Jazzy enforces neither the tip speed cap nor the workspace box on the
path, and ros2_controllers' GripperActionController measures no force: these
tests hold the bridge to doing it itself, before anything moves.
"""

from functools import partial
import math
import threading

from fake_moveit import points_of
from mcp_ros_bridge.backends.port import BackendError, GraspGoal, JointGoal, PoseGoal
from mcp_ros_bridge.catalog.robot import RobotConfig
from mcp_ros_bridge.safety.envelope import Envelope
import pytest
import ros_support

pytestmark = [pytest.mark.ros_moveit, pytest.mark.anyio]
pytest.importorskip('rclpy', reason='rclpy does not import: the ros layer needs it')
moveit_rig = ros_support.import_moveit_rig()
rig, limits, tcp_pose = moveit_rig.rig, moveit_rig.limits, moveit_rig.tcp_pose
control_action = pytest.importorskip('control_msgs.action')
rclpy_action = pytest.importorskip('rclpy.action')


def box_check(y_max):
    """Return the envelope's path check for the shipped box with its y limited to ``y_max``."""
    raw = ros_support.robot_yaml()
    raw['limits']['workspace']['max'][1] = y_max
    return partial(Envelope(RobotConfig.from_dict(raw)).path)


async def test_path_leaving_the_box_is_refused_before_anything_moves(rig):
    backend, fake, _, _ = rig
    # Turning joint 1 by 2.8 rad swings the tip through y = 0.31 m; both ends are below 0.2.
    goal = JointGoal({'panda_joint1': 2.8}, limits(path_check=box_check(0.2)))
    before = fake.arm.positions
    with pytest.raises(BackendError, match='LIMIT_EXCEEDED') as err:
        await backend.move_to_joints(goal)
    assert 'planned path' in str(err.value)
    assert fake.executions == [] and fake.arm.positions == before


async def test_plan_faster_than_the_tip_speed_cap_is_retimed(rig):
    backend, fake, _, _ = rig
    fake.duration_s = 0.3  # MoveIt's plan: up to ~0.8 m/s at the tip, 0.25 m/s allowed
    result = await backend.move_to_pose(PoseGoal(tcp_pose(backend.config, moveit_rig.REACHED),
                                                 limits()))
    assert result.status == 'SUCCEEDED', result.message
    assert result.details['planned_peak_tip_speed_mps'] > 0.5
    assert result.details['retimed_by'] > 2.0
    executed = points_of(fake.executions[-1].trajectory)
    tips = [tcp_pose(backend.config, q).position for _, q in executed]
    speeds = [math.dist(a, b) / (tb - ta)
              for a, b, (ta, _), (tb, _) in zip(tips, tips[1:], executed, executed[1:])]
    assert max(speeds) <= 0.25


async def test_plan_through_a_joint_limit_is_refused(rig):
    backend, fake, _, _ = rig
    with pytest.raises(BackendError, match='LIMIT_EXCEEDED') as err:
        await backend.move_to_joints(JointGoal({'panda_joint4': -0.05}, limits()))
    assert 'panda_joint4' in str(err.value) and fake.executions == []


class FakeGripperController:
    """
    GripperActionController on a position interface (ros2_controllers, Jazzy).

    gripper_action_controller_impl.hpp: reached_goal once within goal_tolerance
    (0.01), stalled when the finger stops short; hardware_interface_adapter.hpp:
    the result's effort is the commanded max_effort. The finger stops at half
    the object's width; the finger joints are published in /joint_states.
    """

    def __init__(self, peer, name, pub, object_width_m):
        """Serve GripperCommand on ``name``."""
        self.pub, self.object_width_m, self.goals = pub, object_width_m, []
        self.server = rclpy_action.ActionServer(peer.node, control_action.GripperCommand, name,
                                                self._execute)
        peer.before_close.append(self.server.destroy)

    def _execute(self, handle):
        command = handle.request.command
        self.goals.append(command)
        finger = max(command.position, self.object_width_m / 2)
        msg = self.pub.joint_msg
        msg.position = list(msg.position[:7]) + [finger, finger]
        threading.Event().wait(0.05)  # let /joint_states carry the new finger position
        result = control_action.GripperCommand.Result(position=finger, effort=command.max_effort)
        result.reached_goal = abs(command.position - finger) < 0.01
        result.stalled = not result.reached_goal
        (handle.succeed if result.reached_goal else handle.abort)()
        return result


@pytest.mark.parametrize('width_m,held', [(0.012, True), (0.04, True), (0.0, False)])
async def test_grasp_reports_commanded_effort_and_detects_small_objects(rig, width_m, held):
    backend, _, pub, peer = rig
    fake = FakeGripperController(peer, backend.config.ros.actions['gripper'], pub, width_m)
    grip = await backend.grasp(GraspGoal(force_n=20.0))
    assert grip.object_held is held
    assert grip.status == ('SUCCEEDED' if held else 'NO_OBJECT')
    assert grip.width_m == pytest.approx(width_m, abs=1e-3)
    assert grip.force_source == 'commanded' and grip.force_n == 20.0  # echoed, not measured
    assert fake.goals[-1].max_effort == 20.0


async def test_gentle_grasp_is_refused_on_gripper_command(rig):
    backend, _, pub, peer = rig
    fake = FakeGripperController(peer, backend.config.ros.actions['gripper'], pub, 0.03)
    with pytest.raises(BackendError, match='UNSUPPORTED') as err:
        await backend.grasp(GraspGoal(force_n=20.0, speed_mps=0.01))
    assert 'parallel_gripper_command' in err.value.advice and fake.goals == []
