"""
Named frames of the simulated scene and rigid transforms between them.

A frame is ``world`` (identical to the arm's base link), a body or a site of the
model. Poses are ``(position, quaternion wxyz)`` numpy pairs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mcp_ros_bridge.backends.port import BackendError
from mcp_ros_bridge.messages import t
import mujoco
import numpy as np


WORLD = ('world', '')


def frame_names(model: mujoco.MjModel) -> list[str]:
    """Return every frame name the backend accepts."""
    names = {model.body(i).name for i in range(1, model.nbody)}
    names |= {model.site(i).name for i in range(model.nsite)}
    return sorted(n for n in names if n)


Getter = Callable[[mujoco.MjData], tuple[np.ndarray, np.ndarray]]


def frame_getter(model: mujoco.MjModel, name: str) -> Getter:
    """Resolve frame ``name`` once; return a function giving its world pose from an MjData."""
    if name in WORLD:
        return lambda data: (np.zeros(3), np.array([1.0, 0, 0, 0]))
    sid = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_SITE, name)
    if sid >= 0:
        def site(data: mujoco.MjData) -> tuple[np.ndarray, np.ndarray]:
            quat = np.empty(4)
            mujoco.mju_mat2Quat(quat, data.site_xmat[sid])
            return data.site_xpos[sid].copy(), quat
        return site
    bid = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY, name)
    if bid >= 0:
        return lambda data: (data.xpos[bid].copy(), data.xquat[bid].copy())
    base = model.body(model.body_rootid[model.jnt_bodyid[0]]).name  # the arm's root body
    raise BackendError('INVALID_GOAL', t('sim_unknown_frame', name=repr(name)),
                       advice=t('sim_unknown_frame_fix', base=base),
                       details={'known_frames': frame_names(model)})


def frame_in_world(model: mujoco.MjModel, data: mujoco.MjData,
                   name: str) -> tuple[np.ndarray, np.ndarray]:
    """Return the world pose of frame ``name`` from ``data``'s kinematics."""
    return frame_getter(model, name)(data)


def compose(a: tuple[np.ndarray, np.ndarray],
            b: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Return the pose ``a * b``."""
    pos = np.empty(3)
    quat = np.empty(4)
    mujoco.mju_mulPose(pos, quat, a[0], a[1], b[0], b[1])
    return pos, quat


def inverse(a: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Return the inverse of pose ``a``."""
    pos = np.empty(3)
    quat = np.empty(4)
    mujoco.mju_negPose(pos, quat, a[0], a[1])
    return pos, quat


def express(model: mujoco.MjModel, data: mujoco.MjData, world_pose: tuple[np.ndarray, np.ndarray],
            frame: str) -> tuple[np.ndarray, np.ndarray]:
    """Express a world pose in ``frame``."""
    return compose(inverse(frame_in_world(model, data, frame)), world_pose)


def to_world(model: mujoco.MjModel, data: mujoco.MjData,
             pose: tuple[Sequence[float], Sequence[float]],
             frame: str) -> tuple[np.ndarray, np.ndarray]:
    """Turn a pose given in ``frame`` into a world pose."""
    q = np.asarray(pose[1], dtype=float)
    n = np.linalg.norm(q)
    if not np.isfinite(n) or n < 1e-9:
        raise BackendError('INVALID_GOAL', t('sim_zero_quaternion'),
                           advice=t('sim_zero_quaternion_fix'))
    return compose(frame_in_world(model, data, frame), (np.asarray(pose[0], float), q / n))
