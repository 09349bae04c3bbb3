"""Caches: a small async protocol and the in-process TTL + LRU implementation.

Values are JSON-serialisable (dicts, lists, strings, numbers) so shared backends (SQLite,
Redis) can store them with the same semantics; the in-process cache keeps the objects
themselves, so callers must treat cached values as read-only.

Semantics (every backend): an entry lives ``ttl_s`` seconds from when it was set (a hit does
not extend it); a hit makes the entry the most recently used; when a set leaves more than
``maxsize`` entries, expired entries go first, then the least recently used live ones.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Protocol

__all__ = ["Cache", "MemoryCache"]

Clock = Callable[[], float]


class Cache(Protocol):
    """Async key → JSON value store with per-entry TTL and LRU eviction."""

    async def get(self, key: str) -> Any | None:
        """The value for ``key``, or ``None`` when absent or expired (marks it recently used)."""
        ...

    async def set(self, key: str, value: Any) -> None:
        """Store ``value`` under ``key`` for the cache's TTL."""
        ...


class MemoryCache:
    """In-process TTL + LRU cache.

    Args:
        maxsize: most entries kept (0 disables the cache).
        ttl_s: seconds an entry stays valid.
        clock: monotonic time source in seconds (tests inject a fake; no sleeps).
    """

    def __init__(self, maxsize: int, ttl_s: float, *, clock: Clock = time.monotonic) -> None:
        self.maxsize = maxsize
        self.ttl_s = ttl_s
        self._clock = clock
        self._data: OrderedDict[str, tuple[float, Any]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._data)

    async def get(self, key: str) -> Any | None:
        item = self._data.get(key)
        if item is None:
            return None
        expires, value = item
        if self._clock() >= expires:
            del self._data[key]
            return None
        self._data.move_to_end(key)
        return value

    async def set(self, key: str, value: Any) -> None:
        if self.maxsize <= 0 or self.ttl_s <= 0:
            return
        now = self._clock()
        self._data[key] = (now + self.ttl_s, value)
        self._data.move_to_end(key)
        if len(self._data) > self.maxsize:
            for stale in [k for k, (exp, _) in self._data.items() if now >= exp]:
                del self._data[stale]
        while len(self._data) > self.maxsize:
            self._data.popitem(last=False)
