"""Typed ``robot.yaml`` ``ros:`` settings; every default comes from the schema."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from mcp_ros_bridge.catalog.defaults import fill_defaults
from mcp_ros_bridge.catalog.schemas import (Distro, Executor, ForceGuard, GripperInterface, Qos,
                                            ROS_SCHEMA, SensorIngest, WRENCH_TYPES)


@dataclass(frozen=True)
class Topic:
    """A subscribed topic: name, QoS profile name and (wrench only) message type."""

    name: str
    qos: Qos
    message_type: str | None = None

    @property
    def bare_wrench(self) -> bool:
        """Return True for a header-less ``Wrench`` topic (stamped on receipt)."""
        return self.message_type == WRENCH_TYPES[1]


@dataclass(frozen=True)
class Tcp:
    """A tool-centre point that is no link of the robot: a fixed offset from a real link."""

    parent_link: str
    offset_xyz: tuple[float, float, float]  # m, in the parent link's frame
    rpy: tuple[float, float, float] = (0.0, 0.0, 0.0)  # rad, its turn from the parent's axes


@dataclass(frozen=True)
class RosSettings:
    """How the ROS backend finds the robot's topics, actions and services."""

    topics: Mapping[str, Topic]
    actions: Mapping[str, str]
    services: Mapping[str, str]
    gripper_interface: GripperInterface
    distro: Distro
    executor: Executor
    sensor_ingest: SensorIngest
    sensor_drain_period_ms: float
    sensor_qos_depth: int
    force_guard: ForceGuard
    execution_horizon_s: float  # 0: the whole trajectory at once
    fk_timeout_s: float  # one compute_fk request
    gripper_force_source: str
    tcp: Tcp | None  # None: the end effector is a link MoveIt knows
    object_pose_topics: Mapping[str, Topic]  # catalog object -> its PoseStamped topic
    object_pose_max_age_s: float

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> RosSettings:
        """Build from a ``ros:`` mapping with the schema's defaults filled in (by RobotConfig)."""
        topics, poses = _merged('topics', d), _merged('object_pose_topics', d)
        return cls(
            topics=MappingProxyType({key: Topic(t['name'], t['qos'], t.get('type'))
                                     for key, t in topics.items()}),
            object_pose_topics=MappingProxyType({key: Topic(t['name'], t['qos'])
                                                 for key, t in poses.items()}),
            actions=MappingProxyType(_merged('actions', d)),
            services=MappingProxyType(_merged('services', d)),
            **{key: d[key] for key in _SCALARS},
            tcp=_tcp(d.get('tcp')),  # absent: no offset
        )


_PROPERTIES: Mapping[str, Any] = ROS_SCHEMA['properties']
_SCALARS = ('gripper_interface', 'distro', 'executor', 'sensor_ingest', 'sensor_drain_period_ms',
            'sensor_qos_depth', 'force_guard', 'gripper_force_source', 'object_pose_max_age_s',
            'execution_horizon_s', 'fk_timeout_s')


def _merged(key: str, d: Mapping[str, Any]) -> dict[str, Any]:
    """Return the ``key`` map merged per entry over its schema default, entries filled."""
    schema = _PROPERTIES[key]
    return fill_defaults(schema, {**schema['default'], **d[key]})


def _tcp(d: Mapping[str, Any] | None) -> Tcp | None:
    if not d:
        return None
    x, y, z = (float(v) for v in d['offset_xyz'])
    r, p, w = (float(v) for v in d.get('rpy', (0.0, 0.0, 0.0)))
    return Tcp(d['parent_link'], (x, y, z), (r, p, w))
