"""The lease book on its own clock: take, renew, refuse, expire, release, take back."""

from mcp_ros_bridge.safety.lease import LeaseBook, RobotLeased
import pytest


class Clock:
    """A monotonic clock the test moves."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def book(ttl: float = 10.0) -> tuple[LeaseBook, Clock]:
    clock = Clock()
    return LeaseBook(ttl, clock, wall=lambda: 1_700_000_000.0), clock


def test_the_first_motion_takes_it_and_the_holder_keeps_renewing_it():
    leases, clock = book()
    assert leases.claim('a', 'agent-a') is True
    assert leases.claim('a', 'agent-a') is False  # renewed, not taken again
    clock.now += 9.0
    leases.renew('a')
    clock.now += 9.0  # 18 s after taking it, 9 s after the renewal
    lease = leases.current()
    assert lease is not None and lease.holder == 'a' and lease.client == 'agent-a'
    assert lease.left_s(clock.now) == pytest.approx(1.0)


def test_another_session_is_refused_with_the_holder_and_the_time_left():
    leases, clock = book()
    leases.claim('a', 'agent-a')
    clock.now += 4.0
    with pytest.raises(RobotLeased) as err:
        leases.claim('b', 'agent-b')
    assert err.value.lease.client == 'agent-a' and err.value.left_s == pytest.approx(6.0)
    leases.renew('b')  # a call of b does not touch a's lease
    assert leases.current().holder == 'a'


def test_an_unrenewed_lease_expires_and_the_next_session_takes_it():
    leases, clock = book()
    leases.claim('a', 'agent-a')
    clock.now += 10.0
    assert leases.current() is None
    assert leases.claim('b', '') is True
    assert leases.current().client == 'b', 'a nameless client is named by its scope'


def test_release_is_the_holders_and_take_back_is_anyones():
    leases, _ = book()
    leases.claim('a', 'agent-a')
    assert leases.release('b') is None and leases.current().holder == 'a'
    assert leases.release('a').holder == 'a' and leases.current() is None
    leases.claim('b', 'agent-b')
    assert leases.take_back().holder == 'b' and leases.current() is None
    assert leases.take_back() is None


def test_a_zero_ttl_turns_leasing_off():
    leases, _ = book(0.0)
    assert leases.claim('a', 'agent-a') is False
    assert leases.claim('b', 'agent-b') is False
    assert leases.current() is None


def test_take_over_gives_the_lease_to_the_operator_for_one_ttl():
    leases, clock = book()
    leases.claim('a', 'agent-a')
    assert leases.take_over('operator', 'the console').holder == 'a'
    with pytest.raises(RobotLeased) as refused:
        leases.claim('a', 'agent-a')
    assert refused.value.lease.client == 'the console'
    clock.now += 10.0  # not renewed: it expires as any lease does
    assert leases.current() is None and leases.claim('a', 'agent-a') is True
    off, _ = book(ttl=0.0)
    assert off.take_over('operator', 'the console') is None and off.current() is None
