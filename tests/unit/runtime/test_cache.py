"""TTL + LRU semantics of the in-process cache, with an injected clock."""

from __future__ import annotations

from tests.unit.runtime.test_limits import FakeClock
from webresearch.runtime.cache import MemoryCache


async def test_entries_expire_after_the_ttl() -> None:
    clock = FakeClock()
    cache = MemoryCache(10, 600.0, clock=clock)
    await cache.set("a", {"v": 1})
    clock.now += 599.9
    assert await cache.get("a") == {"v": 1}
    clock.now += 0.1
    assert await cache.get("a") is None


async def test_least_recently_used_is_evicted() -> None:
    cache = MemoryCache(2, 600.0, clock=FakeClock())
    await cache.set("a", 1)
    await cache.set("b", 2)
    assert await cache.get("a") == 1  # a is now most recent
    await cache.set("c", 3)
    assert await cache.get("b") is None
    assert await cache.get("a") == 1 and await cache.get("c") == 3
    assert len(cache) == 2


async def test_zero_size_disables_the_cache() -> None:
    cache = MemoryCache(0, 600.0)
    await cache.set("a", 1)
    assert await cache.get("a") is None
