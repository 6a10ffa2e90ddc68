"""Rate limits and retry timing for the LLM analyzer."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Mapping
from email.utils import parsedate_to_datetime

# Statuses worth another attempt: rate limited, or the server (or a proxy) failed.
RETRY_STATUSES = frozenset({408, 409, 429, 500, 502, 503, 504})
# A server asking for a longer pause than this is treated as asking for this.
MAX_RETRY_AFTER_S = 300.0


class TokenBucket:
    """An async token bucket: `capacity` per minute, refilled continuously."""

    def __init__(self, per_minute: int) -> None:
        self.capacity = float(per_minute)
        self._level = float(per_minute)
        self._rate = per_minute / 60.0
        self._stamp = time.monotonic()
        self._lock = asyncio.Lock()

    def _refill(self) -> None:
        now = time.monotonic()
        self._level = min(self.capacity, self._level + (now - self._stamp) * self._rate)
        self._stamp = now

    async def take(self, amount: float) -> None:
        """Wait until `amount` (capped at the capacity) is available, then take it."""
        amount = min(amount, self.capacity)
        async with self._lock:  # first come, first served
            while True:
                self._refill()
                if self._level >= amount:
                    self._level -= amount
                    return
                await asyncio.sleep((amount - self._level) / self._rate)

    def adjust(self, delta: float) -> None:
        """Take `delta` more (or give back, if negative) once the real cost is known."""
        self._refill()
        self._level = min(self.capacity, self._level - delta)


def parse_retry_after(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """Seconds to wait from `retry-after-ms` or `Retry-After` (seconds or an HTTP date)."""
    lowered = {k.lower(): v for k, v in headers.items()}
    raw_ms = lowered.get("retry-after-ms")
    if raw_ms is not None:
        try:
            return min(MAX_RETRY_AFTER_S, max(0.0, float(raw_ms) / 1000.0))
        except ValueError:
            pass
    raw = lowered.get("retry-after")
    if raw is None:
        return None
    raw = raw.strip()
    try:
        return min(MAX_RETRY_AFTER_S, max(0.0, float(raw)))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        return None
    current = time.time() if now is None else now
    return min(MAX_RETRY_AFTER_S, max(0.0, when.timestamp() - current))


def backoff_delay(attempt: int, base_s: float, cap_s: float = 60.0) -> float:
    """Jittered exponential backoff before retry number `attempt` (0-based)."""
    ceiling = min(cap_s, base_s * (2**attempt))
    return random.uniform(ceiling / 2, ceiling)
