"""
The recorder's robot sampler: each wrench sample once, none lost when reads fail for a while.

The backend is a unit-seam double: a 500 Hz F/T ring on a clock the test moves
(the sampler's wall clock is the same clock), so no test waits for time.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
import itertools
from typing import Any

from mcp_ros_bridge.backends.port import BackendError, WrenchSamples
from mcp_ros_bridge.recording import robot_samples
import pytest

pytestmark = pytest.mark.unit
RATE = 500.0
RING = 8192


class Clock:
    """A monotonic clock the test moves."""

    def __init__(self) -> None:
        """Start at 100 s."""
        self.now = 100.0

    def __call__(self) -> float:
        """Return the time."""
        return self.now


class Ring:
    """F/T samples at ``RATE`` up to the clock's time; reads fail while ``stale``."""

    def __init__(self, clock: Clock) -> None:
        """Start the stream at the clock's time."""
        self.clock, self.start, self.stale = clock, clock.now, False

    async def wrench_samples(self, count: int) -> WrenchSamples:
        """Return the newest ``count`` samples, or SENSOR_STALE."""
        if self.stale:
            raise BackendError('SENSOR_STALE', 'no F/T sample for 0.6 s')
        end = round((self.clock.now - self.start) * RATE)
        first = max(0, end - min(count, RING))
        stamps = tuple(self.start + i / RATE for i in range(first, end))
        return WrenchSamples(tuple((0.0, 0.0, float(i), 0.0, 0.0, 0.0)
                                   for i in range(first, end)), stamps, 'ft', 0.0, RATE, 'test')

    async def joint_states(self) -> Any:
        """Not read by this test."""
        raise BackendError('SENSOR_STALE', 'not in this test')

    async def end_effector_pose(self, base: str, tip: str) -> Any:
        """Not read by this test."""
        raise BackendError('SENSOR_STALE', 'not in this test')


class Sink:
    """Collects wrench stamps and events."""

    def __init__(self) -> None:
        """Start empty."""
        self.stamps: list[float] = []
        self.events: list[dict[str, Any]] = []

    def put(self, topic: str, message: dict[str, Any], seconds: float | None = None) -> None:
        """Keep events."""
        if topic == robot_samples.EVENTS:
            self.events.append(message)

    def put_batch(self, topic: str, count: int,
                  build: Callable[[], Iterable[tuple[dict[str, Any], float]]]) -> None:
        """Keep the wrench stamps."""
        assert topic == robot_samples.WRENCH
        built = list(build())
        assert len(built) == count
        self.stamps += [at for _, at in built]


def _reads(monkeypatch: pytest.MonkeyPatch, plan: list[tuple[float, bool]]) -> Sink:
    """Read after each (seconds, stale) step of ``plan``; return what was recorded."""
    clock = Clock()
    monkeypatch.setattr(robot_samples.time, 'monotonic', clock)
    sink, ring = Sink(), Ring(clock)

    async def run() -> None:
        sampler = robot_samples.RobotSampler(sink, ring, 'base', 'tip',  # type: ignore[arg-type]
                                             lambda: None, images=False)
        for seconds, stale in plan:
            clock.now += seconds
            ring.stale = stale
            await sampler.sample()
    asyncio.run(run())
    return sink


@pytest.mark.parametrize('stale_s', [0.04, 0.5, 1.0, 3.0])
def test_reads_that_fail_for_a_while_leave_no_hole(monkeypatch: pytest.MonkeyPatch,
                                                   stale_s: float) -> None:
    """Reads every 20 ms, then failing for ``stale_s``, then good: every sample, once."""
    failing = int(stale_s / 0.02)
    plan = [(0.02, False)] * 10 + [(0.02, True)] * failing + [(0.02, False)] * 5
    sink = _reads(monkeypatch, plan)
    gaps = [b - a for a, b in itertools.pairwise(sink.stamps)]
    assert gaps and min(gaps) > 0, 'a sample recorded twice or out of order'
    assert max(gaps) < 1.5 / RATE, f'a hole of {max(gaps):.3f} s after {stale_s} s of failures'
    assert sink.stamps[-1] == pytest.approx(100.0 + len(plan) * 0.02 - 1 / RATE, abs=1e-6)
    assert [e['event'] for e in sink.events if e['part'] == 'wrench'] == ['sensor_fault',
                                                                          'sensor_ok']


def test_a_long_stall_is_bounded_by_what_the_backend_keeps(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A read 30 s after the last asks at most ``WRENCH_MAX`` rows: the newest ones, once."""
    sink = _reads(monkeypatch, [(0.02, False)] * 3 + [(30.0, False), (0.02, False)])
    tail = sink.stamps[-(robot_samples.WRENCH_MAX + 10):]
    gaps = [b - a for a, b in itertools.pairwise(tail)]
    assert min(gaps) > 0 and sorted(gaps)[-2] < 1.5 / RATE  # one hole: the stall itself
    assert len(sink.stamps) == len(set(sink.stamps))


class Burst(Ring):
    """A stream that stalls, then delivers the stall's samples at once (rate still 500 Hz)."""

    def __init__(self, clock: Clock) -> None:
        """Start with no samples."""
        super().__init__(clock)
        self.stamps: list[float] = []

    async def wrench_samples(self, count: int) -> WrenchSamples:
        """Return the newest ``count`` samples that have arrived."""
        stamps = tuple(self.stamps[-count:])
        return WrenchSamples(tuple((0.0,) * 6 for _ in stamps), stamps, 'ft', 0.0, RATE, 'test')


def test_a_burst_after_a_stall_that_outruns_the_window_is_read_whole(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """2,000 samples arriving within one 20 ms read: the read widens until it meets the last."""
    clock = Clock()
    monkeypatch.setattr(robot_samples.time, 'monotonic', clock)
    sink, ring = Sink(), Burst(clock)
    arrived = [100.0 + i / RATE for i in range(2100)]

    async def run() -> None:
        sampler = robot_samples.RobotSampler(sink, ring, 'base', 'tip',  # type: ignore[arg-type]
                                             lambda: None, images=False)
        for upto in (10, 20, 30, 2030, 2040):  # the fourth read: 2,000 new samples in 20 ms
            clock.now += 0.02
            ring.stamps = arrived[:upto]
            await sampler.sample()
    asyncio.run(run())
    assert sink.stamps == arrived[:2040]
