"""Limits, caches, scopes and cool-downs: the same assertions against every state backend.

Each test runs three times (in-process, SQLite, Redis; see ``state`` in conftest.py), on a
fake clock, so "identical semantics" (SPEC §3) is checked number for number.
"""

from __future__ import annotations

import asyncio

import pytest

from webresearch.backends.redis_state import RedisState
from webresearch.backends.state import StateBackend
from webresearch.runtime.limits import LimitRule, decide
from webresearch.runtime.scope import SEARCH_RESULTS_TTL_S, VIEWS_TTL_S
from webresearch.runtime.spending import SpendingRule

from .conftest import FakeClock

PER_MINUTE = LimitRule(3, 60.0)

# --- limits ------------------------------------------------------------------------------


async def test_admits_exactly_the_limit_then_refuses(state: StateBackend) -> None:
    decisions = [await state.limiter.acquire("web_search", LimitRule(5, 60.0)) for _ in range(8)]
    assert [d.allowed for d in decisions] == [True] * 5 + [False] * 3
    assert [d.remaining for d in decisions[:5]] == [4, 3, 2, 1, 0]
    assert all(d.retry_after_s == pytest.approx(60.0) for d in decisions[5:])


async def test_concurrent_acquires_admit_exactly_the_limit(state: StateBackend) -> None:
    rule = LimitRule(30, 60.0)
    decisions = await asyncio.gather(*(state.limiter.acquire("k", rule) for _ in range(100)))
    assert sum(d.allowed for d in decisions) == 30


async def test_retry_after_is_when_the_oldest_call_leaves_the_window(
    state: StateBackend, clock: FakeClock
) -> None:
    for step in (0.0, 10.0, 10.0):  # admitted at t=0, 10, 20
        clock.advance(step)
        assert (await state.limiter.acquire("k", PER_MINUTE)).allowed
    clock.advance(5.0)  # t=25
    refused = await state.limiter.acquire("k", PER_MINUTE)
    assert not refused.allowed
    assert refused.retry_after_s == pytest.approx(35.0, abs=1e-6)
    clock.advance(34.999)  # t=59.999: the call at t=0 is still inside the window
    refused = await state.limiter.acquire("k", PER_MINUTE)
    assert not refused.allowed
    assert refused.retry_after_s == pytest.approx(0.001, abs=1e-6)
    clock.advance(0.001)  # t=60: it left (a window is (now-60, now])
    assert (await state.limiter.acquire("k", PER_MINUTE)).allowed


async def test_window_slides_one_call_at_a_time(state: StateBackend, clock: FakeClock) -> None:
    for step in (0.0, 10.0, 10.0):  # t=0, 10, 20
        clock.advance(step)
        await state.limiter.acquire("k", PER_MINUTE)
    clock.advance(41.0)  # t=61: only the t=0 call left
    assert (await state.limiter.acquire("k", PER_MINUTE)).allowed
    refused = await state.limiter.acquire("k", PER_MINUTE)
    assert not refused.allowed
    assert refused.retry_after_s == pytest.approx(9.0, abs=1e-6)  # the t=10 call leaves at 70


async def test_refusals_are_not_recorded(state: StateBackend, clock: FakeClock) -> None:
    rule = LimitRule(1, 60.0)
    assert (await state.limiter.acquire("k", rule)).allowed
    for _ in range(5):
        clock.advance(10.0)
        assert not (await state.limiter.acquire("k", rule)).allowed
    clock.advance(10.0)  # t=60: the one admitted call left; the refused ones never counted
    assert (await state.limiter.acquire("k", rule)).allowed


async def test_keys_are_independent_and_limit_zero_refuses(state: StateBackend) -> None:
    for _ in range(3):
        await state.limiter.acquire("web_search", PER_MINUTE)
    assert not (await state.limiter.acquire("web_search", PER_MINUTE)).allowed
    assert (await state.limiter.acquire("browser", PER_MINUTE)).allowed
    zero = await state.limiter.acquire("closed", LimitRule(0, 60.0))
    assert not zero.allowed
    assert zero.retry_after_s == pytest.approx(60.0)


async def test_decisions_match_the_pure_window_math(state: StateBackend, clock: FakeClock) -> None:
    """A pseudo-random schedule: every backend's answer equals ``decide`` on the same log."""
    rule = LimitRule(4, 30.0)
    admitted: list[float] = []
    steps = [0.0, 1.5, 0.25, 7.0, 0.0, 12.0, 3.3, 9.9, 0.1, 30.0, 0.5, 2.0, 14.0, 0.0, 16.0]
    for step in steps * 2:
        clock.advance(step)
        expected = decide(admitted, clock.now, rule)
        got = await state.limiter.acquire("k", rule)
        assert got.allowed == expected.allowed
        assert got.remaining == expected.remaining
        assert got.retry_after_s == pytest.approx(expected.retry_after_s, abs=1e-5)
        if got.allowed:
            admitted.append(clock.now)


# --- caches ------------------------------------------------------------------------------


async def test_cache_round_trips_json_values(state: StateBackend) -> None:
    cache = state.cache("web_fetch", maxsize=4, ttl_s=600.0)
    assert await cache.get("missing") is None
    value = {"title": "Привет, 世界", "redirects": [[301, "https://a.example/"]], "n": 1.5}
    await cache.set("k", value)
    assert await cache.get("k") == value


async def test_cache_entry_expires_after_ttl_and_a_hit_does_not_extend_it(
    state: StateBackend, clock: FakeClock
) -> None:
    cache = state.cache("c", maxsize=4, ttl_s=100.0)
    await cache.set("k", "v")
    clock.advance(99.999)
    assert await cache.get("k") == "v"
    clock.advance(0.001)  # exactly ttl_s after the set
    assert await cache.get("k") is None


async def test_cache_set_refreshes_value_and_ttl(state: StateBackend, clock: FakeClock) -> None:
    cache = state.cache("c", maxsize=4, ttl_s=100.0)
    await cache.set("k", 1)
    clock.advance(60.0)
    await cache.set("k", 2)
    clock.advance(60.0)  # 120 s after the first set, 60 s after the second
    assert await cache.get("k") == 2


async def test_cache_evicts_the_least_recently_used(state: StateBackend) -> None:
    cache = state.cache("c", maxsize=3, ttl_s=600.0)
    for key in "abc":
        await cache.set(key, key)
    assert await cache.get("a") == "a"  # a becomes the most recently used
    await cache.set("d", "d")  # evicts b
    assert [await cache.get(k) for k in "abcd"] == ["a", None, "c", "d"]
    await cache.set("e", "e")  # order now a, c, d (gets above refreshed them in turn) → a goes
    assert [await cache.get(k) for k in "acde"] == [None, "c", "d", "e"]


async def test_cache_evicts_expired_entries_before_live_ones(
    state: StateBackend, clock: FakeClock
) -> None:
    """Regression: the in-process cache used to evict the least recently used entry even when
    an expired one was taking a slot, so a live entry was lost for nothing."""
    cache = state.cache("c", maxsize=2, ttl_s=100.0)
    await cache.set("a", "a")  # t=0, expires at 100
    clock.advance(50.0)
    await cache.set("b", "b")  # t=50, expires at 150
    clock.advance(10.0)
    assert await cache.get("a") == "a"  # LRU order: b, a
    clock.advance(45.0)  # t=105: a expired, b live
    await cache.set("c", "c")
    assert await cache.get("b") == "b"
    assert await cache.get("c") == "c"


async def test_cache_disabled_by_zero_size_or_ttl(state: StateBackend) -> None:
    for cache in (state.cache("z1", maxsize=0, ttl_s=60.0), state.cache("z2", maxsize=4, ttl_s=0)):
        await cache.set("k", "v")
        assert await cache.get("k") is None


async def test_named_caches_are_separate(state: StateBackend) -> None:
    one = state.cache("one", maxsize=4, ttl_s=60.0)
    two = state.cache("two", maxsize=4, ttl_s=60.0)
    await one.set("k", 1)
    await two.set("k", 2)
    assert (await one.get("k"), await two.get("k")) == (1, 2)


async def test_handles_of_one_named_cache_share_entries(state: StateBackend) -> None:
    first = state.cache("shared", maxsize=4, ttl_s=60.0)
    second = state.cache("shared", maxsize=4, ttl_s=60.0)
    await first.set("k", {"v": 1})
    assert await second.get("k") == {"v": 1}


# --- scopes ------------------------------------------------------------------------------


async def test_search_results_are_normalised_and_replaced(state: StateBackend) -> None:
    scopes = state.scopes
    assert await scopes.search_results("run") is None  # no search yet
    await scopes.set_search_results(
        "run", ["HTTPS://Example.COM:443/a?x=1#frag", "https://example.com/b", "mailto:x@y"]
    )
    assert await scopes.search_results("run") == {
        "https://example.com/a?x=1",
        "https://example.com/b",
    }
    await scopes.set_search_results("run", ["https://other.example/"])
    assert await scopes.search_results("run") == {"https://other.example/"}
    await scopes.set_search_results("run", [])
    assert await scopes.search_results("run") == set()  # searched, nothing found: not None
    assert await scopes.search_results("another-run") is None


async def test_search_results_expire_after_six_hours(state: StateBackend, clock: FakeClock) -> None:
    await state.scopes.set_search_results("run", ["https://example.com/"])
    clock.advance(SEARCH_RESULTS_TTL_S - 1.0)
    assert await state.scopes.search_results("run") == {"https://example.com/"}
    clock.advance(1.0)
    assert await state.scopes.search_results("run") is None


async def test_views_are_counted_per_conversation_up_to_the_limit(
    state: StateBackend, clock: FakeClock
) -> None:
    scopes = state.scopes
    assert [await scopes.add_view("chat", 3) for _ in range(5)] == [True] * 3 + [False] * 2
    assert await scopes.add_view("other-chat", 3)
    assert not await scopes.add_view("closed", 0)
    clock.advance(VIEWS_TTL_S - 1.0)  # refusals above did not extend the count's life
    assert not await scopes.add_view("chat", 3)
    clock.advance(1.0)  # a week after the last counted view the count is forgotten
    assert await scopes.add_view("chat", 3)


# --- cool-downs ---------------------------------------------------------------------------


async def test_cooldown_lasts_its_seconds_then_is_forgotten(
    state: StateBackend, clock: FakeClock
) -> None:
    cooldowns = state.cooldowns
    assert await cooldowns.get("web_search:searxng") is None
    await cooldowns.start("web_search:searxng", 30.0, "upstream", "failed on its side (HTTP 502)")
    clock.advance(10.0)
    live = await cooldowns.get("web_search:searxng")
    assert live is not None
    assert live.remaining_s == pytest.approx(20.0, abs=1e-3)
    assert (live.code, live.reason) == ("upstream", "failed on its side (HTTP 502)")
    assert await cooldowns.get("web_search:brave") is None  # keys are independent
    clock.advance(19.999)
    assert (await cooldowns.get("web_search:searxng")) is not None
    clock.advance(0.001)  # exactly 30 s after the start
    assert await cooldowns.get("web_search:searxng") is None


async def test_a_shorter_cooldown_never_shortens_a_longer_one(
    state: StateBackend, clock: FakeClock
) -> None:
    cooldowns = state.cooldowns
    await cooldowns.start("k", 300.0, "rate", "asked for 300 s")
    clock.advance(100.0)
    await cooldowns.start("k", 60.0, "upstream", "a later failure")  # ends at 160 < 300
    live = await cooldowns.get("k")
    assert live is not None and live.code == "rate"
    assert live.remaining_s == pytest.approx(200.0, abs=1e-3)
    await cooldowns.start("k", 250.0, "timeout", "longer")  # ends at 350 > 300: replaces
    live = await cooldowns.get("k")
    assert live is not None and live.code == "timeout"
    assert live.remaining_s == pytest.approx(250.0, abs=1e-3)


async def test_an_expired_cooldown_is_replaced_and_clear_ends_one(
    state: StateBackend, clock: FakeClock
) -> None:
    cooldowns = state.cooldowns
    await cooldowns.start("k", 10.0, "rate")
    clock.advance(11.0)
    await cooldowns.start("k", 5.0, "network")  # the old one is over: a shorter one starts
    live = await cooldowns.get("k")
    assert live is not None and live.code == "network" and live.reason == ""
    assert live.remaining_s == pytest.approx(5.0, abs=1e-3)
    await cooldowns.clear("k")
    assert await cooldowns.get("k") is None
    await cooldowns.start("k", 0.0, "rate")  # nothing to wait: nothing starts
    await cooldowns.start("k", -1.0, "rate")
    assert await cooldowns.get("k") is None


async def test_concurrent_starts_keep_the_latest_end(state: StateBackend) -> None:
    seconds = [5.0, 120.0, 30.0, 60.0, 90.0, 1.0]
    await asyncio.gather(*(state.cooldowns.start("k", s, f"code{s:g}") for s in seconds))
    live = await state.cooldowns.get("k")
    assert live is not None and live.code == "code120"


# --- spending limits --------------------------------------------------------------------

DAY = SpendingRule(1.0, 86400.0)


async def test_holds_fill_the_window_exactly_then_refuse(state: StateBackend) -> None:
    spending = state.spending
    # 0.1 ten times is 1.0 exactly (nano-units), not 0.9999999999999999.
    decisions = [await spending.hold("all", 0.1, DAY) for _ in range(11)]
    assert [d.allowed for d in decisions] == [True] * 10 + [False]
    assert decisions[9].spent == pytest.approx(1.0, abs=1e-12)
    assert decisions[10].spent == pytest.approx(1.0, abs=1e-12)  # a refusal adds nothing
    assert await spending.spent("all", DAY) == pytest.approx(1.0, abs=1e-12)
    assert (await spending.hold("all", 0.0, DAY)).allowed  # a free call always fits
    assert (await spending.hold("other", 0.5, DAY)).allowed  # keys are independent


async def test_concurrent_holds_never_overspend(state: StateBackend) -> None:
    decisions = await asyncio.gather(*(state.spending.hold("all", 0.03, DAY) for _ in range(100)))
    assert sum(d.allowed for d in decisions) == 33  # 33 × 0.03 = 0.99; a 34th would be 1.02
    assert await state.spending.spent("all", DAY) == pytest.approx(0.99, abs=1e-12)


async def test_windows_are_calendar_aligned_and_reset(
    state: StateBackend, clock: FakeClock
) -> None:
    # The fake clock starts 57,600 s before a UTC midnight (1.8e9 is 16:00 UTC).
    assert (await state.spending.hold("all", 1.0, DAY)).allowed
    refused = await state.spending.hold("all", 0.5, DAY)
    assert not refused.allowed
    assert refused.resets_in_s == pytest.approx(57600.0, abs=1e-3)
    assert refused.window == int(clock.now // 86400)
    clock.advance(57599.0)
    assert not (await state.spending.hold("all", 0.5, DAY)).allowed
    clock.advance(1.0)  # midnight: a new day, a new budget
    assert await state.spending.spent("all", DAY) == 0.0
    assert (await state.spending.hold("all", 0.5, DAY)).allowed


async def test_settling_gives_back_and_charges(state: StateBackend, clock: FakeClock) -> None:
    spending = state.spending
    held = await spending.hold("all", 0.6, DAY)
    await spending.adjust("all", -0.6, held.window, DAY)  # the request never left
    assert await spending.spent("all", DAY) == 0.0
    held = await spending.hold("all", 0.6, DAY)
    await spending.adjust("all", 0.5, held.window, DAY)  # it cost more than held
    assert await spending.spent("all", DAY) == pytest.approx(1.1, abs=1e-12)
    assert not (await spending.hold("all", 0.01, DAY)).allowed
    await spending.adjust("all", -5.0, held.window, DAY)  # never below zero
    assert await spending.spent("all", DAY) == 0.0
    clock.advance(86400.0)  # a give-back to a day that ended is dropped
    await spending.adjust("all", -0.3, held.window, DAY)
    assert await spending.spent("all", DAY) == 0.0


# --- Redis specifics ----------------------------------------------------------------------


async def test_redis_keys_live_under_the_prefix_and_all_expire(
    redis_server: object, prefix: str, clock: FakeClock
) -> None:
    """Nothing leaks forever: every key we write is under the prefix and has a TTL."""
    import redis.asyncio as aioredis

    from tests.support.fleet_servers import RedisServer

    assert isinstance(redis_server, RedisServer)
    client = aioredis.Redis.from_url(redis_server.url, decode_responses=True)
    before = {key async for key in client.scan_iter()}
    state = RedisState(redis_server.url, prefix=prefix, clock=clock)
    try:
        await state.limiter.acquire("web_search", LimitRule(2, 60.0))
        cache = state.cache("web_fetch", maxsize=1, ttl_s=60.0)
        await cache.set("a", 1)
        await cache.set("b", 2)
        assert await cache.get("b") == 2
        await state.scopes.set_search_results("run", ["https://example.com/"])
        await state.scopes.add_view("chat", 3)
        await state.cooldowns.start("web_search:brave", 60.0, "rate")
        await state.spending.hold("all", 0.5, SpendingRule(1.0, 86400.0))
    finally:
        await state.aclose()
    try:
        keys = {key async for key in client.scan_iter(match=f"{prefix}*")}
        assert {k[len(prefix) :] for k in keys} == {
            "limit:web_search",
            "cache:{web_fetch}:data",
            "cache:{web_fetch}:exp",
            "cache:{web_fetch}:lru",
            "cache:{web_fetch}:seq",
            "scope:results:run",
            "scope:views:chat",
            "cooldown:web_search:brave",
            "spend:all",
        }
        for key in keys:
            ttl_ms = await client.pttl(key)
            assert 0 < ttl_ms <= VIEWS_TTL_S * 1000, key
        assert {key async for key in client.scan_iter()} - before == keys  # nothing else
    finally:
        await client.aclose()
