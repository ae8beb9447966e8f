"""
``RosBackend``: the backend port over ROS 2 (rclpy, MoveIt, ros2_control).

A thin facade: the node and executor live in :mod:`.runtime`, sensor caches
in :mod:`.sensors`, MoveIt in :mod:`.moveit`, the gripper in :mod:`.gripper`
and declared bindings in :mod:`.bindings`. rclpy is imported only when the
backend starts, so this module imports on machines without ROS.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Literal, overload, TYPE_CHECKING

from mcp_ros_bridge.backends.port import (BackendError, BackendInfo, CartesianGoal, GraspGoal,
                                          GripResult, Image, JointGoal, JointStates,
                                          MotionLimits, MotionResult, MotionStatus, Pose, PoseGoal,
                                          ProgressFn, ReleaseGoal, WrenchSamples)
from mcp_ros_bridge.backends.ros import verify
from mcp_ros_bridge.catalog.robot import RobotConfig
from mcp_ros_bridge.catalog.ros_settings import Topic

if TYPE_CHECKING:  # rclpy-importing modules, loaded only when the backend starts
    from mcp_ros_bridge.backends.ros.actions import GoalRunner
    from mcp_ros_bridge.backends.ros.bindings import DeclaredBindings
    from mcp_ros_bridge.backends.ros.gripper import GripperInterface
    from mcp_ros_bridge.backends.ros.halt import Halter
    from mcp_ros_bridge.backends.ros.moveit import MoveItInterface
    from mcp_ros_bridge.backends.ros.object_poses import ObjectPoses
    from mcp_ros_bridge.backends.ros.sensors import JointStateCache, WrenchBuffer

STOP_CONFIRM_S = 2.0  # how long stop() waits for joint states to show a still arm


class RosBackend:
    """Drives a ROS 2 robot (MoveIt + ros2_control) from the MCP server's asyncio loop."""

    info = BackendInfo('ros', 'ROS 2 robot through MoveIt 2 and ros2_control',
                       previews_plans=True)  # moveit.py checks each whole plan before it runs

    def __init__(self, config: RobotConfig, *, node_name: str = 'mcp_ros_bridge',
                 namespace: str = '', ros_args: list[str] | None = None,
                 use_sim_time: bool = False) -> None:
        """Remember the configuration; :meth:`start` creates the node (on /clock if asked)."""
        self.config = config
        sim_time = ['-p', 'use_sim_time:=true'] if use_sim_time else []
        self._node_args = (node_name, namespace, list(ros_args or []) + sim_time)
        self._runtime: Any = None
        self._parts: dict[str, Any] = {}

    @property
    def runtime(self) -> Any:
        """Return the running :class:`RosRuntime` (for tests and the entry point)."""
        return self._runtime

    @overload
    def _part(self, name: Literal['joints']) -> JointStateCache: ...
    @overload
    def _part(self, name: Literal['wrench']) -> WrenchBuffer: ...
    @overload
    def _part(self, name: Literal['runner']) -> GoalRunner: ...
    @overload
    def _part(self, name: Literal['halt']) -> Halter: ...
    @overload
    def _part(self, name: Literal['moveit']) -> MoveItInterface: ...
    @overload
    def _part(self, name: Literal['gripper']) -> GripperInterface: ...
    @overload
    def _part(self, name: Literal['bindings']) -> DeclaredBindings: ...
    @overload
    def _part(self, name: Literal['objects']) -> ObjectPoses: ...

    def _part(self, name: str) -> Any:
        """Return a started part by name (typed per name); UNAVAILABLE before start."""
        if name not in self._parts:
            raise BackendError('UNAVAILABLE', 'the ROS backend is not started')
        return self._parts[name]

    async def start(self) -> None:
        """Start the node and its executor thread; subscribe to joint states and wrench."""
        if self._runtime is not None:
            return
        from mcp_ros_bridge.backends.ros.actions import GoalRunner
        from mcp_ros_bridge.backends.ros.bindings import DeclaredBindings
        from mcp_ros_bridge.backends.ros.gripper import GripperInterface
        from mcp_ros_bridge.backends.ros.halt import Halter
        from mcp_ros_bridge.backends.ros.moveit import MoveItInterface
        from mcp_ros_bridge.backends.ros.object_poses import ObjectPoses
        from mcp_ros_bridge.backends.ros.runtime import qos_from_name, RosRuntime
        from mcp_ros_bridge.backends.ros.sensors import JointStateCache, WrenchBuffer
        runtime = RosRuntime(*self._node_args, executor=self.config.ros.executor)
        node = await asyncio.to_thread(runtime.start)
        self._runtime = runtime
        joints, wrench = self.config.ros.topics['joint_states'], self.config.ros.topics['wrench']
        self._parts['joints'] = JointStateCache(joints.name)
        bare = wrench.bare_wrench  # no header: stamped on receipt
        self._parts['wrench'] = WrenchBuffer(
            wrench.name, frame_id=self.config.ft_frame if bare else '',
            receipt_clock=(lambda: node.get_clock().now().nanoseconds * 1e-9) if bare else None)
        self._subscribe_sensors(runtime, joints, wrench)
        runner = GoalRunner(runtime)
        self._parts['runner'] = runner
        event = self.config.ros.topics['trajectory_execution_event']
        self._parts['halt'] = Halter(node, event.name)
        self._parts['moveit'] = MoveItInterface(self.config, runner, node,
                                                runtime.clients_group, self._guard,
                                                halt=self._halt_for_guard)
        self._parts['gripper'] = GripperInterface(self.config, runner, self._finger_states)
        self._parts['bindings'] = DeclaredBindings(runtime, runner)
        ros = self.config.ros
        objects = ObjectPoses(ros.object_pose_topics, self.config.base_frame,
                              ros.object_pose_max_age_s)
        objects.subscribe(node, qos_from_name)
        self._parts['objects'] = objects

    def _subscribe_sensors(self, runtime: Any, joints: Topic, wrench: Topic) -> None:
        """
        Subscribe the sensor caches as ``ros.sensor_ingest`` says.

        batched (default): taken in batches by a drain thread (:mod:`.batched`);
        raw: one executor callback per serialized message; objects: one per
        rclpy message object.
        """
        from geometry_msgs.msg import Wrench, WrenchStamped
        from sensor_msgs.msg import JointState
        from mcp_ros_bridge.backends.ros.runtime import qos_from_name
        ingest, depth = self.config.ros.sensor_ingest, self.config.ros.sensor_qos_depth
        wrench_type = Wrench if wrench.bare_wrench else WrenchStamped
        routes = ((JointState, joints, self._parts['joints']),
                  (wrench_type, wrench, self._parts['wrench']))
        if ingest == 'batched':
            from mcp_ros_bridge.backends.ros.batched import SensorDrain
            name, namespace, _ = self._node_args
            period = self.config.ros.sensor_drain_period_ms / 1000.0
            drain = SensorDrain(runtime.context, f'{name}_sensors', namespace, period)
            for msg_type, topic, cache in routes:
                drain.subscribe(msg_type, topic.name,
                                qos_from_name(topic.qos, sensor_depth=depth),
                                cache.on_raw)
            drain.start()
            self._parts['drain'] = drain
            return
        raw = ingest == 'raw'
        for msg_type, topic, cache in routes:
            runtime.sensor_node.create_subscription(
                msg_type, topic.name, cache.on_raw if raw else cache.on_message,
                qos_from_name(topic.qos, sensor_depth=depth), raw=raw)

    def _take_arrived(self) -> None:
        """Take what has arrived into the sensor caches when ingestion is batched."""
        drain = self._parts.get('drain')
        if drain is not None:
            drain.drain()

    async def close(self) -> None:
        """Cancel running goals, then shut the node, executor and context down."""
        runtime, self._runtime = self._runtime, None
        if runtime is None:
            return
        await asyncio.wait({asyncio.ensure_future(self._parts['runner'].cancel_all())},
                           timeout=3.0)
        drain = self._parts.get('drain')
        self._parts.clear()
        if drain is not None:
            await asyncio.to_thread(drain.close)
        await asyncio.to_thread(runtime.shutdown)

    async def wait_for_sensors(self, timeout_s: float) -> list[str]:
        """Wait until joint states and wrench have arrived once; return the silent topics."""
        caches: list[JointStateCache | WrenchBuffer] = [self._part('joints'),
                                                        self._part('wrench')]
        waited = await asyncio.gather(*(asyncio.to_thread(c.received.wait, timeout_s)
                                        for c in caches))
        return [c.topic for c, ok in zip(caches, waited) if not ok]

    async def wait_until_ready(self, timeout_s: float) -> list[str]:
        """
        Wait for the sensors and check the end effector link; return what is not ready.

        Raises ``INVALID_LINK_NAME`` when MoveIt answers that the configured tip
        is no link of the robot: the bridge refuses to serve motions to it.
        """
        async def tip() -> str:
            try:
                await asyncio.wait_for(self._part('moveit').check_link(), timeout_s)
            except asyncio.TimeoutError:
                return 'the end effector link is not checked yet: compute_fk did not answer'
            except BackendError as err:
                if err.code == 'INVALID_LINK_NAME':
                    raise
                return f'the end effector link is not checked yet: {err.message}'
            return ''
        silent, unchecked = await asyncio.gather(self.wait_for_sensors(timeout_s), tip())
        return [f'no data yet on {t}' for t in silent] + ([unchecked] if unchecked else [])

    def _guard(self, limits: MotionLimits) -> Any:
        from mcp_ros_bridge.backends.ros.guard import ForceGuard
        max_age = self.config.limits.sensor_max_age_s
        if self.config.ros.force_guard == 'off':
            return ForceGuard(None, limits.contact_force_limit_n, max_age)
        self._take_arrived()
        self._part('wrench').read(1, self._runtime.now_s(), max_age)  # refuse when stale
        return ForceGuard(self._part('wrench'), limits.contact_force_limit_n, max_age)

    async def joint_states(self) -> JointStates:
        """Return the newest joint states; SENSOR_STALE when older than the max age."""
        self._take_arrived()
        return self._part('joints').read(self.config.arm_joints, self._runtime.now_s(),
                                         self.config.limits.sensor_max_age_s)

    async def _finger_states(self) -> JointStates:
        self._take_arrived()
        return self._part('joints').read(self.config.gripper_joints, self._runtime.now_s(),
                                         self.config.limits.sensor_max_age_s)

    async def wrench_samples(self, count: int) -> WrenchSamples:
        """Return up to ``count`` newest raw wrench samples; SENSOR_STALE when old."""
        self._take_arrived()
        return self._part('wrench').read(count, self._runtime.now_s(),
                                         self.config.limits.sensor_max_age_s)

    async def end_effector_pose(self, frame: str, link: str = '') -> Pose:
        """Return the pose of ``link`` in ``frame`` via MoveIt's compute_fk."""
        joints = await self.joint_states()
        return await self._part('moveit').fk(frame, link, list(joints.names),
                                             list(joints.positions))

    async def tip_poses(self, joint_rows: Sequence[Sequence[float]]) -> list[Pose]:
        """Return the TCP pose in the base frame per row of arm joints (MoveIt's compute_fk)."""
        return await self._part('moveit').tip_poses(joint_rows)

    async def _finish(self, result: MotionResult) -> MotionResult:
        """Attach the measured joints and tip pose; a success that cannot be read is not one."""
        from mcp_ros_bridge.backends.ros.moveit import best_effort
        joints, error = await best_effort(self.joint_states(), 1.0)
        if joints is not None:
            pose, error = await best_effort(self._part('moveit').fk(
                self.config.base_frame, '', list(joints.names), list(joints.positions)), 2.0)
            result = replace(result, joint_positions=dict(zip(joints.names, joints.positions)),
                             final_pose=pose)
        if error:
            result = replace(result, details={'final_state_error': error, **result.details})
            return verify.unverified(result, error)
        return result

    async def move_to_pose(self, goal: PoseGoal,
                           progress: ProgressFn | None = None) -> MotionResult:
        """Plan and execute a motion to a pose through MoveGroup; verify where it ended."""
        await self._part('moveit').check_link(goal.link)
        result = await self._finish(await self._part('moveit').move(goal, progress))
        target = replace(goal.target, frame_id=goal.target.frame_id or self.config.base_frame)
        return verify.check_pose(result, target, goal.position_tolerance_m,
                                 goal.orientation_tolerance_rad)

    async def move_to_joints(self, goal: JointGoal,
                             progress: ProgressFn | None = None) -> MotionResult:
        """Plan and execute a motion to joint positions through MoveGroup; verify the joints."""
        await self._part('moveit').check_link()
        result = await self._finish(await self._part('moveit').move(goal, progress))
        return verify.check_joints(result, goal.positions, goal.tolerance_rad)

    async def follow_cartesian_path(self, goal: CartesianGoal,
                                    progress: ProgressFn | None = None) -> MotionResult:
        """Compute and execute a Cartesian path (refused below ``min_fraction``); verify it."""
        await self._part('moveit').check_link(goal.link)
        result = await self._finish(await self._part('moveit').follow_path(goal, progress))
        if result.fraction < 1.0 or not goal.waypoints:
            return result
        last = goal.waypoints[-1]
        target = replace(last, frame_id=last.frame_id or self.config.base_frame)
        return verify.check_pose(result, target, goal.max_step_m, 0.01)

    async def _halt_for_guard(self) -> dict[str, Any]:
        """Send the execution stop and wait until joint states show the arm still."""
        halt = self._part('halt')
        halt.send()
        still, waited, why = await halt.until_still(self.joint_states, STOP_CONFIRM_S)
        return {'confirmed_still': still, 'halt_waited_s': round(waited, 3),
                **({} if still else {'halt_problem': why})}

    async def stop(self) -> MotionResult:
        """
        Halt the arm and confirm it from joint states (not an emergency stop); idempotent.

        Sends move_group's execution "stop" event (the only thing that halts an
        ExecuteTrajectory), cancels every running goal (a cancelled MoveGroup
        goal stops too), then waits until every arm joint is still.
        """
        if self._runtime is None:
            return MotionResult(MotionStatus.IDLE,
                                'the ROS backend is not running; nothing to stop')
        halt = self._part('halt')
        halt.send()
        count = await self._part('runner').cancel_all()
        still, waited, why = await halt.until_still(self.joint_states, STOP_CONFIRM_S)
        details = {'cancelled_goals': count, 'waited_s': round(waited, 3)}
        if not still:
            return MotionResult(MotionStatus.FAILED,
                                f'stop sent on {halt.topic} and {count} goal(s) cancelled, but '
                                f'the arm is not confirmed still after {waited:.1f} s: {why}',
                                details={**details, 'code': 'STOP_UNCONFIRMED',
                                         'advice': 'use the emergency stop of the robot; '
                                                   'check get_joint_states'})
        what = f'cancelled {count} running goal(s)' if count else 'no motion was running'
        return MotionResult(MotionStatus.STOPPED if count else MotionStatus.IDLE,
                            f'{what}; joint states confirm the arm is still', details=details)

    async def grasp(self, goal: GraspGoal, progress: ProgressFn | None = None) -> GripResult:
        """Close the gripper with a force limit."""
        return await self._part('gripper').grasp(goal, progress)

    async def release(self, goal: ReleaseGoal,
                      progress: ProgressFn | None = None) -> GripResult:
        """Open the gripper to a width."""
        return await self._part('gripper').release(goal, progress)

    async def capture_image(self, camera: str, width: int, height: int) -> Image:
        """Cameras are served through declared topic bindings on ROS; not here."""
        raise BackendError('UNSUPPORTED', 'the ROS backend has no built-in camera capture',
                           advice='declare a topic binding for the camera topic instead')

    async def object_pose(self, name: str, frame: str) -> Pose:
        """Return the newest pose of ``name`` from its ``ros.object_pose_topics`` topic."""
        return self._part('objects').read(name, frame, self._runtime.now_s())

    async def read_topic(self, binding: Mapping[str, Any]) -> dict[str, Any]:
        """Return the newest message of a declared topic as a dict with ``age_s``."""
        return await self._part('bindings').read_topic(binding)

    async def call_service(self, binding: Mapping[str, Any],
                           request: Mapping[str, Any]) -> dict[str, Any]:
        """Call a declared service with a request dict."""
        return await self._part('bindings').call_service(binding, request)

    async def send_action_goal(self, binding: Mapping[str, Any], goal: Mapping[str, Any],
                               progress: ProgressFn | None = None) -> dict[str, Any]:
        """Send a goal to a declared action; return status, result and feedback count."""
        return await self._part('bindings').send_action_goal(binding, goal, progress)
