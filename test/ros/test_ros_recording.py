"""
``--record`` on the ROS backend: a session over MCP on the move_group fakes, read back.

A ``BridgeServer`` on a real ``RosBackend`` (real rclpy, DDS on localhost; the
sensor publisher at 1 kHz wrench / 500 Hz joints) records as ``serve --record``
does (:class:`Recording`). The session, through the SDK client: a read, a pose
motion the host approves, a long motion stopped with stop_arm, a read. The file
is read with the ``mcap`` library's reader and decoded with ``rosbags``'
typestore (not the writer's code): every channel, one record per call, the
approval as an event, the URDF latched on /robot_description, every wrench
sample the bridge received (compared with its own buffer after the session),
joint states at the motion rate.
"""

from __future__ import annotations

import os
from typing import Any

import anyio
from mcap_files import read_mcap
from mcp import Client
from mcp_ros_bridge.server.bridge import BridgeServer
from mcp_ros_bridge.server.calls import CallSettings
import mcp_types as types
from object_scene import IkAnswers
import pytest
import ros_support
import yaml

pytestmark = [pytest.mark.ros_moveit, pytest.mark.anyio]
pytest.importorskip('rclpy', reason='rclpy does not import: the ros layer needs it')
NEEDS = 'recording needs mcap (pip install -e ".[record]")'
pytest.importorskip('mcap.reader', reason=NEEDS)
typesys = pytest.importorskip('rosbags.typesys', reason='the test reads with rosbags')
moveit_rig = ros_support.import_moveit_rig()

TYPES = {'/joint_states': 'sensor_msgs/msg/JointState',
         '/wrench': 'geometry_msgs/msg/WrenchStamped'}
IN_FLIGHT = 50  # samples stored by the ingest threads between the last read and the count
MOTION_SAMPLES = 10  # joint states recorded during the long motion before it is stopped
URDF = '<robot name="panda"><link name="panda_link0"/></robot>'  # what the peer latches
POSE = {'position': {'x': 0.45, 'y': 0.0, 'z': 0.35}}


def _catalog(directory: str) -> Any:
    """Write the shipped config with the rig's names; move_arm_to_pose needs approval."""
    from mcp_ros_bridge.capabilities import KINDS
    from mcp_ros_bridge.catalog.loader import load_catalog
    raw = moveit_rig.tagged_yaml(moveit_rig.new_tag())
    raw['limits']['sensor_max_age_s'] = ros_support.shipped_limit('sensor_max_age_s')
    with open(os.path.join(ros_support.REPO, 'config', 'tools.yaml'), encoding='utf-8') as f:
        tools = f.read()
    edited = tools.replace('    kind: move_to_pose\n',
                           '    kind: move_to_pose\n    requires_approval: true\n', 1)
    assert edited != tools, 'the shipped tools.yaml has no move_to_pose tool to edit'
    with open(os.path.join(directory, 'tools.yaml'), 'w', encoding='utf-8') as f:
        f.write(edited)
    with open(os.path.join(directory, 'robot.yaml'), 'w', encoding='utf-8') as f:
        yaml.safe_dump(raw, f)
    return load_catalog(directory, kinds=KINDS).for_backend('ros')


def _publish_description(peer: Any) -> None:
    """Latch URDF on /robot_description as robot_state_publisher does (transient local)."""
    from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
    from std_msgs.msg import String
    latched = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                         durability=DurabilityPolicy.TRANSIENT_LOCAL)
    peer.node.create_publisher(String, '/robot_description', latched).publish(
        String(data=URDF))


async def _approve(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
    return types.ElicitResult(action='accept', content={'approve': True})


class _Counting:
    """Counts the joint states the sampler hands the recorder; sets an event past a count."""

    def __init__(self, recording: Any) -> None:
        self.put, self.joints, self.reached = recording.recorder.put, 0, anyio.Event()
        self.target = 0
        recording.recorder.put = self  # type: ignore[method-assign]

    def __call__(self, topic: str, message: dict[str, Any], seconds: float | None = None) -> None:
        self.put(topic, message, seconds)
        if topic == '/joint_states':
            self.joints += 1
            if self.target and self.joints >= self.target:
                self.reached.set()


async def _session(tmp: str) -> dict[str, Any]:
    from mcp_ros_bridge.recording.channels import stamp  # mcap: imported after the skips
    from mcp_ros_bridge.recording.session import Recording
    catalog = _catalog(tmp)
    async with moveit_rig.rigged(config=catalog.robot) as (backend, fake, _, peer):
        _publish_description(peer)
        fake.solution = IkAnswers(fake, backend.config.arm_position_limits)  # reaches POSE
        bridge = BridgeServer(catalog, backend, CallSettings(motion_rate_per_s=1000.0,
                                                             motion_burst=1000))
        await backend.wrench_samples(1)  # takes what has arrived: the count is current
        out_count = backend.parts.wrench.count
        recording = Recording(bridge, os.path.join(tmp, 'rec'), 100.0)
        recording.start()
        counting = _Counting(recording)
        out: dict[str, Any] = {'path': recording.recorder.paths[0], 'calls': [],
                               'received': [out_count]}
        try:
            with anyio.fail_after(120):
                async with Client(bridge.server, mode='legacy',
                                  elicitation_callback=_approve) as client:
                    for name, args in (('get_joint_states', {}), ('move_arm_to_pose', POSE)):
                        out['calls'].append((name, await client.call_tool(name, args)))
                    fake.duration_s = 30.0
                    fake.executing.clear()

                    async def long_motion() -> None:
                        out['calls'].append(('move_arm_to_posture', await client.call_tool(
                            'move_arm_to_posture', {'posture': 'ready'})))
                    async with anyio.create_task_group() as tg:
                        tg.start_soon(long_motion)
                        assert await anyio.to_thread.run_sync(fake.executing.wait, 30.0)
                        counting.target = counting.joints + MOTION_SAMPLES
                        out['moving_from'] = anyio.current_time()
                        await counting.reached.wait()
                        out['moved_s'] = anyio.current_time() - out['moving_from']
                        out['calls'].append(('stop_arm', await client.call_tool('stop_arm', {})))
                    out['calls'].append(('get_joint_states',
                                         await client.call_tool('get_joint_states', {})))
        finally:
            await recording.last_sample()  # as serve does, before the backend closes
            out['received'].append(backend.parts.wrench.count)  # no await since that read
            await recording.close()
            bridge.close()
        held = await backend.wrench_samples(4096)  # the bridge's own buffer: the newest 4 s
        out['held'] = [stamp(at) for at in held.stamps]
        out['joints'] = list(backend.config.arm_joints)
    return out


@pytest.fixture(scope='module')
def session(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Record one session on the ROS fakes for the module's tests."""
    return anyio.run(_session, str(tmp_path_factory.mktemp('ros_recording')))


def test_calls_events_and_metadata_match_the_session(session: dict[str, Any]) -> None:
    """One record per call with its outcome; the approval an event; metadata complete."""
    import json
    channels, messages, meta = read_mcap(session['path'])
    assert {'/mcp/tool_calls', '/mcp/events', '/tf', *TYPES} <= set(channels)
    records = [json.loads(m.data) for m in messages['/mcp/tool_calls']]
    assert sorted(r['tool'] for r in records) == sorted(n for n, _ in session['calls'])
    answered = sorted((n, 'error' if r.is_error else 'ok') for n, r in session['calls'])
    assert sorted((r['tool'], r['outcome']) for r in records) == answered
    assert ('move_arm_to_posture', 'error', 'STOPPED') in {
        (r['tool'], r['outcome'], r.get('code')) for r in records}
    assert all(r['session'] == records[0]['session'] and r['call_id'] for r in records)
    events = [json.loads(m.data) for m in messages['/mcp/events']]
    assert [(e['tool'], e['outcome']) for e in events if e['event'] == 'approval'] == \
        [('move_arm_to_pose', 'approved')]
    start, end = meta['mcp_ros_bridge'], meta['mcp_ros_bridge_end']
    assert start['robot'] == 'panda' and start['backend'] == 'ros'
    assert start['bridge_version'] and len(start['config_digest']) == 64
    assert start['started'] <= end['stopped'] and end['dropped'] == ''
    assert end['chained_records'] == str(len(records) + len(events))
    assert start['robot_description'] == 'robot_description'
    for topic in TYPES:
        assert channels[topic].message_encoding == 'cdr', topic


def test_the_robot_description_is_recorded_from_the_latched_topic(
        session: dict[str, Any]) -> None:
    """/robot_description: one std_msgs/String, the URDF the peer latched."""
    channels, messages, _ = read_mcap(session['path'])
    store = typesys.get_typestore(typesys.Stores.ROS2_JAZZY)
    assert channels['/robot_description'].message_encoding == 'cdr'
    described = [store.deserialize_cdr(m.data, 'std_msgs/msg/String')
                 for m in messages['/robot_description']]
    assert [d.data for d in described] == [URDF]


def test_every_wrench_sample_the_bridge_received_is_recorded_once(
        session: dict[str, Any]) -> None:
    """
    Each sample once; all the bridge received while recording are in the file.

    The bridge's own buffer after the session (its newest 4 s) is compared sample by
    sample; the whole session by count (the first read also takes older samples).
    """
    _, messages, _ = read_mcap(session['path'])
    store = typesys.get_typestore(typesys.Stores.ROS2_JAZZY)
    wrenches = [store.deserialize_cdr(m.data, TYPES['/wrench']) for m in messages['/wrench']]
    recorded = [(w.header.stamp.sec, w.header.stamp.nanosec) for w in wrenches]
    assert len(recorded) == len(set(recorded)), 'a wrench sample recorded twice'
    recorded.sort()
    spanned = [(s['sec'], s['nanosec']) for s in session['held']
               if recorded[0] <= (s['sec'], s['nanosec']) <= recorded[-1]]
    assert len(spanned) > 100 and set(spanned) <= set(recorded)
    before, after = session['received']  # valid samples the bridge had stored, from its start
    assert after - before - IN_FLIGHT <= len(recorded) <= after


def test_joint_states_decode_and_follow_the_motion_rate(session: dict[str, Any]) -> None:
    """Joint states name the arm's joints; during a motion the sampler reads at its motion rate."""
    from mcp_ros_bridge.recording.robot_samples import IDLE_HZ
    _, messages, _ = read_mcap(session['path'])
    store = typesys.get_typestore(typesys.Stores.ROS2_JAZZY)
    joints = [store.deserialize_cdr(m.data, TYPES['/joint_states'])
              for m in messages['/joint_states']]
    assert joints and all(list(j.name)[:7] == session['joints'] for j in joints)
    # MOTION_SAMPLES joint states took moved_s: far above the rate between motions
    assert MOTION_SAMPLES / session['moved_s'] > 2 * IDLE_HZ
    assert len(messages['/tf']) >= MOTION_SAMPLES
