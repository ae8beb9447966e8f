"""A recording double of the backend port, for unit and contract tests of the server."""

from __future__ import annotations

import asyncio
from typing import Any

from mcp_ros_bridge.backends.port import (BackendError, BackendInfo, CartesianGoal, GraspGoal,
                                          GripperState, GripResult, GripStatus, Image,
                                          JointGoal, JointStates, MotionResult, MotionStatus,
                                          Plan, Pose, PoseGoal, ReleaseGoal, RobotState,
                                          WrenchSamples)

ARM = tuple(f'panda_joint{i}' for i in range(1, 8))


class RecordingBackend:
    """Records every port call; motions finish at once unless ``hold_motion`` is set."""

    def __init__(self) -> None:
        self.info = BackendInfo('sim', 'recording double', previews_plans=True)
        self.calls: list[tuple[str, Any]] = []
        self.grip_state = GripperState(GripStatus.OPEN, 0.08, 0.0)
        self.hold_motion = False
        self.motion_started = asyncio.Event()
        self.release_motion = asyncio.Event()
        self.stopped = asyncio.Event()
        self.stop_entered = asyncio.Event()
        self.stop_gate: asyncio.Event | None = None  # when set: stop() waits for it
        self.fail_with: BackendError | None = None
        self.wrench_age = 0.001
        self.wrench_clock = 0.0
        self.fail_object_pose: BackendError | None = None
        self.check_paths = True  # run the goal's path check on a fingers-down pose, as planned

    @property
    def motion_calls(self) -> list[tuple[str, Any]]:
        """Return the calls that would move the robot."""
        return [c for c in self.calls if c[0] in (
            'move_to_pose', 'move_to_joints', 'follow_cartesian_path', 'move_until_contact',
            'grasp', 'release',
            'send_action_goal', 'call_service')]

    async def start(self) -> None:
        self.calls.append(('start', None))

    async def close(self) -> None:
        self.calls.append(('close', None))

    async def wait_started(self) -> BackendInfo:
        return self.info

    async def ready(self, timeout_s: float) -> list[str]:
        return []

    def reconfigure(self, config: Any) -> None:
        pass

    async def joint_states(self) -> JointStates:
        self.calls.append(('joint_states', None))
        names = ARM + ('panda_finger_joint1', 'panda_finger_joint2')
        pos = (0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785, 0.04, 0.04)
        return JointStates(names, pos, (0.0,) * 9, (0.0,) * 9, 1.0, 0.002)

    async def wrench_samples(self, count: int) -> WrenchSamples:
        self.calls.append(('wrench_samples', count))
        rows = tuple((0.1 * (i % 3), 0.0, -7.0 + 0.01 * (i % 5), 0.0, 0.0, 0.0)  # noise, still
                     for i in range(count))
        self.wrench_clock += count / 1000.0  # each read sees samples newer than the last
        stamps = tuple(self.wrench_clock + (i - count) / 1000.0 for i in range(count))
        return WrenchSamples(rows, stamps, 'panda_ft_sensor', self.wrench_age, 1000.0)

    async def end_effector_pose(self, frame: str, link: str = '') -> Pose:
        self.calls.append(('end_effector_pose', (frame, link)))
        return Pose((0.307, 0.0, 0.487), (0.0, 1.0, 0.0, 0.0), frame)

    async def tip_poses(self, joint_rows: Any) -> list[Pose]:
        self.calls.append(('tip_poses', joint_rows))
        raise BackendError('UNAVAILABLE', 'the recording double has no kinematic model')

    async def _motion(self, name: str, goal: Any, progress: Any) -> MotionResult:
        check = getattr(getattr(goal, 'limits', None), 'path_check', None)
        if check is not None and self.check_paths:  # the "plan" is checked before it moves
            check([Pose((0.307, 0.0, 0.487), (0.0, 1.0, 0.0, 0.0), 'panda_link0')], [0.0])
        self.calls.append((name, goal))
        if self.fail_with is not None:
            raise self.fail_with
        if progress is not None:
            await progress(0.5, 'halfway')
        if self.hold_motion:
            self.motion_started.set()
            try:
                await self.release_motion.wait()
            except asyncio.CancelledError:
                self.calls.append(('cancelled', name))
                raise
            if self.stopped.is_set():
                return MotionResult(MotionStatus.STOPPED, 'stopped on request', duration_s=0.1)
        return MotionResult(MotionStatus.SUCCEEDED, 'reached', Pose((0.5, 0.0, 0.3), (0, 1, 0, 0),
                            'panda_link0'), duration_s=0.2, position_error_m=0.0004)

    async def plan(self, goal: Any, start: Any = None) -> Plan:
        """Return a two-sample plan at the fingers-down pose (its path check run), recorded."""
        pose = Pose((0.307, 0.0, 0.487), (0.0, 1.0, 0.0, 0.0), 'panda_link0')
        check = goal.limits.path_check
        if check is not None and self.check_paths:
            check([pose, pose], [0.0, 0.2])
        self.calls.append(('plan', goal))
        if self.fail_with is not None:
            raise self.fail_with
        home = (0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785)
        state = start or RobotState(dict(zip(ARM, home)))
        return Plan(goal, state, state, (0.0, 0.2), (home, home), (pose, pose))

    async def execute(self, plan: Plan, progress: Any = None) -> MotionResult:
        """Run the plan as the motion of its goal's kind."""
        name = {PoseGoal: 'move_to_pose', JointGoal: 'move_to_joints',
                CartesianGoal: 'follow_cartesian_path'}[type(plan.goal)]
        return await self._motion(name, plan.goal, progress)

    async def move_to_pose(self, goal: Any, progress: Any = None) -> MotionResult:
        return await self._motion('move_to_pose', goal, progress)

    async def move_to_joints(self, goal: Any, progress: Any = None) -> MotionResult:
        return await self._motion('move_to_joints', goal, progress)

    async def follow_cartesian_path(self, goal: Any, progress: Any = None) -> MotionResult:
        return await self._motion('follow_cartesian_path', goal, progress)

    async def move_until_contact(self, goal: Any, progress: Any = None) -> MotionResult:
        return await self._motion('move_until_contact', goal, progress)

    async def stop(self) -> MotionResult:
        self.calls.append(('stop', None))
        was_moving = self.motion_started.is_set() and not self.release_motion.is_set()
        self.stop_entered.set()
        if self.stop_gate is not None:
            await self.stop_gate.wait()
            self.calls.append(('stop_done', None))
        self.stopped.set()
        self.release_motion.set()
        return MotionResult(MotionStatus.STOPPED if was_moving else MotionStatus.IDLE,
                            'stop handled', details={'was_moving': was_moving})

    async def grasp(self, goal: Any, progress: Any = None) -> GripResult:
        self.calls.append(('grasp', goal))
        self.grip_state = GripperState(GripStatus.HOLDING, 0.05, goal.force_n)
        return GripResult(GripStatus.HOLDING, 'holding', 0.05, goal.force_n, True)

    async def release(self, goal: Any, progress: Any = None) -> GripResult:
        self.calls.append(('release', goal))
        self.grip_state = GripperState(GripStatus.OPEN, goal.width_m, 0.0)
        return GripResult(GripStatus.OPEN, 'open', goal.width_m, 0.0, False)

    async def gripper_state(self) -> GripperState:
        """Return ``grip_state`` (default: open, nothing held); not recorded in ``calls``."""
        return self.grip_state

    async def capture_image(self, camera: str, width: int, height: int) -> Image:
        self.calls.append(('capture_image', (camera, width, height)))
        return Image(b'\x89PNG\r\n\x1a\n', 'image/png', width, height, camera)

    async def object_pose(self, name: str, frame: str) -> Pose:
        self.calls.append(('object_pose', name))
        if self.fail_object_pose is not None:
            raise self.fail_object_pose
        if name == 'cylinder':  # apart from the box, as on the simulation's table
            return Pose((0.3, 0.35, 0.05), (1.0, 0.0, 0.0, 0.0), frame)
        return Pose((0.5, 0.1, 0.025), (1.0, 0.0, 0.0, 0.0), frame)

    async def read_topic(self, binding: Any) -> dict[str, Any]:
        self.calls.append(('read_topic', binding))
        return {'data': 1}

    async def call_service(self, binding: Any, request: Any) -> dict[str, Any]:
        self.calls.append(('call_service', request))
        return {'ok': True}

    async def send_action_goal(self, binding: Any, goal: Any, progress: Any = None) -> dict:
        self.calls.append(('send_action_goal', goal))
        return {'status': 'SUCCEEDED', 'result': {}}


def grasp_goal(force_n: float, speed_mps: float = 0.05) -> GraspGoal:
    """Return a grasp goal at the shipped ``standard`` strategy's speed and timeout."""
    return GraspGoal(force_n=force_n, speed_mps=speed_mps, timeout_s=10.0)


def release_goal(width_m: float) -> ReleaseGoal:
    """Return a release goal at the shipped release binding's speed and timeout."""
    return ReleaseGoal(width_m=width_m, speed_mps=0.05, timeout_s=10.0)
