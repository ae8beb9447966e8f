"""A token bucket per session for motion tools."""

from __future__ import annotations

from collections.abc import Callable
import time


class TokenBucket:
    """Allows ``burst`` calls at once, refilled at ``rate_per_s``."""

    def __init__(self, rate_per_s: float, burst: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """Start full."""
        self.rate = rate_per_s
        self.burst = burst
        self.clock = clock
        self.tokens = float(burst)
        self.stamp = clock()

    def take(self) -> float:
        """Take a token; return 0 on success or the seconds until one is available."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / self.rate if self.rate > 0 else float('inf')


class RateLimiter:
    """One bucket per session key."""

    def __init__(self, rate_per_s: float, burst: int, max_sessions: int = 1024) -> None:
        """Configure every session's bucket."""
        self.rate = rate_per_s
        self.burst = burst
        self.max_sessions = max_sessions
        self._buckets: dict[object, TokenBucket] = {}

    def take(self, session: object) -> float:
        """Take a token for ``session``; 0 means allowed, else seconds to wait."""
        if self.rate <= 0:
            return 0.0
        bucket = self._buckets.get(session)
        if bucket is None:
            if len(self._buckets) >= self.max_sessions:
                self._buckets.pop(next(iter(self._buckets)))
            bucket = self._buckets[session] = TokenBucket(self.rate, self.burst)
        return bucket.take()
