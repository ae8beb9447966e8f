"""
The started parts of the ROS backend, typed and frozen, created once by :func:`start_parts`.

Importing this module imports rclpy: :class:`~.backend.RosBackend` loads it when
it starts. :meth:`RosParts.close` releases what :func:`start_parts` created in
the order rclpy needs (the sensor drain's node, then the node, the executor
and its thread, then the context).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from mcp_ros_bridge.backends.port import JointStates, MotionLimits
from mcp_ros_bridge.backends.ros.actions import GoalRunner
from mcp_ros_bridge.backends.ros.batched import SensorDrain
from mcp_ros_bridge.backends.ros.bindings import DeclaredBindings
from mcp_ros_bridge.backends.ros.gripper import GripperInterface
from mcp_ros_bridge.backends.ros.halt import Halter
from mcp_ros_bridge.backends.ros.joint_cache import JointStateCache
from mcp_ros_bridge.backends.ros.moveit import MoveItInterface
from mcp_ros_bridge.backends.ros.object_poses import ObjectPoses
from mcp_ros_bridge.backends.ros.runtime import qos_from_name, RosRuntime
from mcp_ros_bridge.backends.ros.sensors import Checks, WrenchBuffer
from mcp_ros_bridge.catalog.robot import RobotConfig


@dataclass(frozen=True)
class RosParts:
    """Everything a started ROS backend uses; ``drain`` only when ingestion is batched."""

    runtime: RosRuntime
    joints: JointStateCache
    wrench: WrenchBuffer
    drain: SensorDrain | None
    runner: GoalRunner
    halt: Halter
    moveit: MoveItInterface
    gripper: GripperInterface
    bindings: DeclaredBindings
    objects: ObjectPoses

    def take_arrived(self) -> None:
        """Take what has arrived into the sensor caches when ingestion is batched."""
        if self.drain is not None:
            self.drain.drain()

    def close(self) -> None:
        """Close the sensor drain, then shut the node, executor and context down (blocking)."""
        if self.drain is not None:
            self.drain.close()
        self.runtime.shutdown()


@dataclass(frozen=True)
class Hooks:
    """The backend's callbacks the parts call back into."""

    guard: Callable[[MotionLimits], Any]
    halt_for_guard: Callable[[], Awaitable[dict[str, Any]]]
    finger_states: Callable[[], Awaitable[JointStates]]


def start_parts(config: RobotConfig, node_name: str, namespace: str, ros_args: list[str],
                hooks: Hooks) -> RosParts:
    """Start the node and its executor thread and create every part (blocking)."""
    runtime = RosRuntime(node_name, namespace, ros_args, executor=config.ros.executor)
    node = runtime.start()
    drain: SensorDrain | None = None
    try:
        joints, wrench = _sensor_caches(config, node)
        drain = _subscribe_sensors(config, runtime, joints, wrench)
        runner = GoalRunner(runtime)
        ros = config.ros
        objects = ObjectPoses(ros.object_pose_topics, config.base_frame,
                              ros.object_pose_max_age_s)
        objects.subscribe(node, qos_from_name)
        moveit = MoveItInterface(config, runner, node, runtime.clients_group, hooks.guard,
                                 halt=hooks.halt_for_guard)
        _subscribe_description(config, node, moveit)
        return RosParts(
            runtime, joints, wrench, drain, runner,
            Halter(node, ros.topics['trajectory_execution_event'].name), moveit,
            GripperInterface(config, runner, hooks.finger_states),
            DeclaredBindings(runtime, runner), objects)
    except BaseException:
        if drain is not None:
            drain.close()
        runtime.shutdown()  # a half-started backend leaves no node behind
        raise


def _subscribe_description(config: RobotConfig, node: Any, moveit: MoveItInterface) -> None:
    """Hand the running robot's URDF to the local FK when it arrives (transient local)."""
    from std_msgs.msg import String

    def take(msg: String) -> None:
        moveit.kinematics.take_description(str(msg.data))
    node.create_subscription(String, config.ros.topics['robot_description'].name, take,
                             qos_from_name('transient_local'))


def _sensor_caches(config: RobotConfig, node: Any) -> tuple[JointStateCache, WrenchBuffer]:
    """Create the caches; each sample is checked against the node clock and the F/T rating."""
    joints, wrench = config.ros.topics['joint_states'], config.ros.topics['wrench']
    bare = wrench.bare_wrench  # no header: stamped on receipt
    clock = node.get_clock()

    def now_s() -> float:
        return float(clock.now().nanoseconds * 1e-9)
    lim = config.limits
    checks = Checks(now_s, lim.sensor_max_age_s, lim.ft_rated_force_n, lim.ft_rated_torque_nm)
    known = config.arm_joints + config.gripper_joints
    return JointStateCache(joints.name, known, checks), WrenchBuffer(
        wrench.name, frame_id=config.ft_frame if bare else '',
        receipt_clock=now_s if bare else None, checks=checks)


def _subscribe_sensors(config: RobotConfig, runtime: RosRuntime, joints: JointStateCache,
                       wrench: WrenchBuffer) -> SensorDrain | None:
    """
    Subscribe the sensor caches as ``ros.sensor_ingest`` says; return the drain if batched.

    batched (default): taken in batches by a drain thread (:mod:`.batched`);
    raw: one executor callback per serialized message; objects: one per
    rclpy message object.
    """
    from geometry_msgs.msg import Wrench, WrenchStamped
    from sensor_msgs.msg import JointState
    ros = config.ros
    joints_topic, wrench_topic = ros.topics['joint_states'], ros.topics['wrench']
    wrench_type = Wrench if wrench_topic.bare_wrench else WrenchStamped
    routes = ((JointState, joints_topic, joints), (wrench_type, wrench_topic, wrench))
    depth = ros.sensor_qos_depth
    if ros.sensor_ingest == 'batched':
        node = runtime.running_node
        drain = SensorDrain(runtime.context, f'{node.get_name()}_sensors',
                            node.get_namespace(), ros.sensor_drain_period_ms / 1000.0)
        for msg_type, topic, cache in routes:
            drain.subscribe(msg_type, topic.name, qos_from_name(topic.qos, sensor_depth=depth),
                            cache.on_raw)
        drain.start()
        return drain
    raw = ros.sensor_ingest == 'raw'
    for msg_type, topic, cache in routes:
        runtime.sensor_node.create_subscription(
            msg_type, topic.name, cache.on_raw if raw else cache.on_message,
            qos_from_name(topic.qos, sensor_depth=depth), raw=raw)
    return None
