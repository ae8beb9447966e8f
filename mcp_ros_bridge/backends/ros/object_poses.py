"""
Object poses on ROS: the newest ``geometry_msgs/PoseStamped`` per catalog object.

``robot.yaml`` ``ros.object_pose_topics`` maps an object name to the topic a
perception node publishes its centre pose on. Poses must be in the base frame:
there is no TF lookup, so any other ``frame_id`` is refused, naming the frame.
A pose older than ``ros.object_pose_max_age_s`` (stamp age or receive age,
sim-time aware as the sensor topics) is refused as stale.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
import threading
import time
from typing import Any

from mcp_ros_bridge.backends.port import BackendError, Pose
from mcp_ros_bridge.backends.ros.sensors import sample_age, stale_error, stamp_s
from mcp_ros_bridge.catalog.ros_settings import Topic
from mcp_ros_bridge.messages import t

Entry = tuple[float, str, tuple[float, float, float], tuple[float, float, float, float], float]


def no_source_error(name: str, base_frame: str) -> BackendError:
    """Return the refusal for an object without a configured pose topic."""
    return BackendError(
        'UNSUPPORTED', t('object_pose_no_source', name=name),
        advice=t('object_pose_no_source_fix', name=name, base=base_frame),
        details={'object': name, 'configure': f'ros.object_pose_topics.{name}'})


class ObjectPoses:
    """Caches the newest pose per object; callbacks on the executor thread, reads on asyncio."""

    def __init__(self, topics: Mapping[str, Topic], base_frame: str, max_age_s: float) -> None:
        """Remember which topic carries which object's pose."""
        self.topics = dict(topics)
        self.base_frame = base_frame
        self.max_age_s = max_age_s
        self._latest: dict[str, Entry] = {}
        self._lock = threading.Lock()

    def subscribe(self, node: Any, qos_for: Any) -> None:
        """Create one PoseStamped subscription per configured object on ``node``."""
        from geometry_msgs.msg import PoseStamped
        for name, topic in self.topics.items():
            node.create_subscription(PoseStamped, topic.name, self._callback(name),
                                     qos_for(topic.qos))

    def _callback(self, name: str) -> Any:
        def store(msg: Any) -> None:
            p, q = msg.pose.position, msg.pose.orientation
            entry = (stamp_s(msg.header), msg.header.frame_id, (p.x, p.y, p.z),
                     (q.w, q.x, q.y, q.z), time.monotonic())
            with self._lock:
                self._latest[name] = entry
        return store

    def read(self, name: str, frame: str, now_s: float) -> Pose:
        """Return the newest pose of ``name`` in ``frame``; refuse what cannot be served."""
        topic = self.topics.get(name)
        if topic is None:
            raise no_source_error(name, self.base_frame)
        if frame.lstrip('/') != self.base_frame:
            raise _frame_error(name, frame, self.base_frame, t('object_pose_frame_asked'))
        with self._lock:
            entry = self._latest.get(name)
        if entry is None:
            raise BackendError('SENSOR_STALE', t('object_pose_not_yet', name=name,
                                                 topic=topic.name),
                               advice=t('object_pose_not_yet_fix', topic=topic.name,
                                        qos=topic.qos),
                               details={'object': name, 'topic': topic.name, 'age_s': None})
        stamp, frame_id, position, orientation, received = entry
        age = sample_age(now_s, stamp, received, topic.name)
        if age > self.max_age_s:
            stale = stale_error(topic.name, age, self.max_age_s).failure
            raise BackendError.of(replace(stale, details={**stale.details, 'object': name}))
        if frame_id.lstrip('/') != self.base_frame:
            raise _frame_error(name, frame_id, self.base_frame,
                               t('object_pose_frame_published', topic=topic.name))
        return Pose(position, orientation, self.base_frame, stamp)


def _frame_error(name: str, frame: str, base: str, where: str) -> BackendError:
    shown = repr(frame) if frame else t('object_pose_frame_empty')
    return BackendError(
        'FRAME_TRANSFORM_FAILURE', t('object_pose_frame', name=name, where=where, frame=shown,
                                     base=base),
        advice=t('object_pose_frame_fix', base=base),
        details={'object': name, 'frame': frame, 'allowed': [base]})
