"""
Forward kinematics of the tool tip on a scratch ``MjData``, for path checks.

Used for the port's ``tip_poses``, for checking a planned trajectory at its
full resolution before it runs, and for single samples while it runs.
"""

from __future__ import annotations

from collections.abc import Sequence
import threading

from mcp_ros_bridge.backends.port import PathCheck, Pose
import mujoco
import numpy as np

from .frames import compose, frame_getter, inverse
from .trajectory import Trajectory


class TipFrame:
    """The pose of frame ``tip`` in frame ``base`` from an MjData's kinematics."""

    def __init__(self, model: mujoco.MjModel, tip: str, base: str) -> None:
        """Resolve both frames once (they are looked up for every trajectory sample)."""
        self.tip, self.base = frame_getter(model, tip), frame_getter(model, base)
        self.base_name = base

    def __call__(self, data: mujoco.MjData) -> Pose:
        """Return the tip pose in the base frame."""
        pos, quat = compose(inverse(self.base(data)), self.tip(data))
        return Pose((float(pos[0]), float(pos[1]), float(pos[2])),
                    (float(quat[0]), float(quat[1]), float(quat[2]), float(quat[3])),
                    self.base_name)


def _quat_mul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Return the Hamilton products of rows of wxyz quaternions ``a * b``."""
    aw, ax, ay, az = a.T
    bw, bx, by, bz = b.T
    return np.stack([aw * bw - ax * bx - ay * by - az * bz, aw * bx + ax * bw + ay * bz - az * by,
                     aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw],
                    axis=1)


def _rotate_back(q: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Return the rows of ``v`` rotated by the inverse of the unit quaternions ``q``."""
    u = -q[:, 1:]
    c = np.cross(u, v)
    return v + 2.0 * q[:, :1] * c + 2.0 * np.cross(u, c)


def _as_mat2quat(q: np.ndarray) -> np.ndarray:
    """Give unit quaternions the sign MuJoCo's mat2Quat gives the same rotation."""
    _, x, y, z = (q * q).T
    d0, d1, d2 = 1 - 2 * (y + z), 1 - 2 * (x + z), 1 - 2 * (x + y)  # the matrix's diagonal
    lead = np.where(d0 + d1 + d2 > 0, 0,  # the component mat2Quat takes positive
                    np.where((d0 > d1) & (d0 > d2), 1, np.where(d1 > d2, 2, 3)))
    sign = np.where(q[np.arange(len(q)), lead] < 0, -1.0, 1.0)
    out: np.ndarray = q * sign[:, None]
    return out


class _Rows:
    """Where a frame's world pose is in an ``MjData`` after kinematics (world: nowhere)."""

    def __init__(self, model: mujoco.MjModel, data: mujoco.MjData, name: str) -> None:
        """Resolve frame ``name`` (a site, a body or the world) once."""
        frame_getter(model, name)  # refuses an unknown name as every frame lookup does
        sid = -1 if name in ('world', '') else mujoco.mj_name2id(
            model, mujoco.mjtObj.mjOBJ_SITE, name)
        self.world = name in ('world', '')
        self.site = sid >= 0
        if self.site:
            self.row, self.body = sid, int(model.site_bodyid[sid])
            self.offset = np.asarray(model.site_quat[sid], dtype=float).copy()
            self.xpos = data.site_xpos
        else:
            bid = 0 if self.world else mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY, name)
            self.row = self.body = bid
            self.xpos = data.xpos
        self.xquat = data.xquat

    def world_quats(self, body_quats: np.ndarray) -> np.ndarray:
        """Return the frame's world orientations from its body's."""
        if not self.site:
            return body_quats
        q = _quat_mul(body_quats, np.broadcast_to(self.offset, body_quats.shape))
        return _as_mat2quat(q / np.linalg.norm(q, axis=1, keepdims=True))


class TipKinematics:
    """Tip poses for rows of arm joint positions (thread-safe)."""

    def __init__(self, model: mujoco.MjModel, arm_qpos: np.ndarray, tip: str,
                 base: str) -> None:
        """Use a private ``MjData`` of ``model``; ``tip`` and ``base`` are frame names."""
        self.model, self.data = model, mujoco.MjData(model)
        self.arm_qpos, self.frame = arm_qpos, TipFrame(model, tip, base)
        self._tip, self._base = _Rows(model, self.data, tip), _Rows(model, self.data, base)
        self.lock = threading.Lock()

    def poses(self, rows: Sequence[Sequence[float]] | np.ndarray) -> list[Pose]:
        """Return the tip pose in the base frame for each row of arm joint positions."""
        rows = np.asarray(rows, dtype=float).reshape(-1, len(self.arm_qpos))
        n, tip, base = len(rows), self._tip, self._base
        tp, tq, bp, bq = np.empty((n, 3)), np.empty((n, 4)), np.zeros((n, 3)), np.zeros((n, 4))
        bq[:, 0] = 1.0
        model, data, qpos, arm = self.model, self.data, self.data.qpos, self.arm_qpos
        with self.lock:  # kinematics per row in C; the rest over all rows at once
            for i, q in enumerate(rows):
                qpos[arm] = q
                mujoco.mj_kinematics(model, data)
                tp[i], tq[i] = tip.xpos[tip.row], tip.xquat[tip.body]
                if not base.world:
                    bp[i], bq[i] = base.xpos[base.row], base.xquat[base.body]
        bq = base.world_quats(bq)
        pos = _rotate_back(bq, tp - bp).tolist()
        conj = bq * np.array([1.0, -1.0, -1.0, -1.0])
        quat = _quat_mul(conj, tip.world_quats(tq)).tolist()
        name = self.frame.base_name
        return [Pose((p[0], p[1], p[2]), (o[0], o[1], o[2], o[3]), name)
                for p, o in zip(pos, quat)]

    def check(self, traj: Trajectory, path_check: PathCheck | None) -> Trajectory:
        """Run ``path_check`` on every sample of ``traj``; return it when it passes."""
        if path_check is not None:
            path_check(self.poses(traj.q), [k * traj.dt for k in range(len(traj.q))])
        return traj
