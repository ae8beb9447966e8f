"""A reloaded robot.yaml reaches a running ROS backend: its plan checks use the new limits."""

from dataclasses import replace

from mcp_ros_bridge.backends.port import BackendError, JointGoal
import pytest
import ros_support

pytestmark = [pytest.mark.ros_moveit, pytest.mark.anyio]
pytest.importorskip('rclpy', reason='rclpy does not import: the ros layer needs it')
moveit_rig = ros_support.import_moveit_rig()
limits = moveit_rig.limits


async def test_a_wider_joint_margin_refuses_a_plan_the_old_one_ran(rig):
    """panda_joint4 to -0.15 rad runs under the 0.02 rad margin, not after a reload to 0.1."""
    backend, fake, _, _ = rig
    ran = await backend.move_to_joints(JointGoal({'panda_joint4': -0.15}, limits()))
    assert ran.succeeded, ran.message
    back = await backend.move_to_joints(JointGoal({'panda_joint4': -2.356}, limits()))
    assert back.succeeded, back.message
    executed = len(fake.executions)  # each motion goes in segments of the execution horizon
    config = backend.config
    backend.reconfigure(replace(config, limits=replace(config.limits,
                                                       joint_limit_margin_rad=0.1)))
    with pytest.raises(BackendError, match='LIMIT_EXCEEDED') as err:
        await backend.move_to_joints(JointGoal({'panda_joint4': -0.15}, limits()))
    assert 'panda_joint4' in str(err.value)
    assert len(fake.executions) == executed  # refused: nothing more was executed
