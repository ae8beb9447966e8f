"""The robot's memory across calls: what a reload voids, the slip record a grasp starts."""

from mcp_ros_bridge.backends.port import GripperState, GripStatus
from mcp_ros_bridge.capabilities.base import CallContext
from mcp_ros_bridge.capabilities.grip_report import forget_slip, slip_since_grasp
from mcp_ros_bridge.capabilities.memory import HeldObject, RobotMemory, Tare
import numpy as np
import pytest


def _tared() -> RobotMemory:
    memory = RobotMemory(held=HeldObject('box', 0.02))
    memory.tare = Tare(np.zeros(6), 0.0)
    return memory


def test_a_new_gripper_voids_the_tare_and_nothing_else() -> None:
    memory = _tared()
    plan_store = memory.plans
    assert memory.reloaded(gripper_changed=False) is False
    assert memory.tare is not None
    assert memory.reloaded(gripper_changed=True) is True
    assert memory.tare is None
    assert memory.held == HeldObject('box', 0.02) and memory.plans is plan_store
    assert memory.reloaded(gripper_changed=True) is False  # nothing left to drop


def _state(name: str, slip_m: float) -> GripperState:
    return GripperState(GripStatus.HOLDING, 0.05, 10.0, object_name=name, slip_m=slip_m)


def test_the_slip_peak_is_a_running_maximum_per_object_until_the_next_grasp() -> None:
    ctx = CallContext(backend=None, robot=None, binding=None)  # type: ignore[arg-type]
    assert slip_since_grasp(ctx, _state('box', 0.002)) == pytest.approx(0.002)
    assert slip_since_grasp(ctx, _state('box', 0.001)) == pytest.approx(0.002)
    assert slip_since_grasp(ctx, _state('cylinder', 0.0005)) == pytest.approx(0.0005)
    forget_slip(ctx)
    assert ctx.memory.slip is None
    assert slip_since_grasp(ctx, _state('cylinder', 0.0001)) == pytest.approx(0.0001)
