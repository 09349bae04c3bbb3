"""Caches and cool-downs of a shared backend fail open: an outage changes no call's outcome,
and is logged once when it starts and once when it ends."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from webresearch.backends.state import FailOpenCache, FailOpenCooldowns
from webresearch.errors import StorageError
from webresearch.runtime.cache import MemoryCache
from webresearch.runtime.cooldowns import Cooldown, MemoryCooldowns


class Flaky:
    """Forwards to ``inner`` unless ``down``: then every operation raises StorageError."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.down = False

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.inner, name)

        async def call(*args: Any) -> Any:
            if self.down:
                raise StorageError("the Redis state backend is unreachable")
            return await method(*args)

        return call


async def test_cooldowns_read_as_none_and_writes_are_dropped_during_an_outage(
    caplog: pytest.LogCaptureFixture,
) -> None:
    inner = Flaky(MemoryCooldowns(lambda: 0.0))
    cooldowns = FailOpenCooldowns(inner)
    await cooldowns.start("k", 30.0, "rate")
    assert await cooldowns.get("k") == Cooldown(30.0, "rate", "")
    inner.down = True
    with caplog.at_level(logging.WARNING, logger="webresearch"):
        assert await cooldowns.get("k") is None  # as if not cooling down: the provider is tried
        await cooldowns.start("other", 30.0, "upstream")  # dropped, no error
        await cooldowns.clear("k")
        inner.down = False
        assert await cooldowns.get("other") is None
        assert await cooldowns.get("k") is not None  # the clear during the outage was lost
    assert [r.getMessage() for r in caplog.records] == [
        "cool-down store ignored: the Redis state backend is unreachable",
        "cool-down store is back",
    ]


async def test_cache_errors_are_misses_logged_once(caplog: pytest.LogCaptureFixture) -> None:
    inner = Flaky(MemoryCache(4, 60.0, clock=lambda: 0.0))
    cache = FailOpenCache(inner, "web_fetch")
    inner.down = True
    with caplog.at_level(logging.WARNING, logger="webresearch"):
        await cache.set("k", 1)
        assert await cache.get("k") is None
        inner.down = False
        await cache.set("k", 2)
        assert await cache.get("k") == 2
    assert [r.getMessage() for r in caplog.records] == [
        "cache web_fetch treated as a miss: the Redis state backend is unreachable",
        "cache web_fetch is back",
    ]
