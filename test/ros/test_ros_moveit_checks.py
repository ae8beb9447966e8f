"""
Plan, check, execute and the honest gripper, over real rclpy and the generated types.

MoveIt 2 Jazzy enforces neither the tip speed cap nor the workspace box on the
path, and ros2_controllers' GripperActionController measures no force: these
tests hold the bridge to doing it itself, before anything moves.
"""

from functools import partial
import math

import anyio
from doubles import grasp_goal
from fake_moveit import points_of
from mcp_ros_bridge.backends.port import BackendError, JointGoal, PoseGoal
from mcp_ros_bridge.capabilities.base import CallContext
from mcp_ros_bridge.capabilities.motion import run_move_to_joints
from mcp_ros_bridge.catalog.robot import RobotConfig
from mcp_ros_bridge.safety.envelope import Envelope
import pytest
import ros_support

pytestmark = [pytest.mark.ros_moveit, pytest.mark.anyio]
pytest.importorskip('rclpy', reason='rclpy does not import: the ros layer needs it')
moveit_rig = ros_support.import_moveit_rig()
limits, tcp_pose = moveit_rig.limits, moveit_rig.tcp_pose  # the rig fixture: conftest.py
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

    def __init__(self, peer, name, pub, object_width_m, on_goal=None):
        """Serve GripperCommand on ``name``; ``on_goal(command)`` runs as the fingers move."""
        self.pub, self.object_width_m, self.goals = pub, object_width_m, []
        self.on_goal = on_goal
        self.server = rclpy_action.ActionServer(peer.node, control_action.GripperCommand, name,
                                                self._execute)
        peer.after_spin.append(self.server.destroy)

    def _execute(self, handle):
        command = handle.request.command
        self.goals.append(command)
        if self.on_goal is not None:
            self.on_goal(command)
        finger = max(command.position, self.object_width_m / 2)
        msg = self.pub.joint_msg
        sent = self.pub.published['joints']
        msg.position = list(msg.position[:7]) + [finger, finger]
        # Answer only once /joint_states has carried the new finger position (twice).
        ros_support.wait_until(lambda: self.pub.published['joints'] >= sent + 2, 10.0)
        result = control_action.GripperCommand.Result(position=finger, effort=command.max_effort)
        result.reached_goal = abs(command.position - finger) < 0.01
        result.stalled = not result.reached_goal
        (handle.succeed if result.reached_goal else handle.abort)()
        return result


@pytest.mark.parametrize('width_m,held', [(0.012, True), (0.04, True), (0.0, False)])
async def test_grasp_reports_commanded_effort_and_detects_small_objects(rig, width_m, held):
    backend, _, pub, peer = rig
    fake = FakeGripperController(peer, backend.config.ros.actions['gripper'], pub, width_m)
    grip = await backend.grasp(grasp_goal(20.0))
    assert grip.object_held is held
    assert grip.status == ('HOLDING' if held else 'EMPTY')
    assert grip.width_m == pytest.approx(width_m, abs=1e-3)
    assert grip.force_source == 'commanded' and grip.force_n == 20.0  # echoed, not measured
    assert fake.goals[-1].max_effort == 20.0


async def test_gentle_grasp_is_refused_on_gripper_command(rig):
    backend, _, pub, peer = rig
    fake = FakeGripperController(peer, backend.config.ros.actions['gripper'], pub, 0.03)
    with pytest.raises(BackendError, match='UNSUPPORTED') as err:
        await backend.grasp(grasp_goal(20.0, 0.01))
    assert 'parallel_gripper_command' in err.value.advice and fake.goals == []


async def _gap_reads(backend, width_m):
    """Return the gripper state once the joint states show a gap of ``width_m`` (bounded)."""
    with anyio.fail_after(10):
        while True:
            state = await backend.gripper_state()
            if state.width_m == pytest.approx(width_m, abs=1e-4):
                return state
            await anyio.sleep(0.02)


async def test_gripper_state_and_regrasp_from_finger_joint_states(rig):
    """HOLDING after a grasp; a re-grasp is a new goal with the new effort, never an opening."""
    backend, _, pub, peer = rig
    fake = FakeGripperController(peer, backend.config.ros.actions['gripper'], pub, 0.04)
    assert (await _gap_reads(backend, 0.04)).status == 'OPEN'  # the rig's fingers: 2 x 0.02
    assert (await backend.grasp(grasp_goal(10.0))).status == 'HOLDING'
    held = await backend.gripper_state()
    assert held.status == 'HOLDING' and held.slip_m == pytest.approx(0.0, abs=2e-4)
    assert (held.force_n, held.force_source, held.slip_method) == (10.0, 'commanded',
                                                                   'finger_gap')
    again = await backend.grasp(grasp_goal(25.0))
    assert again.status == 'HOLDING' and again.force_n == 25.0
    assert [(g.position, g.max_effort) for g in fake.goals] == [(0.0, 10.0), (0.0, 25.0)]
    assert (await backend.gripper_state()).force_n == 25.0
    pub.joint_msg.position = list(pub.joint_msg.position[:7]) + [0.0185, 0.0185]  # it turned
    turned = await _gap_reads(backend, 0.037)
    assert turned.status == 'HOLDING' and turned.slip_m == pytest.approx(0.003, abs=2e-4)
    pub.joint_msg.position = list(pub.joint_msg.position[:7]) + [0.0, 0.0]  # it fell out
    assert (await _gap_reads(backend, 0.0)).status == 'LOST'


async def test_object_lost_during_a_motion_is_reported_in_its_result(rig):
    """The fingers close while the arm moves: the motion result says the object was lost."""
    backend, fake, pub, peer = rig
    FakeGripperController(peer, backend.config.ros.actions['gripper'], pub, 0.05)
    assert (await backend.grasp(grasp_goal(15.0))).status == 'HOLDING'
    run = fake.arm.run

    def run_and_drop(points, should_stop):
        done = run(points, should_stop)
        pub.joint_msg.position = list(pub.joint_msg.position[:7]) + [0.0, 0.0]
        fake.arm.settle()
        return done
    fake.arm.run = run_and_drop
    ctx = CallContext(backend, backend.config, {})
    out = await run_move_to_joints(ctx, {'positions': list(moveit_rig.REACHED),
                                         'velocity_scaling': 0.2, 'plan_only': False})
    assert out.structured['status'] == 'SUCCEEDED', out.text
    assert out.structured['grip']['status'] == 'LOST'
    assert out.structured['grip']['slip_mm'] == pytest.approx(50.0, abs=0.5)
    assert 'The object was lost' in out.text


async def test_gripper_state_reports_measured_finger_efforts():
    """With gripper_force_source joint_effort, grasp and state read the fingers' efforts."""
    async with moveit_rig.rigged(gripper_force_source='joint_effort') as (backend, _, pub, peer):
        FakeGripperController(peer, backend.config.ros.actions['gripper'], pub, 0.04)
        pub.joint_msg.effort = [0.0] * 7 + [6.0, -6.5]  # the fingers push against each other
        grip = await backend.grasp(grasp_goal(15.0))
        state = await backend.gripper_state()
    assert grip.status == 'HOLDING' and (grip.force_n, grip.force_source) == (12.5, 'measured')
    assert state.status == 'HOLDING' and (state.force_n, state.force_source) == (12.5, 'measured')
