"""
The recorder: callers enqueue, one writer thread writes the session's MCAP file(s).

Putting a record never blocks and never raises: it is one append to a bounded
deque (no lock, no thread woken) and a full queue drops the record and counts it
(the end metadata says how many per topic). The writer wakes for a tool call or
event (written and flushed at once) and otherwise every ``BATCH_S``, taking all
that is queued; a batch of samples may be queued as one item whose messages are
built on the writer thread (:meth:`Recorder.put_batch`).
A file is closed and the next one opened past ``max_mb`` or an hour. A write
that fails (a full disk) ends the recording with one log line; the robot and the
server go on. Tool calls and events are hash chained (recording/chain.py).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
import logging
import os
import secrets
import threading
import time
from typing import Any

from mcp_ros_bridge.recording.chain import Chain
from mcp_ros_bridge.recording.channels import CHAINED, ROBOT_TYPES
from mcp_ros_bridge.recording.msg_schemas import prefixes, ros2msg
from mcp_ros_bridge.recording.session_file import SessionFile

log = logging.getLogger('mcp_ros_bridge.recording')
QUEUE_SIZE = 4096
FLUSH_S = 1.0
BATCH_S = 0.1  # the writer's wake-up period for robot data
FILE_S = 3600.0
_END = object()


def ros_schemas() -> tuple[dict[str, tuple[str, str]], list[str]]:
    """Return {topic: (type, ros2msg)} of the installed types, and the topics left as JSON."""
    found, missing = {}, []
    for topic, kind in ROBOT_TYPES.items():
        text = ros2msg(kind)
        if text is None:
            missing.append(topic)
        else:
            found[topic] = (kind, text)
    return found, missing


class Recorder:
    """Records one bridge run into ``directory``."""

    def __init__(self, directory: str, max_mb: float, metadata: dict[str, str],
                 queue_size: int = QUEUE_SIZE, file_s: float = FILE_S) -> None:
        """Find the message types and start the writer thread (the first file opens now)."""
        os.makedirs(directory, exist_ok=True)
        self.directory, self.max_bytes, self.file_s = directory, int(max_mb * 1e6), file_s
        self.metadata = dict(metadata)
        self.ros, missing = ros_schemas()
        if missing:
            log.warning('recording %s as JSON: no ROS 2 message definitions for %s under %s',
                        ', '.join(missing), ', '.join(ROBOT_TYPES[t] for t in missing),
                        os.pathsep.join(p + '/share' for p in prefixes()))
        self.paths: list[str] = []
        self.latched: dict[str, dict[str, Any]] = {}  # written again at the start of each file
        self.dropped: dict[str, int] = {}
        self.failed = ''
        self._size = queue_size
        self._queue: deque[Any] = deque()
        self._wake = threading.Event()
        self._file: SessionFile | None = None
        self._chain = Chain('')
        self._last_hash = ''
        self._flushed = time.monotonic()
        self._open()
        self._thread = threading.Thread(target=self._run, name='mcap-recorder', daemon=True)
        self._thread.start()

    def put(self, topic: str, message: dict[str, Any], seconds: float | None = None) -> None:
        """Enqueue ``message`` on ``topic`` (logged at ``seconds``, default now); never blocks."""
        if self.failed:
            return
        log_ns = time.time_ns() if seconds is None else int(seconds * 1e9)
        if len(self._queue) >= self._size:
            self.dropped[topic] = self.dropped.get(topic, 0) + 1
            return
        self._queue.append((topic, message, log_ns))
        if topic in CHAINED:
            self._wake.set()

    def put_batch(self, topic: str, count: int,
                  build: Callable[[], Iterable[tuple[dict[str, Any], float]]]) -> None:
        """Enqueue ``count`` messages that ``build()`` makes on the writer thread, with times."""
        if self.failed or count <= 0:
            return
        if len(self._queue) >= self._size:
            self.dropped[topic] = self.dropped.get(topic, 0) + count
            return
        self._queue.append((topic, build, None))

    def latch(self, topic: str, message: dict[str, Any]) -> None:
        """Record ``message`` now and at the start of every later file (the robot description)."""
        self.latched[topic] = message
        self.put(topic, message)

    def close(self, timeout_s: float = 5.0) -> None:
        """Write what is queued, finish the file and stop the thread (bounded wait)."""
        self._queue.append(_END)
        self._wake.set()
        self._thread.join(timeout_s)
        if self._thread.is_alive():
            log.warning('recording: the writer did not catch up; the last records are lost')

    # --- the writer thread -----------------------------------------------------------------
    def _run(self) -> None:
        while True:
            self._wake.wait(BATCH_S)
            self._wake.clear()
            while self._queue:
                item = self._queue.popleft()
                if item is _END:
                    self._guarded(self._finish)
                    return
                topic, message, log_ns = item
                if log_ns is None:  # a batch: build its messages here
                    for built, seconds in message():
                        self._guarded(self._write, topic, built, int(seconds * 1e9))
                else:
                    self._guarded(self._write, topic, message, log_ns)
            if time.monotonic() - self._flushed >= FLUSH_S:
                self._guarded(self._flush)

    def _guarded(self, step: Any, *args: Any) -> None:
        if self.failed:
            return
        try:
            step(*args)
        except OSError as exc:  # a full disk, a removed directory: stop recording, not the robot
            self.failed = str(exc)
            log.error('recording stopped: %s (%s); the bridge goes on without it',
                      exc, self._file.path if self._file else self.directory)
            self._file = None

    def _open(self) -> None:
        seed = secrets.token_hex(16)
        name = time.strftime('session-%Y%m%dT%H%M%SZ', time.gmtime())
        path = os.path.join(self.directory, f'{name}-{os.getpid()}-{len(self.paths) + 1}.mcap')
        meta = {**self.metadata, 'started': _now(), 'chain_seed': seed,
                'previous_file_last_hash': self._last_hash,
                'part': str(len(self.paths) + 1)}
        self._file = SessionFile(path, self.ros, meta)
        self.paths.append(path)
        self._chain = Chain(seed)
        if self.paths[1:]:  # a later file: what was latched comes first
            for topic, message in list(self.latched.items()):
                self._file.write(topic, message, time.time_ns())

    def _write(self, topic: str, message: dict[str, Any], log_ns: int) -> None:
        f = self._file
        if f is None:
            return
        if f.size() >= self.max_bytes or time.monotonic() - f.opened >= self.file_s:
            self._finish()
            self._open()
            f = self._file
            assert f is not None
        if topic in CHAINED:
            message = self._chain.link(message)
            self._last_hash = message['hash']
        f.write(topic, message, log_ns)
        if topic in CHAINED:
            self._flush()

    def _flush(self) -> None:
        if self._file is not None:
            self._file.flush()
        self._flushed = time.monotonic()

    def _finish(self) -> None:
        f, self._file = self._file, None
        if f is not None:
            f.finish({'stopped': _now(), 'chained_records': str(self._chain.count),
                      'last_hash': self._chain.last,
                      'dropped': ','.join(f'{k}={v}' for k, v in sorted(self.dropped.items())),
                      'counts': ','.join(f'{k}={v}' for k, v in sorted(f.counts.items()))})


def _now() -> str:
    return time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())
