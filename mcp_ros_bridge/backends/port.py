"""
The backend port: the typed async interface every robot backend implements.

Capabilities talk to the robot only through :class:`RobotBackend`. All values
crossing this port are SI (metres, radians, newtons, newton-metres, seconds);
unit conversion for tool parameters happens before, in the capabilities.

Conventions shared by every backend:

* Methods are coroutines called from the MCP server's asyncio loop; they never
  block that loop (CPU-bound or ROS work runs elsewhere).
* A failure found *before* any motion raises :class:`BackendError` with a
  MoveIt-style ``code`` (``NO_IK_SOLUTION``, ``GOAL_IN_COLLISION``...).
* A motion that started and ended early returns a result whose ``status`` is
  not ``SUCCEEDED`` (``STOPPED``, ``CONTACT_ABORT``, ``TIMED_OUT``...).
* Cancelling the awaiting task (``asyncio.CancelledError``) stops the motion
  or cancels the goal before the cancellation propagates.
* Quaternions are ``(w, x, y, z)`` as in transforms3d.
* A motion runs only after its planned path passed ``MotionLimits.path_check``.
* A pose, joint or straight-line motion is a :class:`Plan` first
  (:meth:`RobotBackend.plan`): a value to check, show and keep, then run as
  planned (:meth:`RobotBackend.execute`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
import itertools
import math
from typing import Any, Protocol, runtime_checkable, TYPE_CHECKING

from mcp_ros_bridge.failure import advice_for, Failure

if TYPE_CHECKING:  # annotations only: importing the port loads no other project module
    from mcp_ros_bridge.catalog.bindings import ActionBinding, ServiceBinding, TopicBinding
    from mcp_ros_bridge.catalog.robot import RobotConfig

ProgressFn = Callable[[float, str], Awaitable[None]]
"""Reports a fraction done in [0, 1] and a short message, awaited on the loop."""

AXES: tuple[str, ...] = ('Fx', 'Fy', 'Fz', 'Mx', 'My', 'Mz')

PathCheck = Callable[[Sequence['Pose'], Sequence[float]], None]
"""
The envelope's check of a path: tip poses (base frame) and their times (s from the start).

Raises :class:`BackendError` ``LIMIT_EXCEEDED`` naming the first sample outside
the envelope. A backend that plans calls it with every sample of the planned
trajectory (poses from :meth:`RobotBackend.tip_poses`) before anything moves,
and may call it with single samples while executing: after :func:`new_pass`
when the same check saw the plan.
"""


def new_pass(check: PathCheck | None) -> None:
    """
    Begin another pass of ``check`` over the same motion: its execution after its plan.

    A check that keeps what it saw of a motion (the envelope's: a sample outside
    must come closer than the ones before) has a ``restart`` method for this.
    """
    restart = getattr(check, 'restart', None)
    if restart is not None:
        restart()


class Status(str, Enum):
    """A result status; its value is the text tool results show."""

    def __str__(self) -> str:
        """Return the value, so formatting matches the JSON on every Python version."""
        return str(self.value)


class MotionStatus(Status):
    """How a motion ended."""

    SUCCEEDED = 'SUCCEEDED'
    STOPPED = 'STOPPED'  # stop or cancel
    CONTACT_ABORT = 'CONTACT_ABORT'  # force guard
    TIMED_OUT = 'TIMED_OUT'
    PARTIAL = 'PARTIAL'  # Cartesian path below the requested fraction, not executed
    FAILED = 'FAILED'
    IDLE = 'IDLE'  # a stop found nothing moving


class GripStatus(Status):
    """What the gripper holds after a grasp or release, or how either ended early."""

    HOLDING = 'HOLDING'  # the fingers stopped on an object and keep squeezing it
    EMPTY = 'EMPTY'  # the fingers closed fully on nothing
    OPEN = 'OPEN'  # a release reached its width; nothing is held
    LOST = 'LOST'  # an object that was held has left the fingers (gripper state only)
    STOPPED = 'STOPPED'
    TIMED_OUT = 'TIMED_OUT'
    FAILED = 'FAILED'


class BackendError(Exception):
    """
    A failure the agent can act on, raised; ``failure`` holds its code, message, advice, details.

    ``code`` follows MoveIt's ``MoveItErrorCodes`` names where one fits
    (``NO_IK_SOLUTION``, ``GOAL_IN_COLLISION``, ``PLANNING_FAILED``,
    ``TIMED_OUT``, ``CONTROL_FAILED``...) and otherwise one of
    ``SENSOR_STALE``, ``SENSOR_FAULT``, ``UNAVAILABLE``, ``UNSUPPORTED``,
    ``REJECTED``, ``UNKNOWN_OBJECT``, ``INVALID_GOAL``.

    ``SENSOR_FAULT``: a sensor stream has no valid recent sample because its
    samples are rejected (non-finite, beyond the rated range, stamped in the
    future or from the other clock, arrays that do not fit the joint names);
    details name the topic, the reason and the rejected counts. Reads and
    motions refuse, and a running motion stops (:mod:`.sensor_checks`).
    """

    def __init__(self, code: str, message: str, *, advice: str = '',
                 details: Mapping[str, Any] | None = None) -> None:
        """Keep the failure: the code, the human message, advice and structured details."""
        super().__init__(f'{code}: {message}')
        self.failure = Failure(code, message, advice, dict(details or {}))

    @staticmethod
    def of(failure: Failure) -> BackendError:
        """Return the error that raises ``failure``."""
        return BackendError(failure.code, failure.message, advice=failure.advice,
                            details=failure.details)

    @property
    def code(self) -> str:
        """Return the failure's code."""
        return self.failure.code

    @property
    def message(self) -> str:
        """Return the failure's human message."""
        return self.failure.message

    @property
    def advice(self) -> str:
        """Return the failure's own advice, or '' when it has none."""
        return self.failure.advice

    @property
    def details(self) -> Mapping[str, Any]:
        """Return the failure's structured details."""
        return self.failure.details


@dataclass(frozen=True)
class Pose:
    """A pose of a frame relative to ``frame_id``; position m, quaternion wxyz."""

    position: tuple[float, float, float]
    orientation: tuple[float, float, float, float]
    frame_id: str
    stamp: float = 0.0


STILL_RAD_S = 0.01  # every arm joint slower than this counts as still (both backends)


@dataclass(frozen=True)
class JointStates:
    """Joint positions (rad or m), velocities and efforts (Nm or N)."""

    names: tuple[str, ...]
    positions: tuple[float, ...]
    velocities: tuple[float, ...]
    efforts: tuple[float, ...]
    stamp: float
    age_s: float
    source: str = ''
    rejected: Mapping[str, int] = field(default_factory=dict)  # invalid samples by reason


@dataclass(frozen=True)
class WrenchSamples:
    """
    The newest raw wrench samples, oldest first.

    ``samples`` is a list of ``(Fx, Fy, Fz, Mx, My, Mz)`` rows in N and Nm,
    expressed in ``frame_id``; ``stamps`` are their times in seconds;
    ``age_s`` is the age of the newest sample when read; ``rejected`` counts
    the invalid samples (by reason) left out since start.
    """

    samples: tuple[tuple[float, float, float, float, float, float], ...]
    stamps: tuple[float, ...]
    frame_id: str
    age_s: float
    rate_hz: float
    source: str = ''
    rejected: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class MotionLimits:
    """
    Limits a backend applies while planning and executing one motion.

    ``path_check`` (set by the safety envelope) must pass for every sample of
    the planned path before the motion starts; ``None`` only for a bare backend.
    ``contact_threshold_n`` (a guarded move): stop once the force differs from
    its value at the start by more than this, below ``contact_force_limit_n``.
    """

    velocity_scaling: float
    acceleration_scaling: float
    contact_force_limit_n: float
    max_cartesian_speed_mps: float | None = None
    timeout_s: float = 60.0
    path_check: PathCheck | None = None
    contact_threshold_n: float | None = None


@dataclass(frozen=True)
class PoseGoal:
    """Move the end effector (``link``) to ``target``."""

    target: Pose
    limits: MotionLimits
    link: str = ''
    position_tolerance_m: float = 0.001
    orientation_tolerance_rad: float = 0.01
    planning_time_s: float = 5.0
    planning_attempts: int = 5


@dataclass(frozen=True)
class JointGoal:
    """Move the arm joints to ``positions`` (rad), keyed by joint name."""

    positions: Mapping[str, float]
    limits: MotionLimits
    tolerance_rad: float = 0.005
    planning_time_s: float = 5.0


@dataclass(frozen=True)
class CartesianGoal:
    """
    Follow straight-line segments through ``waypoints`` (same frame each).

    ``may_touch``: known objects the hand may touch on the way (a pick's descent
    around the object it grasps); any other known object on the path refuses it.
    """

    waypoints: Sequence[Pose]
    limits: MotionLimits
    link: str = ''
    max_step_m: float = 0.005
    min_fraction: float = 1.0
    avoid_collisions: bool = True
    may_touch: frozenset[str] = frozenset()


MotionGoal = PoseGoal | JointGoal | CartesianGoal
"""The goals a :class:`Plan` is made for."""

START_TOLERANCE_RAD = 0.01  # a plan runs only while every arm joint is this close to its start


@dataclass(frozen=True)
class RobotState:
    """Where a plan starts or ends: arm joints (rad) and the object in the hand (``''``: none)."""

    joints: Mapping[str, float]
    held: str = ''


@dataclass(frozen=True)
class Plan:
    """
    One motion as a value, before anything moves: samples, facts, start and end.

    ``positions`` are the arm joints per sample (``joints.arm`` order) at
    ``times`` (s from the start); ``tip_poses`` the TCP per sample in the base
    frame. ``status`` is ``SUCCEEDED`` for a plan that can run and ``PARTIAL``
    for a straight path below its ``min_fraction`` (``message`` says why; it
    never runs). ``trajectory`` is the backend's own executable form.
    """

    goal: MotionGoal
    start: RobotState
    end: RobotState
    times: Sequence[float]
    positions: Sequence[Sequence[float]]
    tip_poses: Sequence[Pose]
    status: MotionStatus = MotionStatus.SUCCEEDED
    message: str = ''
    fraction: float = 1.0
    details: Mapping[str, Any] = field(default_factory=dict)
    trajectory: Any = field(default=None, compare=False, repr=False)

    @property
    def executable(self) -> bool:
        """Return True when the plan may run (not PARTIAL)."""
        return self.status is MotionStatus.SUCCEEDED

    @property
    def duration_s(self) -> float:
        """Return how long the planned motion takes (s)."""
        return float(self.times[-1]) if len(self.times) else 0.0

    @property
    def path_length_m(self) -> float:
        """Return the length of the tip's path (m)."""
        return sum(math.dist(a.position, b.position)
                   for a, b in itertools.pairwise(self.tip_poses))

    @property
    def peak_tip_speed_mps(self) -> float:
        """Return the highest tip speed between two samples (m/s)."""
        return _peak(self.times, [p.position for p in self.tip_poses], math.dist)

    @property
    def peak_joint_speed_rad_s(self) -> float:
        """Return the highest speed of any one arm joint between two samples (rad/s)."""
        return _peak(self.times, self.positions,
                     lambda a, b: max(abs(float(y) - float(x)) for x, y in zip(a, b)))

    @property
    def target(self) -> Pose | None:
        """Return the pose the tip is sent to (a pose goal's, a path's last waypoint)."""
        if isinstance(self.goal, PoseGoal):
            return self.goal.target
        if isinstance(self.goal, CartesianGoal) and self.goal.waypoints:
            return self.goal.waypoints[-1]
        return None


Chain = tuple[Plan, ...]  # a job's arm plans, each planned from where the one before ends


def _peak(times: Sequence[float], rows: Sequence[Sequence[float]],
          step: Callable[[Sequence[float], Sequence[float]], float]) -> float:
    """Return the largest ``step`` between consecutive rows per second."""
    peak = 0.0
    for (t0, a), (t1, b) in itertools.pairwise(zip(times, rows)):
        if t1 > t0:
            peak = max(peak, step(a, b) / (t1 - t0))
    return peak


@dataclass(frozen=True)
class GuardedGoal:
    """
    Move the end effector straight along ``direction`` until a contact force stops it.

    ``direction`` is a unit vector in ``frame``; the tip keeps its orientation
    and moves at most ``max_distance_m`` at ``speed_mps``. The motion stops when
    the contact force on the tip, fingers or what they hold exceeds
    ``force_threshold_n`` (net of the load at the start): the result is then
    ``CONTACT_ABORT`` with ``contact`` set (the expected end of a guarded move),
    and ``SUCCEEDED`` when the whole distance passed without contact.

    A push names ``push_object``: the hand and fingers may touch that object
    (planning allows it) up to ``push_force_cap_n`` on it, and the line runs on
    through the contact; any other contact still stops at ``force_threshold_n``.
    The stop says which (``contact['cause']``: ``push_cap`` or ``contact``).
    Where the backend measures no per-object contact (ROS: one wrist sensor),
    the cap is the threshold of the whole force change.
    """

    direction: tuple[float, float, float]
    max_distance_m: float
    speed_mps: float
    force_threshold_n: float
    limits: MotionLimits
    frame: str = ''
    link: str = ''
    max_step_m: float = 0.002
    push_object: str | None = None
    push_force_cap_n: float = 0.0


GUARDED_CONTACT_KEYS = ('force_n', 'tip_m', 'point_m', 'point_source', 'travelled_m', 'pairs',
                        'cause', 'by', 'by_body', 'body', 'rest_force_n')
"""
What ``MotionResult.contact`` of a guarded move holds.

``force_n`` (the force that stopped it, net of the start), ``tip_m`` (the tip
position at the threshold crossing, m in the goal's frame), ``point_m`` (the
contact point: measured where the backend knows it, else the tip) and
``point_source`` (``physics`` or ``tip``), ``travelled_m`` (along the
direction, at the crossing), where known, ``pairs`` (what touched what, N), and
for a push ``cause``: ``push_cap`` (the pushed object's force passed the cap) or
``contact`` (anything else touched). Where the backend resolves contacts: ``by``
(``fingers``, ``held_object``, ``hand`` or ``arm``: the robot's part in the
strongest contact), ``by_body`` (its body), ``body`` (what it touched: an
object's name or ``table``) and ``rest_force_n`` (the contact force still
pressing once the arm is at rest, N).
"""


@dataclass(frozen=True)
class GraspGoal:
    """Close the gripper until contact and regulate the grip force."""

    force_n: float
    speed_mps: float  # the tool's grasp strategy (tools.yaml binding)
    timeout_s: float
    width_m: float | None = None


@dataclass(frozen=True)
class ReleaseGoal:
    """Open the gripper to ``width_m`` (total finger gap)."""

    width_m: float
    speed_mps: float  # the release tool's binding (tools.yaml)
    timeout_s: float


@dataclass(frozen=True)
class MotionResult:
    """How a motion ended; built once by the backend."""

    status: MotionStatus
    message: str
    final_pose: Pose | None = None
    joint_positions: Mapping[str, float] = field(default_factory=dict)
    duration_s: float = 0.0
    fraction: float = 1.0
    position_error_m: float | None = None
    orientation_error_rad: float | None = None
    peak_force_n: float | None = None
    contact: Mapping[str, Any] | None = None
    details: Mapping[str, Any] = field(default_factory=dict)

    @property
    def succeeded(self) -> bool:
        """Return True when the motion reached its goal."""
        return self.status is MotionStatus.SUCCEEDED

    @property
    def failure(self) -> Failure:
        """
        Return how the motion failed: the backend's code or the status, message and advice.

        The advice is the backend's (``details['advice']``) or the status's
        (``motion_advice_<STATUS>``), as written (the English ones start with a space).
        """
        code = str(self.details.get('code') or self.status.value)
        advice = str(self.details.get('advice') or advice_for(self.status.value,
                                                              'motion_advice_'))
        return Failure(code, self.message, advice, dict(self.details))


@dataclass(frozen=True)
class GripResult:
    """
    How a grasp or release ended; widths are the total finger gap in m.

    ``object_held`` is True for ``HOLDING`` and also when a grasp was stopped
    or timed out after the fingers closed on an object (they keep squeezing).
    """

    status: GripStatus
    message: str
    width_m: float
    force_n: float
    object_held: bool
    duration_s: float = 0.0
    details: Mapping[str, Any] = field(default_factory=dict)
    force_source: str = 'measured'  # or 'commanded': no sensor; force_n is the command

    @property
    def succeeded(self) -> bool:
        """Return True when the gripper did what was asked (HOLDING or OPEN)."""
        return self.status in (GripStatus.HOLDING, GripStatus.OPEN)


@dataclass(frozen=True)
class GripperState:
    """
    The gripper now: finger gap (m), grip force (N), what it holds, slip since the grasp.

    ``status`` is ``HOLDING``, ``LOST`` (the grasped object left the fingers),
    ``EMPTY`` (closed on nothing) or ``OPEN``. ``slip_m`` is how far the object
    moved in the fingers since the newest grasp, measured by ``slip_method``
    (``object_in_hand``: its pose relative to the hand; ``finger_gap``: the
    change of the finger gap); None when nothing was grasped.
    """

    status: GripStatus
    width_m: float
    force_n: float
    force_source: str = 'measured'  # or 'commanded': no sensor; force_n is the command
    slip_m: float | None = None
    slip_method: str = ''
    object_name: str = ''


@dataclass(frozen=True)
class Image:
    """An encoded image."""

    data: bytes
    mime_type: str
    width: int
    height: int
    camera: str


@dataclass(frozen=True)
class BackendInfo:
    """
    Which backend this is; ``name`` selects the catalog's tools for it.

    ``previews_plans``: every motion calls ``MotionLimits.path_check`` with the
    whole planned path before anything moves, so a check that raises stops it
    (plan-only motions rely on this).
    """

    name: str
    description: str
    previews_plans: bool = False


@runtime_checkable
class RobotBackend(Protocol):
    """The interface capabilities call; implemented by ``sim`` and ``ros``."""

    @property
    def info(self) -> BackendInfo:
        """Which backend this is (an attribute or property of the implementation)."""

    async def start(self) -> None:
        """Connect or load, ready to serve calls."""

    async def close(self) -> None:
        """Stop any motion and release every resource; safe to call twice."""

    async def wait_started(self) -> BackendInfo:
        """Return :attr:`info` once the backend is started (a deferred start: once it ended)."""

    async def ready(self, timeout_s: float) -> list[str]:
        """
        Wait up to ``timeout_s`` for what the backend needs to serve; return what is not ready.

        Called once after :meth:`start` (ROS: sensors and the tip link; the simulation
        is ready when started). Raises when a configured fact is wrong.
        """

    def reconfigure(self, config: RobotConfig) -> None:
        """Use a reloaded robot.yaml from the next call on (only what may change live)."""

    async def joint_states(self) -> JointStates:
        """Return the newest valid joint states; SENSOR_STALE when old, SENSOR_FAULT if invalid."""

    async def wrench_samples(self, count: int) -> WrenchSamples:
        """Return up to ``count`` newest valid wrench samples; SENSOR_STALE / SENSOR_FAULT."""

    async def end_effector_pose(self, frame: str, link: str = '') -> Pose:
        """Return the pose of ``link`` (default: the end effector) in ``frame``."""

    async def tip_poses(self, joint_rows: Sequence[Sequence[float]]) -> list[Pose]:
        """
        Return the end effector (TCP) pose in the base frame for each row of arm joints.

        Rows are arm joint positions in ``robot.yaml``'s ``joints.arm`` order
        (forward kinematics; nothing moves). Raise ``UNAVAILABLE`` when the
        backend has no kinematic model.
        """

    async def plan(self, goal: MotionGoal, start: RobotState | None = None) -> Plan:
        """
        Plan a pose, joint or straight-line goal from ``start`` (default: where the arm is).

        Nothing moves. A planning failure raises :class:`BackendError`; the goal's
        ``limits.path_check`` runs on the planned samples (times as they will run).
        """

    async def execute(self, plan: Plan, progress: ProgressFn | None = None) -> MotionResult:
        """
        Run ``plan`` as planned (a PARTIAL plan: its result, nothing moves).

        Raises ``STALE_PLAN`` when an arm joint is farther than
        :data:`START_TOLERANCE_RAD` from the plan's start; ``limits.path_check``
        watches the executing samples.
        """

    async def move_to_pose(self, goal: PoseGoal,
                           progress: ProgressFn | None = None) -> MotionResult:
        """Plan and execute a motion of the end effector to a pose."""

    async def move_to_joints(self, goal: JointGoal,
                             progress: ProgressFn | None = None) -> MotionResult:
        """Plan and execute a motion to joint positions."""

    async def follow_cartesian_path(self, goal: CartesianGoal,
                                    progress: ProgressFn | None = None
                                    ) -> MotionResult:
        """Compute a straight-line path through waypoints and execute it."""

    async def move_until_contact(self, goal: GuardedGoal,
                                 progress: ProgressFn | None = None) -> MotionResult:
        """
        Move straight along a direction until contact (see :class:`GuardedGoal`).

        The planned path may bring the tip, the fingers or a held object into
        contact; the arm links must stay clear. ``details['travelled_m']`` is the
        distance moved along the direction when the arm was still.
        """

    async def stop(self) -> MotionResult:
        """
        Cancel the running motion goal and hold position (not an e-stop).

        Status ``STOPPED`` when something was moving, ``IDLE`` when nothing was.
        Returns once the robot has stopped (or the stop is known to have failed).
        """

    async def grasp(self, goal: GraspGoal,
                    progress: ProgressFn | None = None) -> GripResult:
        """Close with force control; report width, force, object held."""

    async def release(self, goal: ReleaseGoal,
                      progress: ProgressFn | None = None) -> GripResult:
        """Open the gripper."""

    async def gripper_state(self) -> GripperState:
        """Return finger gap, grip force, what is held and slip since the grasp; nothing moves."""

    async def capture_image(self, camera: str, width: int,
                            height: int) -> Image:
        """Render or grab one camera image as PNG."""

    async def object_pose(self, name: str, frame: str) -> Pose:
        """Return the pose of a known object in ``frame``."""

    async def read_topic(self, binding: TopicBinding) -> dict[str, Any]:
        """Return the newest message of a declared topic as a dict."""

    async def call_service(self, binding: ServiceBinding,
                           request: Mapping[str, Any]) -> dict[str, Any]:
        """Call a declared service with a request dict; return the response."""

    async def send_action_goal(self, binding: ActionBinding,
                               goal: Mapping[str, Any],
                               progress: ProgressFn | None = None
                               ) -> dict[str, Any]:
        """Send a goal to a declared action; return status and result dict."""
