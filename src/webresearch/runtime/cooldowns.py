"""Cool-downs: "do not use X for the next N seconds", shared like limits (issue 18 §2).

A search provider that failed (``rate``, ``upstream``, ``timeout`` …) is skipped by every
process sharing the state backend until its cool-down ends, so a fleet stops hammering it
together. The store only keeps *when* each cool-down ends and why; what a failure costs in
seconds is the caller's rule (Retry-After, else a default).

Semantics (every backend; the parametrised fleet suite proves them):

* :meth:`CooldownStore.start` — the key cools down until ``now + seconds``; a cool-down
  that already ends later is kept as it is (a short cool-down never shortens a long one,
  e.g. a 60 s default after a provider asked for 300 s); ``seconds <= 0`` does nothing;
* :meth:`CooldownStore.get` — the live cool-down with the seconds left (> 0), or ``None``
  once ``now >= until`` (the record is then forgotten);
* :meth:`CooldownStore.clear` — the key is usable again at once.

Times are the backend's clock (monotonic in-process, wall clock in SQLite, the server's in
Redis); only the seconds left ever leave the store, so clocks never mix.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

__all__ = ["REASON_MAX_CHARS", "Cooldown", "CooldownStore", "MemoryCooldowns", "later"]

#: Longest reason kept with a cool-down (characters).
REASON_MAX_CHARS = 300


@dataclass(frozen=True, slots=True)
class Cooldown:
    """A live cool-down.

    Attributes:
        remaining_s: seconds until it ends (> 0).
        code: why it started (an error code such as ``rate`` or ``upstream``).
        reason: a short, model-safe text of the failure (no address, no key), or "".
    """

    remaining_s: float
    code: str
    reason: str = ""


def later(current_until: float | None, now: float, seconds: float) -> float | None:
    """The new end of a cool-down started at ``now`` for ``seconds``, or ``None`` when the
    current one (ending at ``current_until``) must be kept: it ends later, or ``seconds <= 0``."""
    if seconds <= 0:
        return None
    until = now + seconds
    if current_until is not None and current_until >= until:
        return None
    return until


class CooldownStore(Protocol):
    """Cool-downs by key (see the module docstring for the semantics)."""

    async def start(self, key: str, seconds: float, code: str, reason: str = "") -> None:
        """Cool ``key`` down for ``seconds`` unless a cool-down ending later is on."""
        ...

    async def get(self, key: str) -> Cooldown | None:
        """The live cool-down of ``key``, or ``None``."""
        ...

    async def clear(self, key: str) -> None:
        """End the cool-down of ``key`` now."""
        ...


class MemoryCooldowns:
    """In-process cool-downs.

    Args:
        clock: monotonic seconds (tests inject a fake).
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._until: dict[str, tuple[float, str, str]] = {}

    async def start(self, key: str, seconds: float, code: str, reason: str = "") -> None:
        now = self._clock()
        current = self._until.get(key)
        live = current[0] if current is not None and now < current[0] else None
        until = later(live, now, seconds)
        if until is not None:
            self._until[key] = (until, code, reason[:REASON_MAX_CHARS])

    async def get(self, key: str) -> Cooldown | None:
        current = self._until.get(key)
        if current is None:
            return None
        now = self._clock()
        if now >= current[0]:
            del self._until[key]
            return None
        return Cooldown(current[0] - now, current[1], current[2])

    async def clear(self, key: str) -> None:
        self._until.pop(key, None)
