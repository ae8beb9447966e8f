"""
``serve --record``: a session over stdio on the simulation, read back with independent readers.

The session: pick and place, a motion the host approves, a plan-only motion and
its ``execute_plan``, a slow motion the operator STOPs on the console (then
releases), a read. The file is read with
the ``mcap`` library's reader and its CDR messages decoded with ``rosbags``'
typestore (not the writer's code); ``verify``, ``inspect`` and ``replay`` run as
the CLI. A bridge SIGKILLed mid-motion leaves a file whose records up to the
last chunk read back.
"""

from __future__ import annotations

from collections.abc import Iterator
import contextlib
import itertools
import json
import os
import signal
import struct
import subprocess
import sys
import time
from typing import Any
import zlib

import anyio
from mcap_files import read_mcap
import pytest

from recording_kit import recorded_server, REPO
from rosbags.typesys import get_typestore, Stores

pytest.importorskip('mujoco', reason='the simulation needs mujoco (pip install mujoco)')
NEEDS = 'recording needs mcap (pip install -e ".[record]")'
pytest.importorskip('mcap.reader', reason=NEEDS)
StreamReader = pytest.importorskip('mcap.stream_reader', reason=NEEDS).StreamReader
records = pytest.importorskip('mcap.records', reason=NEEDS)
Channel, Message = records.Channel, records.Message

pytestmark = [pytest.mark.sim]
FAR = [1.2, -0.2, 0.0, -1.8, 0.0, 1.9, 0.785]
PLANNED = [0.3, -0.5, 0.0, -2.2, 0.0, 1.7, 0.785]
TYPES = {'/joint_states': 'sensor_msgs/msg/JointState',
         '/wrench': 'geometry_msgs/msg/WrenchStamped',
         '/camera/image/compressed': 'sensor_msgs/msg/CompressedImage'}
CALLS = [('pick_object', {'object': 'box'}), ('place_object', {'target': {'x': 0.45, 'y': 0.2}}),
         ('move_arm_to_pose', {'position': {'x': 0.45, 'y': 0.0, 'z': 0.35}})]


async def _session(tmp: str) -> dict[str, Any]:
    """Run the session; return what the test needs to know about it."""
    with anyio.fail_after(400):
        return await _steps(tmp)


async def _steps(tmp: str) -> dict[str, Any]:
    async with recorded_server(tmp) as served:
        results = [await served.client.call_tool(name, args) for name, args in CALLS]
        planned = await served.client.call_tool('move_arm_joints',
                                                {'positions': PLANNED, 'plan_only': True})
        plan_id = planned.structured_content['plan_id']
        results += [planned, await served.client.call_tool('execute_plan', {'plan_id': plan_id})]
        moving = anyio.Event()

        async def progress(done: float, total: float | None, message: str | None) -> None:
            moving.set()

        stopped: dict[str, Any] = {}
        async with anyio.create_task_group() as tg:
            async def slow() -> None:
                stopped['result'] = await served.client.call_tool(
                    'move_arm_joints', {'positions': FAR, 'velocity_scaling': 0.1},
                    progress_callback=progress)
            tg.start_soon(slow)
            with anyio.fail_after(60):
                await moving.wait()
            stopped['stop'] = await anyio.to_thread.run_sync(served.console_post, 'stop')
        await anyio.to_thread.run_sync(served.console_post, 'release')
        results += [stopped['result'], await served.client.call_tool('get_joint_states', {})]
        return {'path': served.path, 'results': results, 'stop': stopped['stop'],
                'plan_id': plan_id}


@pytest.fixture(scope='module')
def session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """Record one session for the module's tests; the server has ended when they read it."""
    yield anyio.run(_session, str(tmp_path_factory.mktemp('recording')))


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get('PYTHONPATH', ''))
    return subprocess.run([sys.executable, '-m', 'mcp_ros_bridge.cli', *args], cwd=REPO,
                          env=env, capture_output=True, text=True, timeout=300, check=False)


def _png_pixels(data: bytes) -> tuple[int, int, int]:
    """Decode a PNG's size and inflate its pixel data: (width, height, bytes)."""
    assert data[:8] == b'\x89PNG\r\n\x1a\n'
    at, idat, size = 8, b'', (0, 0)
    while at < len(data):
        length, kind = struct.unpack('>I4s', data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b'IHDR':
            size = struct.unpack('>II', body[:8])
        elif kind == b'IDAT':
            idat += body
        at += 12 + length
    return size[0], size[1], len(zlib.decompress(idat))


def test_every_channel_is_recorded_and_counts_match_the_session(session: dict[str, Any]) -> None:
    """Six channels; one record per call; approval, plan ids, STOP and release as events."""
    channels, messages, meta = read_mcap(session['path'])
    assert set(channels) == {'/mcp/tool_calls', '/mcp/events', '/tf', *TYPES}
    calls = [m.data for m in messages['/mcp/tool_calls']]
    records = [json.loads(c) for c in calls]
    assert [r['tool'] for r in records] == [n for n, _ in CALLS] + [
        'move_arm_joints', 'execute_plan', 'move_arm_joints', 'get_joint_states']
    assert [r['outcome'] for r in records] == ['ok', 'ok', 'ok', 'ok', 'ok', 'error', 'ok']
    assert records[5]['code'] == 'STOPPED' and session['stop']['stopped_motion'] is True
    assert records[3]['plan_id'] == records[4]['args']['plan_id'] == session['plan_id']
    assert all(r['session'] == records[0]['session'] and r['call_id'] for r in records)
    events = [json.loads(m.data) for m in messages['/mcp/events']]
    named = [(e['event'], e.get('tool', ''), e.get('outcome', '')) for e in events
             if e['event'] in ('approval', 'plan_issued', 'plan_executed', 'operator_stop',
                               'operator_release')]
    assert named == [('approval', 'move_arm_to_pose', 'approved'),
                     ('plan_issued', 'move_arm_joints', ''),
                     ('plan_executed', 'execute_plan', 'ok'),
                     ('operator_stop', 'console_stop', 'ok'),
                     ('operator_release', 'console_release', 'ok')]
    plans = [(e['plan_id'], e['call_id']) for e in events if e['event'].startswith('plan_')]
    assert plans == [(session['plan_id'], records[3]['call_id']),
                     (session['plan_id'], records[4]['call_id'])]
    start, end = meta['mcp_ros_bridge'], meta['mcp_ros_bridge_end']
    assert start['robot'] == 'panda' and start['bridge_version'] and start['config_digest']
    assert end['chained_records'] == str(len(records) + len(events)) and end['dropped'] == ''
    for topic in TYPES:
        assert channels[topic].message_encoding == 'cdr', topic


def test_robot_messages_decode_with_rosbags_at_the_sensor_rate(session: dict[str, Any]) -> None:
    """Joint states name the robot's joints; each wrench sample once, in order; images decode."""
    from mcp_ros_bridge.catalog.loader import load_robot
    _, messages, _ = read_mcap(session['path'])
    store = get_typestore(Stores.ROS2_JAZZY)
    robot, _ = load_robot(os.path.join(os.path.dirname(session['path']), '..', 'cfg'))
    joints = [store.deserialize_cdr(m.data, TYPES['/joint_states'])
              for m in messages['/joint_states']]
    assert joints and all(list(j.name)[:len(robot.arm_joints)] == list(robot.arm_joints)
                          for j in joints)
    wrenches = [store.deserialize_cdr(m.data, TYPES['/wrench']) for m in messages['/wrench']]
    stamps = [w.header.stamp.sec + w.header.stamp.nanosec * 1e-9 for w in wrenches]
    gaps = [b - a for a, b in itertools.pairwise(stamps)]
    step = sorted(gaps)[len(gaps) // 2]
    assert all(g > 0 for g in gaps), 'a wrench sample recorded twice or out of order'
    assert max(gaps) < 1.5 * step, f'wrench samples lost: a gap of {max(gaps):.4f} s'
    images = [store.deserialize_cdr(m.data, TYPES['/camera/image/compressed'])
              for m in messages['/camera/image/compressed']]
    assert len(images) >= 3  # after each motion (the last one's may be cut by the shutdown)
    width, height, pixels = _png_pixels(bytes(images[-1].data))
    assert images[-1].format == 'png' and pixels == height * (1 + width * 3)


def test_verify_says_intact_then_names_the_changed_and_removed_record(
        session: dict[str, Any], tmp_path: Any) -> None:
    """A one-byte edit of the place_object record, of an image, a removed record: named."""
    path = session['path']
    ok = _cli('verify', path)
    assert ok.returncode == 0 and 'intact: ' in ok.stdout, ok.stdout + ok.stderr
    with open(path, 'rb') as f:
        data = f.read()
    edited = bytearray(data)
    edited[data.index(b'"place_object"') + 3] ^= 0x01
    (tmp_path / 'edited.mcap').write_bytes(edited)
    from mcp_ros_bridge.recording.reader import read_session
    from mcp_ros_bridge.recording.verify import check
    read = read_session(path)
    place = next(r for r in (e.parsed() or {} for e in read.records)
                 if r.get('tool') == 'place_object')
    bad = _cli('verify', str(tmp_path / 'edited.mcap'))
    assert bad.returncode == 1 and f"seq {place['seq']}," in bad.stdout
    assert 'was changed' in bad.stdout
    image = bytearray(data)
    image[data.index(b'IDAT') + 40] ^= 0x01
    (tmp_path / 'image.mcap').write_bytes(image)
    robot = _cli('verify', str(tmp_path / 'image.mcap'))
    assert robot.returncode == 1 and 'robot data was changed' in robot.stdout, robot.stdout
    del read.records[1]
    intact, line = check(read)
    assert not intact and 'seq 3,' in line and 'removed' in line


def test_inspect_prints_the_timeline(session: dict[str, Any]) -> None:
    """One row per call and event, with the STOPPED call and the operator's STOP."""
    shown = _cli('inspect', session['path'])
    assert shown.returncode == 0, shown.stderr
    rows = shown.stdout.splitlines()
    assert any('move_arm_joints' in r and 'STOPPED' in r for r in rows)
    assert any('operator_stop' in r and 'operator console' in r for r in rows)
    assert sum(' call ' in r for r in rows) == 7
    assert any('plan_issued' in r and session['plan_id'] in r for r in rows)
    assert any('plan_executed' in r and session['plan_id'] in r for r in rows)


def test_replay_reproduces_the_recorded_end_poses(session: dict[str, Any]) -> None:
    """Every completed motion ends within 5 mm of where the recording says it ended."""
    done = _cli('replay', session['path'])
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [r.split() for r in done.stdout.splitlines()[1:-1]]
    compared = [r for r in rows if r[-1] != '-']
    # the plan-only call is not compared (its recorded pose is the plan's end); its run is
    assert [r[1] for r in compared] == [n for n, _ in CALLS] + ['execute_plan']
    assert any(r[1] == 'execute_plan' and r[3] == 'ok' for r in rows)
    assert all(float(r[-1]) <= 5.0 for r in compared)
    assert '7 calls replayed; 0 end poses more than 5 mm off' in done.stdout


def test_sigkilled_bridge_leaves_a_readable_file(tmp_path: Any) -> None:
    """SIGKILL mid-motion: the call before and the motion's first samples read back."""
    seen: dict[str, Any] = {}

    async def killed() -> None:
        async with recorded_server(str(tmp_path)) as served:
            seen['path'] = served.path
            await served.client.call_tool(*CALLS[0])
            halfway = anyio.Event()

            async def progress(done: float, total: float | None, message: str | None) -> None:
                if done >= 0.3:
                    halfway.set()

            async def slow() -> None:
                with contextlib.suppress(Exception):  # the server is gone
                    await served.client.call_tool(
                        'move_arm_joints', {'positions': FAR, 'velocity_scaling': 0.1},
                        progress_callback=progress)
            async with anyio.create_task_group() as tg:
                seen['moving_from'] = time.time_ns()
                tg.start_soon(slow)
                with anyio.fail_after(120):
                    await halfway.wait()
                os.kill(served.pid, signal.SIGKILL)
                tg.cancel_scope.cancel()
    with contextlib.suppress(Exception):  # the client sees its server vanish
        anyio.run(killed)
    assert 'moving_from' in seen, 'the session did not reach the motion'
    topics: dict[str, list[int]] = {}
    with open(seen['path'], 'rb') as f:
        channels: dict[int, str] = {}
        with contextlib.suppress(Exception):  # the file ends mid-record: the cut
            for record in StreamReader(f).records:
                if isinstance(record, Channel):
                    channels[record.id] = record.topic
                elif isinstance(record, Message):
                    topics.setdefault(channels[record.channel_id], []).append(record.log_time)
    assert len(topics.get('/mcp/tool_calls', [])) == 1
    assert any(at > seen['moving_from'] for at in topics.get('/joint_states', [])), \
        'no joint state from the motion reached the file'
    chained = len(topics['/mcp/tool_calls']) + len(topics.get('/mcp/events', []))
    verified = _cli('verify', seen['path'])
    assert verified.returncode == 0, verified.stdout
    assert f'intact: {chained} records' in verified.stdout, verified.stdout
