"""
The recorder alone: rotation keeps the chain across files, drops are counted, a full disk ends it.

The full disk is the operating system's: a subprocess with a file size limit
(RLIMIT_FSIZE, SIGXFSZ ignored) gets EFBIG from its writes.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from typing import Any

from paths import REPO
import pytest

NEEDS = 'recording needs mcap (pip install -e ".[record]")'
read_session = pytest.importorskip('mcp_ros_bridge.recording.reader', reason=NEEDS).read_session
Recorder = pytest.importorskip('mcp_ros_bridge.recording.recorder', reason=NEEDS).Recorder
check = pytest.importorskip('mcp_ros_bridge.recording.verify', reason=NEEDS).check

pytestmark = pytest.mark.unit
JOINTS = {'header': {'stamp': {'sec': 1, 'nanosec': 2}, 'frame_id': ''}, 'name': ['a', 'b'],
          'position': [0.1, 0.2], 'velocity': [0.0, 0.0], 'effort': [0.0, 0.0]}


def _fill(recorder: Recorder, n: int) -> None:
    for i in range(n):
        recorder.put('/mcp/tool_calls', {'tool': 'get_joint_states', 'args': {'i': i}})
        recorder.put('/joint_states', JOINTS)


def test_rotation_starts_a_new_file_whose_chain_links_to_the_last(tmp_path: Any) -> None:
    """Past the size cap a new file opens; each verifies; each names the last hash before."""
    recorder = Recorder(str(tmp_path), 0.02, {'robot': 'test'}, queue_size=100_000)
    _fill(recorder, 400)
    recorder.close()
    assert len(recorder.paths) > 1
    sessions = [read_session(p) for p in recorder.paths]
    for earlier, later in itertools.pairwise(sessions):
        assert earlier.end is not None
        assert later.start['previous_file_last_hash'] == earlier.end['last_hash']
    assert all(check(s)[0] for s in sessions)
    assert sum(len(s.records) for s in sessions) + recorder.dropped.get('/mcp/tool_calls', 0) \
        == 400


def test_a_latched_description_starts_every_later_file(tmp_path: Any) -> None:
    """The robot description is recorded when given and again first in each rotated file."""
    recorder = Recorder(str(tmp_path), 0.02, {}, queue_size=100_000)
    recorder.latch('/robot_description', {'data': '<robot name="r"/>'})
    _fill(recorder, 400)
    recorder.close()
    assert len(recorder.paths) > 1
    for path in recorder.paths:
        assert read_session(path).counts['/robot_description'] == 1, path


def test_a_full_queue_drops_and_counts(tmp_path: Any) -> None:
    """Every message is written or counted as dropped; the end metadata says how many."""
    recorder = Recorder(str(tmp_path), 100, {}, queue_size=8)
    _fill(recorder, 2000)
    recorder.close()
    session = read_session(recorder.paths[0])
    for topic in ('/mcp/tool_calls', '/joint_states'):
        assert session.counts.get(topic, 0) + recorder.dropped.get(topic, 0) == 2000
    assert session.end is not None and session.end['dropped'] == ','.join(
        f'{k}={v}' for k, v in sorted(recorder.dropped.items()))


FULL_DISK = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (64_000, 64_000))
from mcp_ros_bridge.recording.recorder import Recorder
r = Recorder(sys.argv[1], 100, {}, queue_size=100_000)
for i in range(3000):
    r.put('/mcp/tool_calls', {'tool': 't', 'args': {'pad': 'x' * 100}})
r.close()
r.put('/mcp/tool_calls', {'tool': 'after'})
print('still running', bool(r.failed))
"""


def test_a_full_disk_ends_recording_with_one_line_not_the_process(tmp_path: Any) -> None:
    """EFBIG from the OS: one error line, the process goes on, the file so far reads back."""
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get('PYTHONPATH', ''))
    done = subprocess.run([sys.executable, '-c', FULL_DISK, str(tmp_path)], env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and 'still running True' in done.stdout, done.stderr
    assert done.stderr.count('recording stopped') == 1, done.stderr
    (path,) = tmp_path.iterdir()
    session = read_session(str(path))
    assert session.records and check(session)[0]


def test_serve_without_record_does_not_import_the_recorder() -> None:
    """The recording modules and mcap load only with --record."""
    probe = ('import sys; import mcp_ros_bridge.cli, mcp_ros_bridge.server.app; '
             'print([m for m in sys.modules if m.startswith(("mcap", '
             '"mcp_ros_bridge.recording"))])')
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get('PYTHONPATH', ''))
    done = subprocess.run([sys.executable, '-c', probe], env=env, capture_output=True,
                          text=True, timeout=120, check=True)
    assert done.stdout.strip() == '[]'
