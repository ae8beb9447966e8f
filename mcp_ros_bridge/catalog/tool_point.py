"""
The tool-centre point init declares: where the fingertips meet, as ``ros.tcp``.

The approach axis is the last arm joint's axis (a wrist roll), pointing away
from the arm, at the zero posture. The TCP frame is the tip link's frame turned
(the shortest turn) so that its z is that axis, and moved along it by the
fingertips' reach: the simulated hand's (the Franka Hand's) beyond a flange, 0
where the tip already names a grasp frame. Both backends place the TCP by this
one declared transform, never by an implied one.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
import math
import re

from mcp_ros_bridge.catalog.arm_model import ArmModel
from mcp_ros_bridge.catalog.description import Joint, Urdf
import numpy as np
from transforms3d.axangles import axangle2mat
from transforms3d.euler import euler2mat, mat2euler

HAND_TCP_M = 0.1034  # the simulated hand's fingertip centre beyond its flange (m)
GRASP_FRAME = re.compile(r'tcp|gripper_frame|grasp_frame|_gripper$', re.IGNORECASE)


@dataclass(frozen=True)
class ToolPoint:
    """The TCP as robot.yaml declares it: a name, its parent link and the transform."""

    name: str
    parent_link: str
    offset_xyz: tuple[float, float, float]
    rpy: tuple[float, float, float]
    why: str  # the figure it came from

    def rolled(self, angle: float) -> ToolPoint:
        """Return this TCP turned by ``angle`` rad about its own z."""
        if not angle:
            return self
        turn = euler2mat(*self.rpy, 'sxyz') @ axangle2mat((0.0, 0.0, 1.0), angle)
        return replace(self, rpy=_clean(mat2euler(turn, 'sxyz')),
                       why=f'{self.why}; turned {math.degrees(angle):g} deg about z so the '
                       'wrist reaches fingers down')


def _origin(j: Joint) -> np.ndarray:
    step = np.eye(4)
    step[:3, :3] = euler2mat(*j.origin_rpy, 'sxyz')
    step[:3, 3] = j.origin_xyz
    return step


def _frames(urdf: Urdf, base: str, tip: str) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Return each chain joint's frame (at zero) and the tip link's frame, in the base frame."""
    pose, frames = np.eye(4), {}
    for j in urdf.chain(base, tip):
        pose = pose @ _origin(j)
        frames[j.name] = pose.copy()
    return frames, pose


def parent_link(urdf: Urdf, model: ArmModel) -> str:
    """Return the tip, or the last arm joint's link when a hand joint lies between them."""
    last = urdf.joint(model.joint_names[-1])
    if last is None or not any(j.movable for j in urdf.chain(last.child, model.tip_link)):
        return model.tip_link
    return last.child


def approach_axis(urdf: Urdf, model: ArmModel, link: str) -> np.ndarray:
    """Return the unit approach axis in ``link``'s frame (the last joint's, away)."""
    frames, tip = _frames(urdf, model.base_link, link)
    names = model.joint_names
    last = frames[names[-1]]
    joint = urdf.joint(names[-1])
    axis = last[:3, :3] @ np.asarray(joint.axis if joint else (0.0, 0.0, 1.0), float)
    axis /= np.linalg.norm(axis)
    away = tip[:3, 3] - frames[names[-2] if len(names) > 1 else names[-1]][:3, 3]
    if abs(float(axis @ away)) < 1e-6:
        away = tip[:3, 3] - last[:3, 3]
    axis = axis if float(axis @ away) >= 0 else -axis
    return np.asarray(tip[:3, :3].T @ axis)


def _turn_z_to(a: np.ndarray) -> np.ndarray:
    """Return the shortest rotation taking z onto the unit vector ``a``."""
    z = np.array([0.0, 0.0, 1.0])
    cross, dot = np.cross(z, a), float(z @ a)
    if np.linalg.norm(cross) < 1e-9:
        return np.eye(3) if dot > 0 else axangle2mat((1.0, 0.0, 0.0), math.pi)
    return np.asarray(axangle2mat(cross, math.atan2(float(np.linalg.norm(cross)), dot)))


def _clean(xs: np.ndarray | tuple[float, ...]) -> tuple[float, float, float]:
    x, y, z = (round(float(v), 6) + 0.0 for v in xs)  # + 0.0: no -0.0 written
    return x, y, z


def tool_point(urdf: Urdf, model: ArmModel) -> ToolPoint:
    """Return the TCP init declares for ``model``'s tip (see the module's text)."""
    parent = parent_link(urdf, model)
    axis = approach_axis(urdf, model, parent)
    turn = _turn_z_to(axis)
    grasp = parent == model.tip_link and bool(GRASP_FRAME.search(parent))
    reach = 0.0 if grasp else HAND_TCP_M
    names = set(urdf.links)
    name = 'tcp'  # short: the tool texts name it several times
    while name in names:
        name = f'{parent}_{name}'
    why = (f'the tip names a grasp frame; z turned onto the last joint axis {_clean(axis)}'
           if grasp else f'{reach} m along the last joint axis {_clean(axis)} (the simulated '
           'hand; CHECK: your tool)')
    return ToolPoint(name, parent, _clean(axis * reach),
                     _clean(mat2euler(turn, 'sxyz')), why)
