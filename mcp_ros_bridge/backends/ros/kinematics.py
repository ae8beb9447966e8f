"""
Poses of links on ROS: from the robot's URDF here, from MoveIt's compute_fk where it cannot answer.

The plan check needs the tip pose of every sample; one compute_fk request per
sample costs a round trip each. The URDF MoveIt loaded (the ``robot_description``
topic, transient local: :meth:`Kinematics.take_description`) or, until it has
arrived, robot.yaml's ``description.urdf`` answers here instead
(:mod:`.local_fk`), with the TCP offset applied as on the compute_fk path
(:mod:`.tcp`). A model is trusted once it agreed with compute_fk on one state
(within :data:`AGREE`); one that disagrees is dropped, said once in the log, and
compute_fk answers from then on. Without a model, for a link or frame the URDF
lacks, or a path through a joint the arm does not drive, compute_fk answers; a
link it answered INVALID_LINK_NAME for is refused the same way without asking
again (MoveIt's robot model is fixed while it runs) until a new description.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
import logging
import math

from mcp_ros_bridge.backends.port import BackendError, Pose
from mcp_ros_bridge.backends.ros import tcp
from mcp_ros_bridge.backends.ros.local_fk import UrdfKinematics
from mcp_ros_bridge.catalog.description import DescriptionError, MAX_CHARS, parse_urdf
from mcp_ros_bridge.catalog.robot import RobotConfig
from transforms3d.quaternions import mat2quat

FK_CONCURRENCY = 8  # compute_fk requests in flight at once for a whole trajectory
AGREE = 1e-6  # m and rad: a model further from MoveIt's answer than this is not used
ServiceFk = Callable[[str, str, list[str], list[float]], Awaitable[Pose]]
_log = logging.getLogger(__name__)


class Kinematics:
    """The FK the ROS backend asks: the local model when it can answer, else ``service``."""

    def __init__(self, config: RobotConfig, service: ServiceFk) -> None:
        """Answer for ``config``'s arm; ``service(frame, link, names, positions)``: compute_fk."""
        self.config, self._service = config, service
        self._model: UrdfKinematics | None = None
        self._trusted = False
        self._unknown: dict[str, BackendError] = {}  # links compute_fk named unknown
        self.source = ''  # where the model came from: the topic, the file, or '' (none)
        self.reconfigure(config)

    def reconfigure(self, config: RobotConfig) -> None:
        """Use ``config``; a model from its ``description.urdf`` unless the topic gave one."""
        self.config = config
        path = config.description.get('urdf', '')
        if self.source != 'topic':
            self._use(_read_urdf(path, config.arm_joints), 'file')

    def take_description(self, text: str) -> None:
        """Use the URDF text of the ``robot_description`` topic (any thread)."""
        try:
            urdf = parse_urdf(text, 'robot_description')
        except DescriptionError as exc:
            _log.warning('robot_description is no usable URDF (%s): compute_fk answers', exc)
            return
        self._use(UrdfKinematics(urdf, self.config.arm_joints), 'topic')

    def _use(self, model: UrdfKinematics | None, source: str) -> None:
        self._model, self._trusted, self.source = model, False, source if model else ''
        self._unknown = {}  # a new description may name them

    async def _ask(self, frame: str, link: str, names: list[str],
                   positions: list[float]) -> Pose:
        """Return compute_fk's answer; a link it named unknown is not asked again."""
        asked = tcp.moveit_link(self.config, link)
        known = self._unknown.get(asked)
        if known is not None:
            raise BackendError.of(known.failure)
        try:
            return await self._service(frame, link, names, positions)
        except BackendError as err:
            if err.code == 'INVALID_LINK_NAME':
                self._unknown[asked] = err
            raise

    @property
    def model(self) -> UrdfKinematics | None:
        """Return the model in use (trusted or still to be compared), or None."""
        return self._model

    def local(self, frame: str, link: str, rows: Sequence[Sequence[float]],
              stamp: float = 0.0) -> list[Pose] | None:
        """Return the poses the model gives for arm joint rows, or None (it cannot answer)."""
        model, config = self._model, self.config
        frame = frame or config.base_frame
        if model is None or not rows:
            return None
        found = model.transforms(frame, tcp.moveit_link(config, link), rows)
        if found is None:
            return None
        return [tcp.from_parent(config, link, Pose(
            (float(m[0, 3]), float(m[1, 3]), float(m[2, 3])),
            tuple(float(v) for v in mat2quat(m[:3, :3])),  # type: ignore[arg-type]
            frame, stamp)) for m in found]

    def compare(self, frame: str, link: str, row: Sequence[float], moveit: Pose) -> bool:
        """Trust the model when it agrees with MoveIt's pose for ``row``; drop it if not."""
        model, mine = self._model, self.local(frame, link, [row])
        return mine is not None and self._agrees(model, link, mine[0], moveit)

    def _agrees(self, model: UrdfKinematics | None, link: str, mine: Pose,
                moveit: Pose) -> bool:
        error_m = math.dist(mine.position, moveit.position)
        error_rad = turn_between(mine.orientation, moveit.orientation)
        agrees = error_m <= AGREE and error_rad <= AGREE
        if model is not None and model is self._model:
            if agrees:
                self._trusted = True
            else:
                _log.warning('the %s URDF differs from MoveIt at %s (%.3g m, %.3g rad): '
                             'compute_fk answers every pose', self.source,
                             tcp.moveit_link(self.config, link), error_m, error_rad)
                self._use(None, '')
        return agrees

    async def _fk(self, frame: str, link: str, row: Sequence[float]) -> Pose:
        return await self._ask(frame, link, list(self.config.arm_joints), list(row))

    async def poses(self, frame: str, link: str, rows: Sequence[Sequence[float]],
                    stamp: float = 0.0) -> list[Pose]:
        """
        Return the pose of ``link`` in ``frame`` per row of arm joints (in robot.yaml order).

        A model not yet trusted is compared with compute_fk on the first row first.
        """
        model, local = self._model, self.local(frame, link, rows, stamp)
        if local is not None and not self._trusted:
            moveit = await self._fk(frame, link, rows[0])
            if not self._agrees(model, link, local[0], moveit):
                local = None
        if local is not None:
            return local
        gate = asyncio.Semaphore(FK_CONCURRENCY)

        async def one(row: Sequence[float]) -> Pose:
            async with gate:
                return await self._fk(frame, link, row)
        return list(await asyncio.gather(*(one(r) for r in rows)))

    async def pose(self, frame: str, link: str, names: Sequence[str],
                   positions: Sequence[float], stamp: float = 0.0) -> Pose:
        """Return the pose of ``link`` in ``frame`` for measured joints (names, positions)."""
        values = dict(zip(names, positions))
        if not all(n in values for n in self.config.arm_joints):
            return await self._ask(frame, link, list(names), list(positions))
        row = [values[n] for n in self.config.arm_joints]
        return (await self.poses(frame, link, [row], stamp))[0]


def turn_between(a: Sequence[float], b: Sequence[float]) -> float:
    """Return the rotation angle (rad) between unit quaternions, exact near 0 (chord form)."""
    sign = 1.0 if sum(x * y for x, y in zip(a, b)) >= 0 else -1.0
    chord = math.sqrt(sum((x - sign * y) ** 2 for x, y in zip(a, b)))
    return 4.0 * math.asin(min(1.0, chord / 2.0))


def _read_urdf(path: str, arm_joints: Sequence[str]) -> UrdfKinematics | None:
    """Return the model of the URDF file at ``path`` (checked when the catalog loaded)."""
    if not path:
        return None
    try:
        with open(path, encoding='utf-8') as f:
            return UrdfKinematics(parse_urdf(f.read(MAX_CHARS + 1), path), arm_joints)
    except (OSError, DescriptionError) as exc:
        _log.warning('description.urdf %s is not usable (%s): compute_fk answers', path, exc)
        return None
