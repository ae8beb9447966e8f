"""Typed view of ``robot.yaml``: names, interfaces and safety limits."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from mcp_ros_bridge.catalog.defaults import fill_defaults
from mcp_ros_bridge.catalog.gripper_command import gripper_command, GripperCommand
from mcp_ros_bridge.catalog.ros_settings import RosSettings
from mcp_ros_bridge.catalog.schemas import APPROACH_M, ROBOT_SCHEMA


@dataclass(frozen=True)
class Workspace:
    """An axis-aligned box (m) in ``frame`` that the end effector must stay in."""

    frame: str
    lo: tuple[float, float, float]
    hi: tuple[float, float, float]

    def contains(self, p: Sequence[float]) -> bool:
        """Return True when point ``p`` (in ``frame``) lies inside the box."""
        return all(lo <= v <= hi for v, lo, hi in zip(p, self.lo, self.hi))


@dataclass(frozen=True)
class Limits:
    """Safety limits enforced in code by ``safety/`` and the backends."""

    workspace: Workspace
    max_velocity_scaling: float
    max_acceleration_scaling: float
    default_velocity_scaling: float
    default_acceleration_scaling: float
    max_cartesian_speed_mps: float
    contact_force_limit_n: float
    max_guarded_speed_mps: float  # the impact at this approach speed stays under the cap
    sensor_max_age_s: float
    ft_rated_force_n: float  # per axis; larger wrench samples are rejected
    ft_rated_torque_nm: float
    joint_limit_margin_rad: float
    joint_limit_margin_m: float  # the same for a prismatic joint (a torso lift, a rail)
    min_cartesian_fraction: float
    motion_timeout_s: float
    approach_cone_deg: float
    policy: str
    policies: Mapping[str, str]

    def policy_for(self, limit: str) -> str:
        """Return ``reject`` or ``clamp`` for the named limit."""
        return self.policies.get(limit, self.policy)

    def acceleration_scaling(self, velocity_scaling: float) -> float:
        """
        Return the acceleration scaling that goes with a motion's velocity scaling.

        A call scales speed and acceleration together; the defaults set their
        ratio (the default speed accelerates at ``default_acceleration_scaling``),
        and ``max_acceleration_scaling`` caps the result.
        """
        ratio = self.default_acceleration_scaling / self.default_velocity_scaling
        return min(self.max_acceleration_scaling, velocity_scaling * ratio)


@dataclass(frozen=True)
class ObjectSpec:
    """A known object: how it looks, its size (x, y, z extents, m) and its mass."""

    colour: str
    shape: str
    size_m: tuple[float, float, float]
    mass_kg: float
    start_xy_m: tuple[float, float] | None = None  # where the simulation sets it (None: fitted)


@dataclass(frozen=True)
class GripperGeometry:
    """What touches first (m, TCP frame; 0: not stated): finger length, tip beyond TCP, hand."""

    finger_length_m: float = 0.0
    tip_past_tcp_m: float = 0.0
    hand_size_m: tuple[float, float, float] = (0.0, 0.0, 0.0)
    finger_width_m: float = 0.0  # along x, across the closing axis


@dataclass(frozen=True)
class RobotConfig:
    """Everything a backend or capability needs to know about the robot."""

    robot: str
    base_frame: str
    end_effector: str
    ft_frame: str
    group: str
    gripper_group: str
    planner_id: str
    pipeline_id: str
    arm_joints: tuple[str, ...]
    gripper_joints: tuple[str, ...]
    home: tuple[float, ...]
    postures: Mapping[str, tuple[float, ...]]
    objects: Mapping[str, ObjectSpec]
    arm_position_limits: tuple[tuple[float, float], ...]
    gripper_max_width_m: float
    gripper_min_force_n: float
    gripper_max_force_n: float
    gripper_mass_kg: float
    gripper_com_m: tuple[float, float, float]
    gripper_geometry: GripperGeometry
    gripper_command: GripperCommand  # the gripper action's position per finger gap
    limits: Limits
    ros: RosSettings
    # description: urdf and srdf (absolute paths), group and tip; empty without one
    description: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    hand_links: tuple[str, ...] = ()  # what a guarded move may touch with (MoveIt link names)
    arm_units: tuple[str, ...] = ()  # per arm joint 'rad' or 'm' (empty: all rad)
    # how far above its grasp a pick starts and lifts to, and a place comes down from (m)
    approach_m: float = APPROACH_M

    @property
    def table_z_m(self) -> float:
        """Return the table top's z (base frame): the base plane, or a workspace floor below."""
        return min(float(self.limits.workspace.lo[2]), 0.0)

    @property
    def joint_margins(self) -> tuple[float, ...]:
        """Return each arm joint's limit margin in its own unit (rad, or m if prismatic)."""
        return joint_margins(self.arm_units, len(self.arm_joints),
                             self.limits.joint_limit_margin_rad, self.limits.joint_limit_margin_m)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], config_dir: str = '') -> RobotConfig:
        """
        Build from a schema-validated ``robot.yaml`` mapping, filling the schema's defaults.

        ``config_dir``: where the description's relative file paths start.
        """
        d = fill_defaults(ROBOT_SCHEMA, dict(d))
        lim = dict(d['limits'])
        ws = lim.pop('workspace')
        limits = Limits(
            workspace=Workspace(ws['frame'], tuple(ws['min']), tuple(ws['max'])),
            policies=MappingProxyType(lim.pop('policies')),
            **lim,
        )
        fr, mv, jt, gr = d['frames'], d['moveit'], d['joints'], d['gripper']
        return cls(
            robot=d['robot'],
            base_frame=fr['base'],
            end_effector=fr['end_effector'],
            ft_frame=fr['ft_sensor'],
            group=mv['group'],
            gripper_group=mv['gripper_group'],
            planner_id=mv['planner_id'],
            pipeline_id=mv['pipeline_id'],
            arm_joints=tuple(jt['arm']),
            gripper_joints=tuple(jt['gripper']),
            home=tuple(float(v) for v in jt['postures']['home']),
            postures=MappingProxyType({k: tuple(float(v) for v in p)
                                       for k, p in jt['postures'].items()}),
            objects=MappingProxyType({k: _object(v) for k, v in d['objects'].items()}),
            arm_position_limits=tuple((float(lo), float(hi))
                                      for lo, hi in jt['position_limits']),
            gripper_max_width_m=gr['max_width_m'],
            gripper_min_force_n=gr['min_force_n'],
            gripper_max_force_n=gr['max_force_n'],
            gripper_mass_kg=float(gr['mass_kg']),
            gripper_com_m=_xyz(gr['com_m']),
            gripper_geometry=GripperGeometry(float(gr['geometry']['finger_length_m']),
                                             float(gr['geometry']['tip_past_tcp_m']),
                                             _xyz(gr['geometry']['hand_size_m']),
                                             float(gr['geometry']['finger_width_m'])),
            gripper_command=gripper_command(gr, jt['gripper']),
            limits=limits,
            ros=RosSettings.from_dict(d['ros']),
            description=_description(d.get('description'), config_dir),
            hand_links=tuple(mv['hand_links']),
            arm_units=tuple(jt['units']),
            approach_m=float(gr['approach_m']),
        )


def joint_margins(units: Sequence[str], count: int, margin_rad: float,
                  margin_m: float) -> tuple[float, ...]:
    """Return ``count`` margins: ``margin_m`` where ``units`` says m, else ``margin_rad``."""
    return tuple(margin_m if k < len(units) and units[k] == 'm' else margin_rad
                 for k in range(count))


def _description(spec: Mapping[str, Any] | None, config_dir: str) -> Mapping[str, str]:
    import os
    if not spec:
        return MappingProxyType({})
    out = {k: str(v or '') for k, v in spec.items()}
    for key in ('urdf', 'srdf'):
        if out.get(key):
            out[key] = os.path.join(config_dir, os.path.expanduser(out[key]))
    return MappingProxyType(out)


def _xyz(values: Sequence[float]) -> tuple[float, float, float]:
    x, y, z = (float(v) for v in values)
    return x, y, z


def _object(v: Mapping[str, Any]) -> ObjectSpec:
    start = v.get('start_xy_m')
    return ObjectSpec(v['colour'], v['shape'], _xyz(v['size_m']), float(v['mass_kg']),
                      None if start is None else (float(start[0]), float(start[1])))


SHARED_FILES = ('tools.yaml', 'prompts.yaml')  # the shipped ones serve a dir without its own


def config_path(config_dir: str, name: str) -> str:
    """Return config file ``name`` in ``config_dir``; tools and prompts default to the shipped."""
    import os
    path = os.path.join(config_dir, name)
    if name in SHARED_FILES and not os.path.isfile(path):
        return os.path.join(default_config_dir(), name)
    return path


def default_config_dir() -> str:
    """Return the shipped ``config/`` directory (source tree or installed share)."""
    import os
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    src = os.path.join(here, 'config')
    if os.path.isfile(os.path.join(src, 'tools.yaml')) or os.path.isfile(
            os.path.join(src, 'robot.yaml')):
        return src
    try:
        from ament_index_python.packages import get_package_share_directory
        return os.path.join(get_package_share_directory('mcp_ros_bridge'), 'config')
    except Exception:  # noqa: BLE001 - ament index absent or package not installed
        import sys
        return os.path.join(sys.prefix, 'share', 'mcp_ros_bridge', 'config')
