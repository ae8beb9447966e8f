"""
``--record DIR`` on a running bridge: the audit trail and the robot into the recorder.

Every audit entry (already redacted by server/audit.py) becomes a record: one with
an ``event`` key on ``/mcp/events``, the others (tool calls) on ``/mcp/tool_calls``
with the policy decision their outcome shows. The robot sampler runs as a task on
the server's loop. The robot description (URDF) is the config's ``description.urdf``
file, else on ROS the latched ``robot_description`` topic robot_state_publisher
keeps. Imported only when recording is asked for.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import subprocess
from typing import Any, TYPE_CHECKING

from mcp_ros_bridge import __version__
from mcp_ros_bridge.catalog.bindings import TopicBinding
from mcp_ros_bridge.recording.channels import CALLS, DESCRIPTION, EVENTS
from mcp_ros_bridge.recording.recorder import Recorder
from mcp_ros_bridge.recording.robot_samples import RobotSampler

if TYPE_CHECKING:
    from mcp_ros_bridge.server.bridge import BridgeServer

log = logging.getLogger('mcp_ros_bridge.recording')
DECISIONS = {'RATE_LIMITED': 'rate_limited', 'NOT_APPROVED': 'approval_denied',
             'OPERATOR_HOLD': 'operator_hold', 'BUSY': 'busy'}
# relative: the bridge node's namespace, where robot_state_publisher publishes it
DESCRIPTION_TOPIC = TopicBinding('robot_description', 'std_msgs/msg/String', (),
                                 'transient_local', 5.0, None)


def decision(entry: dict[str, Any]) -> str:
    """Return the policy decision a tool call's outcome shows ('' when it simply ran)."""
    if entry.get('outcome') == 'input_required':
        return 'approval_asked'
    if entry.get('repeat'):
        return 'idempotent_repeat'
    return DECISIONS.get(str(entry.get('code')), '')


def git_commit() -> str:
    """Return the commit of the source tree the package runs from ('' when not a checkout)."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        done = subprocess.run(['git', '-C', here, 'rev-parse', 'HEAD'], capture_output=True,
                              text=True, timeout=5, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return ''
    return done.stdout.strip() if done.returncode == 0 else ''


def description_source(bridge: BridgeServer) -> str:
    """Return where the URDF comes from: the config's file, the ROS topic, or '' (none)."""
    path = bridge.catalog.robot.description.get('urdf', '')
    if path:
        return path
    return DESCRIPTION_TOPIC.topic if bridge.backend.info.name == 'ros' else ''


async def robot_description(bridge: BridgeServer) -> str | None:
    """Return the URDF text (None when there is none or the topic stays silent)."""
    source = description_source(bridge)
    if source == DESCRIPTION_TOPIC.topic:
        try:
            read = await bridge.backend.read_topic(DESCRIPTION_TOPIC)
        except Exception as exc:  # noqa: BLE001 - no description: the file goes on without
            log.warning('recording without %s: %s', source, exc)
            return None
        return str(read['message'].get('data', ''))
    if source:
        def text() -> str:
            with open(source, encoding='utf-8') as f:
                return f.read()
        return await asyncio.to_thread(text)
    return None


def metadata(bridge: BridgeServer) -> dict[str, str]:
    """Return the file's start metadata: version, commit, robot, config and its digest."""
    catalog = bridge.catalog
    digest = hashlib.sha256(f'{catalog.robot_hash}:{catalog.content_hash}'.encode()).hexdigest()
    return {'bridge_version': __version__, 'git_commit': git_commit(),
            'robot': catalog.robot.robot, 'config_dir': catalog.config_dir,
            'config_digest': digest, 'backend': bridge.backend.info.name,
            'base_frame': catalog.robot.base_frame, 'tip': catalog.robot.end_effector,
            'robot_description': description_source(bridge)}


class Recording:
    """The recorder of one serve run, fed by the audit trail and the robot sampler."""

    def __init__(self, bridge: BridgeServer, directory: str, max_mb: float,
                 images: bool = True) -> None:
        """Open the first file, listen to the audit trail (``images``: a scene after motions)."""
        self.recorder = Recorder(directory, max_mb, metadata(bridge))
        self.bridge, self.images = bridge, images
        bridge.pipeline.audit.listeners.append(self.entry)
        self._tasks: list[asyncio.Task[None]] = []
        self._sampler: RobotSampler | None = None
        log.info('recording the session to %s', self.recorder.paths[0])

    def entry(self, entry: dict[str, Any]) -> None:
        """Record an audit entry: a tool call or an event."""
        if 'event' in entry:
            self.recorder.put(EVENTS, dict(entry))
        else:
            self.recorder.put(CALLS, {**entry, 'decision': decision(entry)})
            if self._sampler is not None:
                self._sampler.poke()  # the pose the call ended in

    def start(self) -> None:
        """Start sampling the robot on the running loop."""
        pipeline, robot = self.bridge.pipeline, self.bridge.catalog.robot
        self._sampler = RobotSampler(self.recorder, pipeline.raw_backend, robot.base_frame,
                                     robot.end_effector, lambda: pipeline.arbiter.running,
                                     self.images)
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._sampler.run()), loop.create_task(self._describe())]

    async def _describe(self) -> None:
        text = await robot_description(self.bridge)
        if text is not None:
            self.recorder.latch(DESCRIPTION, {'data': text})

    async def last_sample(self) -> None:
        """Stop sampling and read the robot once more (before the backend closes)."""
        for task in self._tasks:
            task.cancel()
        self._tasks = []
        if self._sampler is not None:
            self._sampler.cancel()
            await self._sampler.sample()  # the end pose and the wrench samples since the last read
            self._sampler = None

    async def close(self) -> None:
        """Write what is queued and finish the file (after the robot stops)."""
        for task in self._tasks:
            task.cancel()
        if self._sampler is not None:
            self._sampler.cancel()
        listeners = self.bridge.pipeline.audit.listeners
        if self.entry in listeners:
            listeners.remove(self.entry)
        await asyncio.to_thread(self.recorder.close)
