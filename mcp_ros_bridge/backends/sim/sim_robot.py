"""
The simulated robot's facts: which joints, bodies, sites and limits the sim modules drive.

The hand-written Panda (:mod:`.mjcf`) is :data:`PANDA`, the default; an arm built
from its URDF (:mod:`.urdf_world`) gets its own :class:`SimRobot`. Actuators
follow one naming rule: ``<joint>_pos``, ``<joint>_vel`` and ``<joint>_ff`` (the
feed-forward) per arm joint, and one actuator per finger named after its joint.
Each object ``<name>`` has a body, a geom and an inactive hand-object weld
``grip_<name>``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from mcp_ros_bridge.backends.port import BackendError
from mcp_ros_bridge.catalog.robot import RobotConfig
from mcp_ros_bridge.messages import t
import mujoco

from . import mjcf


@dataclass(frozen=True)
class SimRobot:
    """One simulated arm and gripper: names, limits and how to compile its world."""

    name: str
    summary: str                    # what the backend says it simulates
    build_model: Callable[[], mujoco.MjModel]  # a fresh model of the whole scene, each call
    arm_joints: tuple[str, ...]     # chain order, base to tip
    q_min: tuple[float, ...]
    q_max: tuple[float, ...]
    dq_max: tuple[float, ...]       # rad/s
    ddq_max: tuple[float, ...]      # rad/s^2
    arm_links: tuple[str, ...]      # the arm's bodies, base included
    hand_bodies: tuple[str, ...]    # the bodies below the F/T sensor, fingers included
    hand_body: str                  # the body the fingers slide in and objects weld to
    finger_joints: tuple[str, str]
    finger_bodies: tuple[str, str]
    finger_max: float               # m of travel per finger
    finger_force_max: float         # N per finger
    finger_kp: float
    finger_kv: float
    tcp: str                        # the site motions command (fingertip centre)
    ft_site: str                    # the F/T sensor site between flange and hand
    rigid_to_tcp: tuple[str, ...]   # frames a goal may name, rigidly attached to the TCP
    shoulder: tuple[float, float, float]  # reach advice is measured from here (world, m)
    base: str                       # the arm's root body, at the world origin
    max_reach: float | None         # m from the shoulder the TCP reaches (None: the Panda's text)
    objects: tuple[str, ...] = mjcf.OBJECTS
    cameras: tuple[str, ...] = mjcf.CAMERAS


def _panda_model() -> mujoco.MjModel:
    return mujoco.MjModel.from_xml_string(mjcf.build_mjcf())


PANDA = SimRobot(
    name='panda',
    summary='MuJoCo simulation of a Franka Emika Panda with a wrist force/torque sensor and '
            'the Franka Hand',
    build_model=_panda_model,
    arm_joints=mjcf.ARM_JOINTS, q_min=mjcf.Q_MIN, q_max=mjcf.Q_MAX, dq_max=mjcf.DQ_MAX,
    ddq_max=mjcf.DDQ_MAX,
    arm_links=('panda_link0',) + tuple(f'panda_link{i}' for i in range(1, 8)),
    hand_bodies=('panda_link8', 'panda_hand', 'panda_leftfinger', 'panda_rightfinger',
                 'panda_hand_tcp'),
    hand_body='panda_hand',
    finger_joints=(mjcf.FINGER_JOINTS[0], mjcf.FINGER_JOINTS[1]),
    finger_bodies=('panda_leftfinger', 'panda_rightfinger'),
    finger_max=mjcf.FINGER_MAX, finger_force_max=mjcf.FINGER_FORCE_MAX,
    finger_kp=mjcf.FINGER_KP, finger_kv=mjcf.FINGER_KV,
    tcp='panda_hand_tcp', ft_site='panda_ft_sensor',
    rigid_to_tcp=('panda_hand_tcp', 'panda_hand', 'panda_link8', 'panda_ft_sensor'),
    shoulder=(0.0, 0.0, 0.333),  # panda_joint2's axis in panda_link0
    base='panda_link0', max_reach=None,
)


def sim_robot_for(config: RobotConfig) -> SimRobot:
    """Return the hand-written Panda, or the arm built from robot.yaml's description."""
    if tuple(config.arm_joints) == PANDA.arm_joints:
        starts = {}
        for name, spec in config.objects.items():
            if name in PANDA.objects and spec.start_xy_m is not None:
                starts[name] = spec.start_xy_m
        if not starts:
            return PANDA
        xml = mjcf.build_mjcf(starts)
        return replace(PANDA, build_model=lambda: mujoco.MjModel.from_xml_string(xml))
    if config.description:
        from .urdf_world import described_robot
        return described_robot(config)
    arm = config.arm_joints
    raise BackendError('UNSUPPORTED', t(
        'sim_other_arm', sim_count=len(PANDA.arm_joints), sim_first=PANDA.arm_joints[0],
        sim_last=PANDA.arm_joints[-1], robot=config.robot, count=len(arm), first=arm[0],
        last=arm[-1]), advice=t('sim_other_arm_fix'))
