"""
Forward and inverse kinematics and collision queries on a scratch MjData.

The IK is damped least squares on the site Jacobian with joint-limit clamping
and random restarts. Collision queries run ``mj_collision`` on a private copy
of the model whose geom margins are widened, so near misses are seen too.
"""

from __future__ import annotations

from dataclasses import dataclass

import mujoco
import numpy as np

from .sim_robot import PANDA, SimRobot

_MARGIN = 0.02


def quat_error(target: np.ndarray, current: np.ndarray) -> np.ndarray:
    """Return the world-frame rotation vector taking ``current`` to ``target`` (wxyz)."""
    neg = np.empty(4)
    mujoco.mju_negQuat(neg, current)
    dq = np.empty(4)
    mujoco.mju_mulQuat(dq, target, neg)
    if dq[0] < 0:
        dq = -dq
    out = np.empty(3)
    mujoco.mju_quat2Vel(out, dq, 1.0)
    return out


@dataclass
class Collision:
    """One pair of geoms closer than the requested clearance."""

    geom1: str
    geom2: str
    distance: float


class Kinematics:
    """Kinematic queries for the arm; one instance per thread."""

    def __init__(self, model: mujoco.MjModel, arm_qpos: np.ndarray, arm_dof: np.ndarray,
                 margin_rad: float | np.ndarray = 0.0,
                 robot: SimRobot = PANDA) -> None:
        """Use ``model`` (of ``robot``) for kinematics and a margin-widened copy for collisions."""
        self.m = model
        self.d = mujoco.MjData(model)
        self.cm = robot.build_model()
        self.cm.geom_margin[:] = _MARGIN
        self.cd = mujoco.MjData(self.cm)
        self.qadr, self.dadr = arm_qpos, arm_dof
        self.lo = np.array(robot.q_min) + margin_rad
        self.hi = np.array(robot.q_max) - margin_rad
        self.tcp = model.site(robot.tcp).id
        self._jp = np.zeros((3, model.nv))
        self._jr = np.zeros((3, model.nv))
        names = [model.body(b).name for b in range(model.nbody)]
        self._arm_bodies = {model.body(n).id for n in robot.arm_links}
        self._hand_bodies = {model.body(n).id for n in robot.hand_bodies}
        self._objects = {model.body(n).id for n in robot.objects}
        self.body_names = names
        self.held = -1

    def set_state(self, qpos: np.ndarray, held: int = -1) -> None:
        """
        Copy a full qpos (objects, fingers) into the scratch data.

        ``held`` is the body id of an object in the hand: collision queries
        then carry it with the TCP and ignore its contacts.
        """
        self.d.qpos[:] = qpos
        self.cd.qpos[:] = qpos
        self.held = held if held in self._objects else -1
        if self.held >= 0:
            mujoco.mj_kinematics(self.cm, self.cd)
            tcp = (self.cd.site_xpos[self.tcp].copy(), _quat(self.cd.site_xmat[self.tcp]))
            obj = (self.cd.xpos[self.held].copy(), self.cd.xquat[self.held].copy())
            pos, quat = np.empty(3), np.empty(4)
            mujoco.mju_negPose(pos, quat, *tcp)
            self._grip = (np.empty(3), np.empty(4))
            mujoco.mju_mulPose(*self._grip, pos, quat, *obj)
            self._held_adr = self.cm.jnt_qposadr[self.cm.body_jntadr[self.held]]

    def fk(self, q: np.ndarray, site: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Return position and quaternion (wxyz) of ``site`` (default TCP) at ``q``."""
        self.d.qpos[self.qadr] = q
        mujoco.mj_kinematics(self.m, self.d)
        sid = self.tcp if site is None else site
        quat = np.empty(4)
        mujoco.mju_mat2Quat(quat, self.d.site_xmat[sid])
        return self.d.site_xpos[sid].copy(), quat

    def ik(self, pos: np.ndarray, quat: np.ndarray, seed: np.ndarray, *,
           iters: int = 150, tol_p: float = 1e-5, tol_r: float = 1e-4,
           max_step: float = 0.25) -> tuple[np.ndarray, float, float]:
        """Solve from ``seed``; return (q, position error m, orientation error rad)."""
        q = np.clip(np.asarray(seed, dtype=float), self.lo, self.hi)
        m, d, lam2 = self.m, self.d, 1e-4
        ep, er = np.inf, np.inf
        for _ in range(iters):
            d.qpos[self.qadr] = q
            mujoco.mj_kinematics(m, d)
            mujoco.mj_comPos(m, d)
            cur = np.empty(4)
            mujoco.mju_mat2Quat(cur, d.site_xmat[self.tcp])
            e = np.concatenate([pos - d.site_xpos[self.tcp], quat_error(quat, cur)])
            ep, er = float(np.linalg.norm(e[:3])), float(np.linalg.norm(e[3:]))
            if ep < tol_p and er < tol_r:
                break
            mujoco.mj_jacSite(m, d, self._jp, self._jr, self.tcp)
            jac = np.vstack([self._jp[:, self.dadr], self._jr[:, self.dadr]])
            dq = jac.T @ np.linalg.solve(jac @ jac.T + lam2 * np.eye(6), e)
            norm = np.abs(dq).max()
            if norm > max_step:
                dq *= max_step / norm
            q = np.clip(q + dq, self.lo, self.hi)
        return q, ep, er

    def solve(self, pos: np.ndarray, quat: np.ndarray, seed: np.ndarray,
              rng: np.random.Generator, attempts: int, tol_p: float, tol_r: float,
              clearance: float = 0.0) -> tuple[np.ndarray | None, list[Collision]]:
        """
        Find a collision-free IK solution, trying ``seed`` then random restarts.

        Return ``(q, [])`` on success, ``(None, collisions)`` when solutions
        exist but all collide, and ``(None, [])`` when none converged.
        """
        hits: list[Collision] = []
        for k in range(attempts):
            start = seed if k == 0 else rng.uniform(self.lo, self.hi)
            q, ep, er = self.ik(pos, quat, start)
            if ep > tol_p or er > tol_r:
                continue
            found = self.collisions(q, clearance)
            if not found:
                return q, []
            hits = hits or found
        return None, hits

    def collisions(self, q: np.ndarray, clearance: float = 0.0,
                   ignore_hand_objects: bool = True) -> list[Collision]:
        """
        Return robot contacts closer than ``clearance`` with the arm at ``q``.

        Hand and fingers may touch the graspable objects (that is how they are
        grasped) unless ``ignore_hand_objects`` is False or an object is
        already held (then touching another one is a collision).
        """
        m, d = self.cm, self.cd
        d.qpos[self.qadr] = q
        mujoco.mj_kinematics(m, d)
        if self.held >= 0:  # the held object moves with the hand
            a = self._held_adr
            tcp = (d.site_xpos[self.tcp].copy(), _quat(d.site_xmat[self.tcp]))
            mujoco.mju_mulPose(d.qpos[a:a + 3], d.qpos[a + 3:a + 7], *tcp, *self._grip)
            mujoco.mj_kinematics(m, d)
        mujoco.mj_collision(m, d)
        out = []
        for i in range(d.ncon):
            c = d.contact[i]
            if c.dist >= clearance:
                continue
            b1, b2 = m.geom_bodyid[c.geom[0]], m.geom_bodyid[c.geom[1]]
            if self.held in (b1, b2):
                continue
            robot = self._arm_bodies | self._hand_bodies
            if b1 not in robot and b2 not in robot:
                continue
            other = b2 if b1 in robot else b1
            mine = b1 if b1 in robot else b2
            if (ignore_hand_objects and self.held < 0 and other in self._objects
                    and mine in self._hand_bodies):
                continue
            out.append(Collision(_geom_name(m, c.geom[0]), _geom_name(m, c.geom[1]),
                                 float(c.dist)))
        return out


def _quat(mat: np.ndarray) -> np.ndarray:
    quat = np.empty(4)
    mujoco.mju_mat2Quat(quat, mat)
    return quat


def _geom_name(m: mujoco.MjModel, g: int) -> str:
    name = m.geom(g).name
    return name or f'{m.body(m.geom_bodyid[g]).name}/geom{g}'
