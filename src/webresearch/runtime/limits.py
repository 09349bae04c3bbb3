"""Rate limits: a sliding-window log per limiter key (SPEC §3 "Limits and caches").

A rule admits at most ``limit`` calls in any window of ``window_s`` seconds. The decision is a
pure function of the admitted timestamps (:func:`decide`), so the window math is tested with
plain numbers; backends only store timestamps atomically:

* :class:`MemoryLimiter` — one process (asyncio: the check-and-append has no ``await``, so it
  is atomic and admits exactly ``limit`` calls under any concurrency);
* SQLite and Redis backends (``webresearch.backends``) — several processes / machines, same
  semantics.

Defaults (SPEC §1.2, §1.4): web_search 30 per minute, browser 60 per minute, web_fetch none.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

__all__ = ["Decision", "LimitRule", "Limiter", "MemoryLimiter", "decide"]


@dataclass(frozen=True, slots=True)
class LimitRule:
    """At most ``limit`` calls per ``window_s`` seconds."""

    limit: int
    window_s: float


@dataclass(frozen=True, slots=True)
class Decision:
    """The limiter's answer.

    Attributes:
        allowed: whether the call may proceed (its timestamp was recorded).
        retry_after_s: when refused, seconds until the oldest call leaves the window (> 0).
        remaining: calls still available in the current window after this one.
    """

    allowed: bool
    retry_after_s: float = 0.0
    remaining: int = 0


def decide(admitted: Sequence[float], now: float, rule: LimitRule) -> Decision:
    """Decide one call from the timestamps already admitted (ascending), without storing anything.

    Args:
        admitted: timestamps (seconds) of admitted calls, oldest first; entries older than the
            window are ignored.
        now: the current time in the same clock (seconds).
        rule: the limit.

    Returns:
        allowed with the remaining count, or refused with ``retry_after_s``.
    """
    start = now - rule.window_s
    live = [t for t in admitted if t > start]
    if len(live) < rule.limit:
        return Decision(True, 0.0, rule.limit - len(live) - 1)
    if rule.limit <= 0:
        return Decision(False, rule.window_s, 0)
    oldest_blocking = live[len(live) - rule.limit]
    return Decision(False, max(1e-3, oldest_blocking + rule.window_s - now), 0)


class Limiter(Protocol):
    """Atomically decide and record one call for ``key`` under ``rule``."""

    async def acquire(self, key: str, rule: LimitRule) -> Decision:
        """Admit (and record) one call, or refuse it with a retry-after."""
        ...


class MemoryLimiter:
    """In-process sliding-window log.

    Args:
        clock: monotonic seconds (tests inject a fake clock; no sleeps).
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._logs: dict[str, deque[float]] = {}

    async def acquire(self, key: str, rule: LimitRule) -> Decision:
        now = self._clock()
        log = self._logs.setdefault(key, deque())
        start = now - rule.window_s
        while log and log[0] <= start:
            log.popleft()
        decision = decide(log, now, rule)
        if decision.allowed:
            log.append(now)
        return decision
