"""
Forward kinematics of the arm from its URDF, as MoveIt computes it: no round trip per sample.

Each joint places its child link at its origin (``xyz``, then roll-pitch-yaw about
the fixed axes) and then moves it about or along its axis, normalised, as MoveIt's
revolute, continuous and prismatic joint models do. The pose of ``link`` in
``frame`` is computed from their nearest common ancestor, so joints above both
(a mobile base, a world joint) cancel. A path that crosses a joint the arm does
not drive (a mimic, a floating or planar joint, a movable joint outside the arm
joints, a zero axis) or names a link the URDF lacks has no answer here
(``None``): the caller asks MoveIt. Rows of many states are computed at once.
Pure numpy; no ROS import.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mcp_ros_bridge.catalog.description import DescriptionError, Joint, Urdf
import numpy as np
from transforms3d.euler import euler2mat


@dataclass(frozen=True)
class _Step:
    """One joint of a path: its fixed origin, then its motion by arm joint ``column``."""

    origin: np.ndarray  # 4x4
    kind: str           # 'fixed' | 'revolute' | 'prismatic'
    axis: np.ndarray    # unit vector in the child frame
    column: int         # the arm joint's index in a row (-1 when fixed)


_Path = tuple[tuple[_Step, ...], tuple[_Step, ...]]  # (common ancestor -> frame, -> link)


class UrdfKinematics:
    """FK of a URDF tree for rows of arm joint values (``arm_joints`` order)."""

    def __init__(self, urdf: Urdf, arm_joints: Sequence[str]) -> None:
        """Compute poses of ``urdf``'s links for rows of ``arm_joints`` values."""
        self.urdf = urdf
        self._column = {name: k for k, name in enumerate(arm_joints)}
        self._paths: dict[tuple[str, str], _Path | None] = {}

    def _step(self, joint: Joint) -> _Step | None:
        origin = np.eye(4)
        origin[:3, :3] = euler2mat(*joint.origin_rpy, 'sxyz')
        origin[:3, 3] = joint.origin_xyz
        if joint.kind == 'fixed':
            return _Step(origin, 'fixed', np.zeros(3), -1)
        axis = np.asarray(joint.axis, dtype=float)
        norm = float(np.linalg.norm(axis))
        column = self._column.get(joint.name)
        if joint.mimic or column is None or norm < 1e-12 or joint.kind not in (
                'revolute', 'continuous', 'prismatic'):
            return None  # a state MoveIt holds and this row does not
        kind = 'prismatic' if joint.kind == 'prismatic' else 'revolute'
        return _Step(origin, kind, axis / norm, column)

    def _path(self, frame: str, link: str) -> _Path | None:
        key = (frame, link)
        if key not in self._paths:
            self._paths[key] = self._build(frame, link)
        return self._paths[key]

    def _build(self, frame: str, link: str) -> _Path | None:
        try:
            to_frame = self.urdf.chain(self.urdf.root, frame)
            to_link = self.urdf.chain(self.urdf.root, link)
        except DescriptionError:
            return None  # a frame MoveIt may know (TF, an attached body) and the URDF not
        shared = 0
        while (shared < min(len(to_frame), len(to_link))
               and to_frame[shared].name == to_link[shared].name):
            shared += 1
        paths = []
        for joints in (to_frame[shared:], to_link[shared:]):
            steps = [self._step(j) for j in joints]
            if any(s is None for s in steps):
                return None
            paths.append(tuple(s for s in steps if s is not None))
        return paths[0], paths[1]

    def transforms(self, frame: str, link: str,
                   rows: Sequence[Sequence[float]]) -> np.ndarray | None:
        """Return the (N, 4, 4) poses of ``link`` in ``frame`` per row, or None (no answer)."""
        path = self._path(frame, link)
        if path is None:
            return None
        q = np.asarray(rows, dtype=float).reshape(len(rows), len(self._column))
        frame_t, link_t = (_compose(steps, q) for steps in path)
        rot_t = np.transpose(frame_t[:, :3, :3], (0, 2, 1))  # the rigid inverse of frame_t
        out = np.empty_like(link_t)
        out[:, :3, :3] = rot_t @ link_t[:, :3, :3]
        out[:, :3, 3] = np.einsum('nij,nj->ni', rot_t, link_t[:, :3, 3] - frame_t[:, :3, 3])
        out[:, 3] = (0.0, 0.0, 0.0, 1.0)
        return out


def _compose(steps: Sequence[_Step], q: np.ndarray) -> np.ndarray:
    """Return the (N, 4, 4) product of ``steps`` for the N rows of ``q``."""
    out = np.tile(np.eye(4), (len(q), 1, 1))
    for step in steps:
        out = out @ step.origin
        if step.kind == 'revolute':
            out[:, :3, :3] = out[:, :3, :3] @ _rotations(step.axis, q[:, step.column])
        elif step.kind == 'prismatic':
            out[:, :3, 3] += out[:, :3, :3] @ step.axis * q[:, step.column, None]
    return out


def _rotations(axis: np.ndarray, angles: np.ndarray) -> np.ndarray:
    """Return (N, 3, 3) rotations by ``angles`` about the unit ``axis`` (Rodrigues)."""
    x, y, z = axis
    k = np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])
    c, s = np.cos(angles)[:, None, None], np.sin(angles)[:, None, None]
    out: np.ndarray = c * np.eye(3) + s * k + (1.0 - c) * np.outer(axis, axis)
    return out
