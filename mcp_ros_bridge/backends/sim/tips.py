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


class TipKinematics:
    """Tip poses for rows of arm joint positions (thread-safe)."""

    def __init__(self, model: mujoco.MjModel, arm_qpos: np.ndarray, tip: str,
                 base: str) -> None:
        """Use a private ``MjData`` of ``model``; ``tip`` and ``base`` are frame names."""
        self.model, self.data = model, mujoco.MjData(model)
        self.arm_qpos, self.frame = arm_qpos, TipFrame(model, tip, base)
        self.lock = threading.Lock()

    def poses(self, rows: Sequence[Sequence[float]] | np.ndarray) -> list[Pose]:
        """Return the tip pose in the base frame for each row of arm joint positions."""
        rows = np.asarray(rows, dtype=float).reshape(-1, len(self.arm_qpos))
        out = []
        with self.lock:
            for q in rows:
                self.data.qpos[self.arm_qpos] = q
                mujoco.mj_kinematics(self.model, self.data)
                out.append(self.frame(self.data))
        return out

    def check(self, traj: Trajectory, path_check: PathCheck | None) -> Trajectory:
        """Run ``path_check`` on every sample of ``traj``; return it when it passes."""
        if path_check is not None:
            path_check(self.poses(traj.q), [k * traj.dt for k in range(len(traj.q))])
        return traj
