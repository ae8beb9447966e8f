"""
Leases: one session drives the arm; the others read, stop, or wait.

A motion from a session takes the robot's lease (or renews it, if that session
holds it); any call of the holder renews it for ``ttl_s``. While it is held, a
motion from another session is refused with :class:`RobotLeased`, naming the
holder, since when and when it expires. The lease ends when its holder releases
it, when it expires unrenewed, or when the holder's session ends (its deadman).
Reads, previews and ``stop_arm`` never need it: anyone may stop the arm.
The book is pure: the clock is injected and nothing here awaits.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
import time


@dataclass(frozen=True)
class Lease:
    """Who holds the robot: their session scope and client name, since and until when."""

    holder: str      # the session scope (server/identity.session_scope)
    client: str      # the client's own name (clientInfo), else the scope
    since: float     # wall time (time.time) it was taken
    expires: float   # monotonic deadline, renewed by the holder's calls

    def left_s(self, now: float) -> float:
        """Return the seconds until it expires unrenewed (0 once it has)."""
        return max(0.0, self.expires - now)


class RobotLeased(Exception):
    """A motion from a session that does not hold the robot's lease."""

    def __init__(self, lease: Lease, left_s: float) -> None:
        """Carry the lease in force and how long it still runs."""
        super().__init__(lease.client)
        self.lease = lease
        self.left_s = left_s


class LeaseBook:
    """The lease of one robot."""

    def __init__(self, ttl_s: float, clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time) -> None:
        """Leases run ``ttl_s`` from the holder's last call; 0 turns leasing off."""
        self.ttl_s = ttl_s
        self._clock, self._wall = clock, wall
        self._lease: Lease | None = None

    def current(self) -> Lease | None:
        """Return the lease in force (an expired one is dropped)."""
        if self._lease is not None and self._lease.expires <= self._clock():
            self._lease = None
        return self._lease

    def claim(self, holder: str, client: str) -> bool:
        """
        Take or renew the lease for ``holder`` before it moves the robot.

        Returns True when ``holder`` newly took it. Raises :class:`RobotLeased`
        while another session holds it. Leasing off (``ttl_s`` 0): always granted.
        """
        if self.ttl_s <= 0:
            return False
        lease, now = self.current(), self._clock()
        if lease is not None and lease.holder != holder:
            raise RobotLeased(lease, lease.left_s(now))
        if lease is not None:
            self._lease = replace(lease, expires=now + self.ttl_s)
            return False
        self._lease = Lease(holder, client or holder, self._wall(), now + self.ttl_s)
        return True

    def renew(self, holder: str) -> None:
        """Extend the lease if ``holder`` holds it (any call of the holder renews it)."""
        lease = self.current()
        if lease is not None and lease.holder == holder:
            self._lease = replace(lease, expires=self._clock() + self.ttl_s)

    def release(self, holder: str) -> Lease | None:
        """End ``holder``'s lease; return it, or None when ``holder`` did not hold it."""
        lease = self.current()
        if lease is None or lease.holder != holder:
            return None
        self._lease = None
        return lease

    def take_over(self, holder: str, client: str) -> Lease | None:
        """Give the lease to ``holder`` whoever holds it (for ``ttl_s``); return the one ended."""
        ended = self.take_back()
        if self.ttl_s > 0:
            self._lease = Lease(holder, client, self._wall(), self._clock() + self.ttl_s)
        return ended

    def take_back(self) -> Lease | None:
        """End the lease whoever holds it (the operator's take-over); return it, if any."""
        lease, self._lease = self.current(), None
        return lease
