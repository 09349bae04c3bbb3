"""SearchRouter with in-memory providers: failover order, cool-downs, refusals, fusion."""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

import pytest

from webresearch.config import ProviderOptions, Settings
from webresearch.errors import (
    BudgetExceeded,
    RateLimited,
    SearchBadRequest,
    SearchError,
    SearchQuotaError,
    SearchRateError,
    SearchUpstreamError,
)
from webresearch.runtime.cache import MemoryCache
from webresearch.runtime.cooldowns import MemoryCooldowns
from webresearch.search.base import (
    Capability,
    EngineFailure,
    NoOptions,
    SearchOptions,
    SearchProvider,
    SearchResponse,
    SearchResult,
)
from webresearch.search.router import SearchRouter, cooldown_key
from webresearch.search.service import Hooks, SearchService


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Fake:
    """A provider answering each call with the next outcome (the last one repeats)."""

    options_model: ClassVar[type[ProviderOptions]] = NoOptions
    capabilities: ClassVar[frozenset[Capability]] = frozenset()

    def __init__(self, ident: str, *outcomes: SearchResponse | SearchError) -> None:
        self.id = ident
        self.name = f"{ident.title()} API"
        self.outcomes = list(outcomes)
        self.calls = 0
        self.gate: asyncio.Event | None = None

    @classmethod
    def from_settings(cls, settings: Settings) -> Fake:
        raise NotImplementedError

    async def search(self, query: str, options: SearchOptions) -> SearchResponse:
        self.calls += 1
        if self.gate is not None:
            await self.gate.wait()
        outcome = self.outcomes[min(self.calls, len(self.outcomes)) - 1]
        if isinstance(outcome, SearchError):
            raise outcome
        return outcome

    async def aclose(self) -> None:
        pass


def found(*urls: str) -> SearchResponse:
    return SearchResponse(results=tuple(SearchResult(u, u, "s") for u in urls), raw_count=len(urls))


def upstream(**details: Any) -> SearchUpstreamError:
    return SearchUpstreamError("failed on its side (HTTP 502)", request_sent=True, **details)


class Journal:
    def __init__(self) -> None:
        self.events: list[tuple[str, dict[str, Any]]] = []

    async def event(self, kind: str, **details: Any) -> None:
        self.events.append((kind, details))

    def hooks_for(self, provider: SearchProvider) -> Hooks:
        return Hooks(event=self.event)


def router(*providers: Fake, cooldowns: MemoryCooldowns | None = None, **kw: Any) -> SearchRouter:
    services = tuple(SearchService(p, MemoryCache(16, 300)) for p in providers)  # type: ignore[arg-type]
    return SearchRouter(services, cooldowns=cooldowns, **kw)


OPTIONS = SearchOptions()


async def test_the_next_provider_answers_in_the_same_call_and_says_why() -> None:
    first, second, third = (
        Fake("searxng", upstream()),
        Fake("brave", found("https://b.example/")),
        Fake("tavily", found("https://c.example/")),
    )
    journal = Journal()
    outcome = await router(first, second, third).search("q", OPTIONS, journal.hooks_for)
    assert [p.id for p in outcome.answered] == ["brave"]
    assert [r.url for r in outcome.response.results] == ["https://b.example/"]
    assert outcome.response.results[0].providers == ("brave",)
    (attempt,) = outcome.attempts
    assert (attempt.provider, attempt.outcome, attempt.code) == ("searxng", "failed", "upstream")
    assert attempt.reason == "failed on its side (HTTP 502)"
    assert (first.calls, second.calls, third.calls) == (1, 1, 0)


@pytest.mark.parametrize(
    "error",
    [
        SearchQuotaError("plan used up (HTTP 402)"),
        SearchRateError("rate-limiting (HTTP 429)", retry_after=5.0),
        upstream(),
    ],
)
async def test_every_failover_code_hands_over(error: SearchError) -> None:
    outcome = await router(Fake("a", error), Fake("b", found("https://b.example/"))).search(
        "q", OPTIONS, Journal().hooks_for
    )
    assert outcome.answered[0].id == "b" and outcome.attempts[0].code == error.code


async def test_a_bad_request_is_the_models_to_fix_and_stops_failover() -> None:
    second = Fake("b", found("https://b.example/"))
    with pytest.raises(SearchBadRequest):
        await router(Fake("a", SearchBadRequest("bad language")), second).search(
            "q", OPTIONS, Journal().hooks_for
        )
    assert second.calls == 0


async def test_our_own_limit_or_the_budget_hands_over_too() -> None:
    refusals: dict[str, BaseException] = {
        "a": RateLimited("web_search:a is limited", retry_after=12.0),
        "b": BudgetExceeded("budget does not cover b"),
    }

    def hooks_for(provider: SearchProvider) -> Hooks:
        async def admit() -> None:
            if provider.id in refusals:
                raise refusals[provider.id]

        return Hooks(admit=admit)

    a, b, c = (
        Fake("a", found("https://a/")),
        Fake("b", found("https://b/")),
        Fake("c", found("https://c/")),
    )
    outcome = await router(a, b, c).search("q", OPTIONS, hooks_for)
    assert outcome.answered[0].id == "c"
    assert [(x.outcome, x.code, x.retry_after_s) for x in outcome.attempts] == [
        ("refused", "rate_limited", 12.0),
        ("refused", "budget_exceeded", None),
    ]
    assert (a.calls, b.calls) == (0, 0)  # refused before anything was sent


async def test_a_failed_provider_cools_down_for_its_retry_after() -> None:
    clock = Clock()
    cooldowns = MemoryCooldowns(clock)
    first = Fake("a", SearchRateError("429", retry_after=30.0), found("https://a/"))
    second = Fake("b", found("https://b/"))
    journal = Journal()
    chain = router(first, second, cooldowns=cooldowns, cooldown_s=60.0)
    await chain.search("q1", OPTIONS, journal.hooks_for)
    assert ("search.cooldown", {"provider": "a", "code": "rate", "seconds": 30.0}) in journal.events
    clock.now += 29.0
    skipped = await chain.search("q2", OPTIONS, journal.hooks_for)
    assert first.calls == 1  # not asked while cooling down
    (attempt,) = skipped.attempts
    assert attempt.outcome == "cooling" and attempt.code == "rate"
    assert attempt.reason == "A API is cooling down for 1 s after: 429"
    clock.now += 1.0
    back = await chain.search("q3", OPTIONS, journal.hooks_for)
    assert back.answered[0].id == "a" and first.calls == 2


@pytest.mark.parametrize(
    ("details", "seconds"),
    [({}, 60.0), ({"retry_after": 7200.0}, 900.0), ({"retry_after": 0.2}, 1.0)],
)
async def test_cooldown_without_retry_after_is_the_default_and_never_over_the_cap(
    details: dict[str, Any], seconds: float
) -> None:
    cooldowns = MemoryCooldowns(Clock())
    chain = router(
        Fake("a", upstream(**details)), Fake("b", found("https://b/")), cooldowns=cooldowns
    )
    await chain.search("q", OPTIONS, Journal().hooks_for)
    live = await cooldowns.get(cooldown_key("a"))
    assert live is not None and live.remaining_s == pytest.approx(seconds)


async def test_one_provider_has_no_cooldown_and_its_error_is_unchanged() -> None:
    only = Fake("a", upstream(), found("https://a/"))
    chain = router(only)
    with pytest.raises(SearchUpstreamError) as info:
        await chain.search("q", OPTIONS, Journal().hooks_for)
    assert info.value.message == "failed on its side (HTTP 502)"
    assert "attempts" not in info.value.details
    assert (await chain.search("q", OPTIONS, Journal().hooks_for)).answered[0].id == "a"


async def test_when_nobody_answers_the_error_is_the_first_naming_the_others() -> None:
    chain = router(
        Fake("a", upstream()),
        Fake("b", SearchQuotaError("plan used up (HTTP 402)")),
        cooldowns=MemoryCooldowns(Clock()),
    )
    with pytest.raises(SearchUpstreamError) as info:
        await chain.search("q", OPTIONS, Journal().hooks_for)
    error = info.value
    assert error.retryable
    assert error.message == ("failed on its side (HTTP 502); then plan used up (HTTP 402) [quota]")
    assert [a["provider"] for a in error.details["attempts"]] == ["a", "b"]


async def test_when_every_provider_cools_down_nothing_is_sent() -> None:
    clock = Clock()
    cooldowns = MemoryCooldowns(clock)
    await cooldowns.start(cooldown_key("a"), 40.0, "rate", "A API is rate-limiting (HTTP 429)")
    await cooldowns.start(cooldown_key("b"), 10.0, "upstream", "B API failed (HTTP 503)")
    a, b = Fake("a", found("https://a/")), Fake("b", found("https://b/"))
    with pytest.raises(SearchRateError) as info:
        await router(a, b, cooldowns=cooldowns).search("q", OPTIONS, Journal().hooks_for)
    assert (a.calls, b.calls) == (0, 0)
    assert info.value.retry_after == 40.0
    assert info.value.message.startswith("A API is cooling down for 40 s after: A API is rate")
    assert "B API is cooling down for 10 s" in info.value.message


async def test_an_empty_degraded_answer_hands_over_and_is_kept_as_the_fallback() -> None:
    degraded = SearchResponse(unresponsive_engines=(EngineFailure("google", "timeout"),))
    a = Fake("a", degraded)
    outcome = await router(a, Fake("b", found("https://b/"))).search(
        "q", OPTIONS, Journal().hooks_for
    )
    assert outcome.answered[0].id == "b"
    assert outcome.attempts[0].outcome == "empty"
    assert "google" in outcome.attempts[0].reason
    # when nothing better comes, the degraded answer is the (ok) answer
    fallback = await router(Fake("a2", degraded), Fake("b2", upstream())).search(
        "q", OPTIONS, Journal().hooks_for
    )
    assert fallback.answered[0].id == "a2" and fallback.response.degraded
    assert [(x.provider, x.code) for x in fallback.attempts] == [("b2", "upstream")]


async def test_concurrent_callers_share_one_request_per_provider_and_one_cooldown() -> None:
    first, second = Fake("a", upstream()), Fake("b", found("https://b/"))
    first.gate = asyncio.Event()
    starts: list[str] = []

    class Counting(MemoryCooldowns):
        async def start(self, key: str, seconds: float, code: str, reason: str = "") -> None:
            starts.append(key)
            await super().start(key, seconds, code, reason)

    chain = router(first, second, cooldowns=Counting(Clock()))
    calls = [
        asyncio.create_task(chain.search("same", OPTIONS, Journal().hooks_for)) for _ in range(50)
    ]
    for _ in range(20):
        await asyncio.sleep(0)
    first.gate.set()
    outcomes = await asyncio.gather(*calls)
    assert {o.answered[0].id for o in outcomes} == {"b"}
    assert (first.calls, second.calls) == (1, 1)
    assert starts == [cooldown_key("a")]  # the leader alone wrote it


async def test_fusion_asks_everyone_at_once_and_names_who_failed() -> None:
    a, b = (
        Fake("a", found("https://x/", "https://y/")),
        Fake("b", found("https://y/", "https://z/")),
    )
    a.gate, b.gate = asyncio.Event(), asyncio.Event()
    chain = router(a, b, Fake("c", upstream()), fusion=True)
    task = asyncio.create_task(chain.search("q", OPTIONS, Journal().hooks_for))
    for _ in range(10):
        await asyncio.sleep(0)
    assert (a.calls, b.calls) == (1, 1)  # both in flight before either answered
    a.gate.set()
    b.gate.set()
    outcome = await task
    assert outcome.fused and [p.id for p in outcome.answered] == ["a", "b"]
    assert [r.url for r in outcome.response.results] == ["https://y/", "https://x/", "https://z/"]
    assert outcome.response.results[0].providers == ("a", "b")
    assert [(x.provider, x.code) for x in outcome.attempts] == [("c", "upstream")]


async def test_fusion_with_nobody_answering_is_an_error() -> None:
    chain = router(Fake("a", upstream()), Fake("b", SearchBadRequest("bad")), fusion=True)
    with pytest.raises(SearchUpstreamError) as info:
        await chain.search("q", OPTIONS, Journal().hooks_for)
    assert "bad [bad_request]" in info.value.message


async def test_a_cooling_provider_still_serves_its_cached_answer() -> None:
    clock = Clock()
    cooldowns = MemoryCooldowns(clock)
    first = Fake("a", found("https://a/"), upstream())
    chain = router(first, Fake("b", found("https://b/")), cooldowns=cooldowns)
    assert (await chain.search("cached", OPTIONS, Journal().hooks_for)).answered[0].id == "a"
    await chain.search("fails", OPTIONS, Journal().hooks_for)  # a fails: it cools down
    assert await cooldowns.get(cooldown_key("a")) is not None
    hit = await chain.search("cached", OPTIONS, Journal().hooks_for)
    assert hit.answered[0].id == "a" and hit.sources == ("cache",) and not hit.attempts
    assert first.calls == 2
