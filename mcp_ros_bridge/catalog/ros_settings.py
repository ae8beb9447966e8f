"""Typed ``robot.yaml`` ``ros:`` settings; every default comes from the schema."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

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
    gripper_position_scale: float | None  # None: derived from the gripper joints
    gripper_force_source: str
    tcp: Tcp | None  # None: the end effector is a link MoveIt knows
    object_pose_topics: Mapping[str, Topic]  # catalog object -> its PoseStamped topic
    object_pose_max_age_s: float

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> RosSettings:
        """Build from a schema-validated ``ros:`` mapping, filling the schema's defaults."""
        topics = {**_default('topics'), **d.get('topics', {})}
        poses = d.get('object_pose_topics', _default('object_pose_topics'))
        return cls(
            topics={key: Topic(t['name'], t.get('qos', _TOPIC_QOS), t.get('type'))
                    for key, t in topics.items()},
            object_pose_topics={key: Topic(t['name'], t.get('qos', _TOPIC_QOS))
                                for key, t in poses.items()},
            actions={**_default('actions'), **d.get('actions', {})},
            services={**_default('services'), **d.get('services', {})},
            **{key: d.get(key, _default(key)) for key in _SCALARS},
            gripper_position_scale=d.get('gripper_position_scale'),
            tcp=_tcp(d.get('tcp')),
        )


_PROPERTIES: Mapping[str, Any] = ROS_SCHEMA['properties']
_TOPIC_QOS = cast(Qos, _PROPERTIES['topics']['additionalProperties']['properties']['qos']
                  ['default'])
_SCALARS = ('gripper_interface', 'distro', 'executor', 'sensor_ingest', 'sensor_drain_period_ms',
            'sensor_qos_depth', 'force_guard', 'gripper_force_source', 'object_pose_max_age_s')


def _default(key: str) -> Any:
    return _PROPERTIES[key]['default']


def _tcp(d: Mapping[str, Any] | None) -> Tcp | None:
    if not d:
        return None
    x, y, z = (float(v) for v in d['offset_xyz'])
    return Tcp(d['parent_link'], (x, y, z))
