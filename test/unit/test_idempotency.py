"""The idempotency cache on its own: per-session keys, replay rules, bounds, cancellation."""

from __future__ import annotations

import asyncio

import anyio
from mcp_ros_bridge.backends.port import BackendError
from mcp_ros_bridge.safety.idempotency import (FirstCallAbandoned, IdempotencyCache,
                                               KeyReuseError, KeysExhausted)
import pytest

pytestmark = pytest.mark.anyio
A, B = 'session:a', 'session:b'


def ok(result: str) -> tuple[bool, str]:
    """Replay every result that does not start with STOPPED."""
    return (not result.startswith('STOPPED'), result.split()[0])


class Clock:
    """A clock the test advances by hand."""

    def __init__(self) -> None:
        """Start at t = 100 s."""
        self.now = 100.0

    def __call__(self) -> float:
        """Return the current time."""
        return self.now


def counter(*results: str):
    """Return work that hands out ``results`` in turn, and the list of runs."""
    runs: list[int] = []

    async def work() -> str:
        runs.append(1)
        return results[min(len(runs), len(results)) - 1]

    return work, runs


async def test_replays_within_a_session_and_refuses_reuse() -> None:
    """Same key and args replay; other args raise KeyReuseError; another session runs anew."""
    cache = IdempotencyCache(ttl_s=600)
    work, runs = counter('result 1', 'result 2', 'result 3')
    args = {'force_n': 15, 'idempotency_key': 'k'}
    assert (await cache.run(A, 'grasp', 'k', args, work, ok)).result == 'result 1'
    again = await cache.run(A, 'grasp', 'k', dict(args), work, ok)
    assert again.result == 'result 1' and again.replayed
    assert cache.known(A, 'grasp', 'k') and not cache.known(B, 'grasp', 'k')
    with pytest.raises(KeyReuseError, match="'k'"):
        await cache.run(A, 'grasp', 'k', {'force_n': 20, 'idempotency_key': 'k'}, work, ok)
    other = await cache.run(B, 'grasp', 'k', args, work, ok)
    assert other.result == 'result 2' and not other.replayed
    assert len(runs) == 2


async def test_numbers_compare_by_value() -> None:
    """180.0 and 180 are the same argument: a replay, not a key reuse."""
    cache = IdempotencyCache()
    work, runs = counter('done')
    await cache.run(A, 'move', 'k', {'o': {'roll': 180.0}, 'p': [1.0, 0.5]}, work, ok)
    again = await cache.run(A, 'move', 'k', {'o': {'roll': 180}, 'p': [1, 0.5]}, work, ok)
    assert again.replayed and runs == [1]


async def test_unreplayable_result_lets_the_retry_run_and_says_so() -> None:
    """A STOPPED first result is not a replay: the retry runs and learns how the first ended."""
    cache = IdempotencyCache()
    work, runs = counter('STOPPED by stop_arm', 'SUCCEEDED')
    first = await cache.run(A, 'move', 'k', {}, work, ok)
    assert first.result.startswith('STOPPED') and not cache.known(A, 'move', 'k')
    retry = await cache.run(A, 'move', 'k', {}, work, ok)
    assert retry.result == 'SUCCEEDED' and not retry.replayed and retry.earlier == 'STOPPED'
    assert len(runs) == 2


async def test_keys_live_for_the_ttl_and_new_keys_are_refused_when_full() -> None:
    """No eviction within the TTL: a full session refuses new keys; after the TTL they fit."""
    clock = Clock()
    cache = IdempotencyCache(ttl_s=10, per_scope=2, total=3, clock=clock)
    work, _ = counter('a', 'b', 'c')
    await cache.run(A, 'move', 'k1', {}, work, ok)
    await cache.run(A, 'move', 'k2', {}, work, ok)
    with pytest.raises(KeysExhausted, match='2 idempotency keys'):
        await cache.run(A, 'move', 'k3', {}, work, ok)
    assert (await cache.run(A, 'move', 'k1', {}, work, ok)).replayed, 'k1 is still known'
    assert not (await cache.run(B, 'move', 'k3', {}, work, ok)).replayed
    with pytest.raises(KeysExhausted, match='3 idempotency keys from all sessions'):
        await cache.run(B, 'move', 'k4', {}, work, ok)
    clock.now += 11
    assert not cache.known(A, 'move', 'k1')
    assert (await cache.run(A, 'move', 'k3', {}, work, ok)).result == 'c'


async def test_failed_first_call_is_not_remembered() -> None:
    """A first call that raises is not cached: a retry runs the work again."""
    cache = IdempotencyCache()
    runs: list[int] = []

    async def flaky() -> str:
        runs.append(1)
        if len(runs) == 1:
            raise BackendError('UNAVAILABLE', 'driver down')
        return 'ok'

    with pytest.raises(BackendError):
        await cache.run(A, 'move', 'k', {}, flaky, ok)
    assert not cache.known(A, 'move', 'k')
    assert (await cache.run(A, 'move', 'k', {}, flaky, ok)).result == 'ok'


async def test_concurrent_repeat_waits_for_the_first() -> None:
    """A repeat while the first runs waits for it; the work runs once."""
    cache = IdempotencyCache()
    started, release = asyncio.Event(), asyncio.Event()
    runs: list[int] = []

    async def slow() -> str:
        runs.append(1)
        started.set()
        await release.wait()
        return 'done'

    first = asyncio.create_task(cache.run(A, 'move', 'k', {'a': 1}, slow, ok))
    await asyncio.wait_for(started.wait(), 5)
    assert cache.known(A, 'move', 'k')
    second = asyncio.create_task(cache.run(A, 'move', 'k', {'a': 1}, slow, ok))
    await anyio.wait_all_tasks_blocked()
    assert not second.done()
    release.set()
    assert not (await asyncio.wait_for(first, 5)).replayed
    assert (await asyncio.wait_for(second, 5)).replayed
    assert runs == [1]


async def test_cancelled_first_call_does_not_cancel_the_waiting_repeat() -> None:
    """The waiter gets FirstCallAbandoned (an answer), not a CancelledError of its own."""
    cache = IdempotencyCache()
    started = asyncio.Event()

    async def forever() -> str:
        started.set()
        await asyncio.Event().wait()
        return 'never'

    first = asyncio.create_task(cache.run(A, 'move', 'k', {}, forever, ok))
    await asyncio.wait_for(started.wait(), 5)
    second = asyncio.create_task(cache.run(A, 'move', 'k', {}, forever, ok))
    await anyio.wait_all_tasks_blocked()
    first.cancel()
    with pytest.raises(FirstCallAbandoned):
        await asyncio.wait_for(second, 5)
    assert first.cancelled() and not cache.known(A, 'move', 'k')
