"""
A start posture init finds when the SRDF names none usable: fingers down, clear of the table.

The table top is the base frame's z = 0 plane (lower for an arm that hangs from a
torso: :func:`lowered_table`). A usable posture lies inside the
joint limits less their margin, with every joint of the chain but the first two
(which sit on the base) above the table by :data:`CLEAR_M`, the TCP by
:data:`TCP_CLEAR_M`. Init's
own one puts the TCP fingers down (its z straight down, its x along +x, the
tools' default orientation) above the middle of the arm's reach in front of the
base, found by damped least squares from the best of random postures (forward
kinematics of the URDF, numpy only).
"""

from __future__ import annotations

from collections.abc import Sequence
import math

from mcp_ros_bridge.catalog.arm_model import ArmModel
from mcp_ros_bridge.catalog.description import Joint, Urdf
from mcp_ros_bridge.catalog.tool_point import ToolPoint
import numpy as np
from transforms3d.axangles import axangle2mat
from transforms3d.euler import euler2mat

CLEAR_M = 0.05     # every joint but the base's two this far above the table
TCP_CLEAR_M = 0.01  # and the TCP this far
DOWN = np.array([0.0, 0.0, -1.0])
ALONG_X = np.array([1.0, 0.0, 0.0])
PICK_HEIGHT_M = 0.15  # a pick's start above a 50 mm object (0.12 m above its top)
# a small arm (SO-101) reaches fingers down only lower: the pick starts as high as it can
HEIGHTS_M = (PICK_HEIGHT_M, 0.12, 0.10, 0.08, 0.065)
ROLLS = (0.0, math.pi / 2, math.pi, -math.pi / 2)
SHOULDER_GAP_M = 0.5  # a hanging arm's table lies this far below its shoulder at least
TABLE_STEP_M, TABLE_STEPS = 0.2, 3  # and is lowered 0.2 m at a time, three planes


class Chain:
    """Forward kinematics of the arm's chain to the TCP in the base frame."""

    def __init__(self, urdf: Urdf, model: ArmModel, tool: ToolPoint,
                 table_z: float = 0.0) -> None:
        """Resolve the chain from the base link to the TCP's parent link once."""
        self.table_z = table_z  # the table top (base frame, m)
        self.joints: list[Joint] = urdf.chain(model.base_link, tool.parent_link)
        self.arm = {name: k for k, name in enumerate(model.joint_names)}
        self.tcp = np.eye(4)
        self.tcp[:3, :3] = euler2mat(*tool.rpy, 'sxyz')
        self.tcp[:3, 3] = tool.offset_xyz

    def frames(self, q: Sequence[float] | np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
        """Return each arm joint's origin (base frame) and the TCP's pose at ``q``."""
        pose, origins = np.eye(4), []
        for j in self.joints:
            step = np.eye(4)
            step[:3, :3] = euler2mat(*j.origin_rpy, 'sxyz')
            step[:3, 3] = j.origin_xyz
            pose = pose @ step
            k = self.arm.get(j.name)
            if k is not None:
                origins.append(pose[:3, 3].copy())
                move = np.eye(4)
                if j.kind == 'prismatic':
                    move[:3, 3] = np.multiply(j.axis, q[k])
                else:
                    move[:3, :3] = axangle2mat(j.axis, q[k])
                pose = pose @ move
        return origins, pose @ self.tcp


def clear(chain: Chain, q: Sequence[float] | np.ndarray) -> bool:
    """Return True when the chain past its first two joints and the TCP are above the table."""
    origins, tcp = chain.frames(q)
    top = chain.table_z
    return all(p[2] >= top + CLEAR_M for p in origins[2:]) and tcp[2, 3] >= top + TCP_CLEAR_M


def _error(chain: Chain, q: np.ndarray, goal: np.ndarray, full: bool) -> np.ndarray:
    """Return the position and direction errors: the TCP's z down (``full``: its x along +x)."""
    tcp = chain.frames(q)[1]
    turns = [DOWN - tcp[:3, 2], ALONG_X - tcp[:3, 0]][:2 if full else 1]
    return np.concatenate([goal - tcp[:3, 3], *(0.3 * t for t in turns)])


def _solve(chain: Chain, q: np.ndarray, goal: np.ndarray, lo: np.ndarray, hi: np.ndarray,
           full: bool) -> np.ndarray:
    """Return ``q`` moved by damped least squares toward the TCP at ``goal``, fingers down."""
    for _ in range(60):
        e = _error(chain, q, goal, full)
        if float(e @ e) < 1e-8:
            break
        jac = np.empty((len(e), len(q)))
        for k in range(len(q)):
            dq = q.copy()
            dq[k] += 1e-6
            jac[:, k] = (e - _error(chain, dq, goal, full)) / 1e-6
        q = np.clip(q + jac.T @ np.linalg.solve(jac @ jac.T + 1e-4 * np.eye(len(e)), e), lo, hi)
    return q


def work_point(chain: Chain, lo: Sequence[float], hi: Sequence[float], low: bool = False,
               seed: int = 0, samples: int = 600, height: float = PICK_HEIGHT_M
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """
    Return the middle of the reach in front of the base, random postures and their TCPs.

    The point is ``height`` above the table when ``low``, else 0.3 of the reach (at
    least ``height``).
    """
    rng = np.random.default_rng(seed)  # seeds within one turn: no wound-up wrist or elbow
    rows = rng.uniform(np.maximum(lo, -math.pi), np.minimum(hi, math.pi), (samples, len(lo)))
    tips = np.array([chain.frames(q)[1][:3, 3] for q in rows])
    reach = float(np.max(np.hypot(tips[:, 0], tips[:, 1])))
    z = height if low else max(height, 0.3 * reach)
    return np.array([0.5 * reach, 0.0, chain.table_z + z]), rows, tips


def fingers_down(chain: Chain, lo: Sequence[float], hi: Sequence[float], goal: np.ndarray,
                 seeds: tuple[np.ndarray, np.ndarray], full: bool) -> np.ndarray | None:
    """Return the least turned posture clear of the table with the TCP at ``goal``, if any."""
    rows, tips = seeds
    low, high = np.asarray(lo, float), np.asarray(hi, float)
    found = []
    for q in rows[np.argsort(np.linalg.norm(tips - goal, axis=1))[:12]]:
        q = _solve(chain, q, goal, low, high, full)
        e = _error(chain, q, goal, full)
        if float(np.linalg.norm(e[:3])) < 1e-3 and float(np.linalg.norm(e[3:])) < 3e-3 \
                and clear(chain, q):
            found.append(q)
    return min(found, key=lambda q: float(np.abs(q).max())) if found else None


def found_home(chain: Chain, lo: Sequence[float], hi: Sequence[float]
               ) -> tuple[list[float], str] | None:
    """Return a posture fingers down above the middle of the reach, clear of the table."""
    for low, height in ((False, PICK_HEIGHT_M), *((True, h) for h in HEIGHTS_M)):
        goal, rows, tips = work_point(chain, lo, hi, low, height=height)
        q = fingers_down(chain, lo, hi, goal, (rows, tips), full=True)
        if q is not None:
            break
    else:
        return None
    where = ', '.join(f'{v:.3f}' for v in goal)
    return ([round(float(v), 4) for v in q],
            f'found by init: fingers down at [{where}] m (CHECK: a safe start posture)')


def fitted_roll(urdf: Urdf, model: ArmModel, tool: ToolPoint, lo: Sequence[float],
                hi: Sequence[float]) -> ToolPoint:
    """
    Return ``tool`` turned about its z by the first quarter turn that reaches fingers down.

    Fingers down means the tools' default orientation (the TCP's x along the base's
    +x) at the middle of the reach, as high as a pick starts (lower for a small arm:
    :data:`HEIGHTS_M`); a wrist with a short roll range reaches it at one turn of the
    TCP frame only. No turn reaches: ``tool`` unchanged.
    """
    for height in HEIGHTS_M:
        for roll in ROLLS:
            turned = tool.rolled(roll)
            chain = Chain(urdf, model, turned)
            goal, rows, tips = work_point(chain, lo, hi, low=True, height=height)
            if fingers_down(chain, lo, hi, goal, (rows, tips), full=True) is not None:
                return turned
    return tool


def lowered_table(urdf: Urdf, model: ArmModel, tool: ToolPoint, lo: Sequence[float],
                  hi: Sequence[float]) -> tuple[float, ToolPoint] | None:
    """
    Return a table top below the base plane where a home is found, and the TCP turned so.

    For an arm hanging from a torso (no fingers-down posture clear of its base
    plane): the first plane :data:`SHOULDER_GAP_M` below the shoulder (the first two
    joints, whose links hang there whatever the posture), then
    :data:`TABLE_STEP_M` lower at a time, where a fingers-down home is found.
    """
    zero = Chain(urdf, model, tool).frames(np.clip(np.zeros(len(lo)), lo, hi))[0]
    shoulder = min(float(p[2]) for p in zero[:2])
    for k in range(TABLE_STEPS):
        table = round(math.floor((shoulder - SHOULDER_GAP_M) * 10) / 10 - k * TABLE_STEP_M, 3)
        for roll in ROLLS:
            turned = tool.rolled(roll)
            chain = Chain(urdf, model, turned, table)
            goal, rows, tips = work_point(chain, lo, hi)
            if fingers_down(chain, lo, hi, goal, (rows, tips), full=True) is not None:
                return table, turned
    return None


def down_ceiling(chain: Chain, lo: Sequence[float], hi: Sequence[float]
                 ) -> tuple[float, np.ndarray] | None:
    """Return the highest of :data:`HEIGHTS_M` reached fingers down mid-reach, and where."""
    for height in HEIGHTS_M:
        goal, rows, tips = work_point(chain, lo, hi, low=True, height=height)
        if fingers_down(chain, lo, hi, goal, (rows, tips), full=True) is not None:
            return height, goal
    return None
