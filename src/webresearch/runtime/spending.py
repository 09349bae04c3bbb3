"""Spending limits shared by every run: "at most 5.00 per day, all workers together" (SPEC §3
"Spending", issue 16).

A run's own ``budget`` (``RunContext.budget``) is counted in its process. A *spending limit*
covers every run of every process that shares the state backend — one application
(``memory://``), the processes of one host (``sqlite://``), a fleet (``redis://``) — and
lives in that backend.

Windows are fixed and aligned to the Unix epoch: window ``n`` covers
``[n·window_s, (n+1)·window_s)`` of the wall clock, so with ``window_s = 86400`` a window is
a UTC calendar day and every worker agrees on when it starts. Amounts are counted in whole
nano-units (:data:`NANOS`), so sums are exact however many small prices are added.

A paid call *holds* its price before the request leaves (:meth:`SpendingStore.hold`: check
and add in one atomic step, so two workers can never both take the last 0.01), and the
pipeline *settles* it when the call ends (:meth:`SpendingStore.adjust`): a request that never
left gives its hold back, a call that spent more than it held adds the rest.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

__all__ = [
    "NANOS",
    "MemorySpending",
    "SpendDecision",
    "SpendingRule",
    "SpendingStore",
    "decide_spend",
    "to_nanos",
    "window_of",
]

#: Stored units per price unit: 0.005 is 5,000,000 (integers add exactly).
NANOS = 1_000_000_000


@dataclass(frozen=True, slots=True)
class SpendingRule:
    """At most ``limit`` price units per fixed window of ``window_s`` seconds."""

    limit: float
    window_s: float


@dataclass(frozen=True, slots=True)
class SpendDecision:
    """The answer to one hold.

    Attributes:
        allowed: the amount was added to the window's total.
        spent: the window's total after this decision (price units).
        window: the window's number (settle the hold in the same window).
        resets_in_s: seconds until the next window starts.
    """

    allowed: bool
    spent: float
    window: int
    resets_in_s: float


def to_nanos(amount: float) -> int:
    """Price units → stored integer units (rounded to the nearest)."""
    return round(amount * NANOS)


def window_of(now: float, window_s: float) -> int:
    """The window number of wall-clock time ``now`` (seconds since the epoch)."""
    return math.floor(now / window_s)


def decide_spend(
    total_nanos: int, amount_nanos: int, limit_nanos: int, now: float, window_s: float
) -> SpendDecision:
    """Whether ``amount`` fits under the limit given the window's total so far (pure).

    A zero amount always fits; the total after an allowed hold may equal the limit, never
    exceed it.
    """
    window = window_of(now, window_s)
    resets_in = (window + 1) * window_s - now
    allowed = amount_nanos <= 0 or total_nanos + amount_nanos <= limit_nanos
    after = total_nanos + (amount_nanos if allowed else 0)
    return SpendDecision(allowed, after / NANOS, window, max(resets_in, 1e-3))


class SpendingStore(Protocol):
    """Window totals per key, shared by every process using the same backend."""

    async def hold(self, key: str, amount: float, rule: SpendingRule) -> SpendDecision:
        """Atomically add ``amount`` to the current window's total of ``key`` when the
        result stays within ``rule.limit``; refuse (and add nothing) otherwise."""
        ...

    async def adjust(self, key: str, delta: float, window: int, rule: SpendingRule) -> None:
        """Add ``delta`` (negative: give back) to window ``window`` of ``key`` without any
        check; the total never goes below zero. A give-back to a window that has ended
        is dropped; a charge to one goes to the current window."""
        ...

    async def spent(self, key: str, rule: SpendingRule) -> float:
        """The current window's total of ``key`` (price units)."""
        ...


class MemorySpending:
    """In-process window totals (one process; the check-and-add has no ``await``).

    Args:
        clock: wall-clock seconds since the epoch (tests inject a fake).
    """

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._totals: dict[str, tuple[int, int]] = {}  # key → (window, nanos)

    def _total(self, key: str, window: int) -> int:
        held = self._totals.get(key)
        return held[1] if held is not None and held[0] == window else 0

    async def hold(self, key: str, amount: float, rule: SpendingRule) -> SpendDecision:
        now = self._clock()
        window = window_of(now, rule.window_s)
        decision = decide_spend(
            self._total(key, window), to_nanos(amount), to_nanos(rule.limit), now, rule.window_s
        )
        if decision.allowed:
            self._totals[key] = (window, self._total(key, window) + to_nanos(amount))
        return decision

    async def adjust(self, key: str, delta: float, window: int, rule: SpendingRule) -> None:
        current = window_of(self._clock(), rule.window_s)
        if window != current and delta < 0:
            return
        self._totals[key] = (current, max(0, self._total(key, current) + to_nanos(delta)))

    async def spent(self, key: str, rule: SpendingRule) -> float:
        return self._total(key, window_of(self._clock(), rule.window_s)) / NANOS
