"""SearchService with an in-memory provider: hook order, cache rules, degraded answers."""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar

import pytest

from webresearch.config import ProviderOptions, Settings
from webresearch.errors import SearchError, SearchNetworkError, SearchUpstreamError
from webresearch.runtime.cache import MemoryCache
from webresearch.search.base import (
    Capability,
    EngineFailure,
    NoOptions,
    SearchOptions,
    SearchResponse,
    SearchResult,
)
from webresearch.search.service import Hooks, SearchService, cache_key


class MemoryProvider:
    """A provider answering from a list of canned outcomes."""

    id: ClassVar[str] = "memory"
    name: ClassVar[str] = "Memory Search"
    options_model: ClassVar[type[ProviderOptions]] = NoOptions
    capabilities: ClassVar[frozenset[Capability]] = frozenset()

    def __init__(self, *outcomes: SearchResponse | SearchError) -> None:
        self.outcomes = list(outcomes)
        self.calls = 0

    @classmethod
    def from_settings(cls, settings: Settings) -> MemoryProvider:
        return cls()

    async def search(self, query: str, options: SearchOptions) -> SearchResponse:
        self.calls += 1
        outcome = self.outcomes[min(self.calls, len(self.outcomes)) - 1]
        if isinstance(outcome, SearchError):
            raise outcome
        return outcome

    async def aclose(self) -> None:
        pass


class Recorder:
    def __init__(self) -> None:
        self.steps: list[str] = []
        self.events: list[dict[str, Any]] = []

    async def admit(self) -> None:
        self.steps.append("admit")

    def sent(self) -> None:
        self.steps.append("sent")

    async def event(self, kind: str, **details: Any) -> None:
        self.steps.append(kind)
        self.events.append(details)

    def hooks(self) -> Hooks:
        return Hooks(admit=self.admit, sent=self.sent, event=self.event)


ONE = SearchResponse(results=(SearchResult("T", "https://example.org/", "<b>s</b>"),), raw_count=1)


async def test_hooks_order_and_cache_hit_is_free() -> None:
    provider = MemoryProvider(ONE)
    service = SearchService(provider, MemoryCache(8, 300))
    rec = Recorder()
    first = await service.search("q", SearchOptions(), rec.hooks())
    assert rec.steps == ["admit", "sent", "search.request"]
    assert first.source == "upstream" and first.response.results[0].snippet == "s"
    second = await service.search("q", SearchOptions(), rec.hooks())
    assert second.source == "cache" and second.response == first.response
    assert rec.steps == ["admit", "sent", "search.request"]  # nothing more
    assert rec.events[0]["outcome"] == "ok" and rec.events[0]["results"] == 1


async def test_unsent_request_is_not_charged_sent_failure_is() -> None:
    unsent = SearchNetworkError("down", request_sent=False)
    sent_then_failed = SearchUpstreamError("500", request_sent=True)
    for error, charged in ((unsent, False), (sent_then_failed, True)):
        rec = Recorder()
        service = SearchService(MemoryProvider(error), MemoryCache(8, 300))
        with pytest.raises(SearchError):
            await service.search("q", SearchOptions(), rec.hooks())
        assert ("sent" in rec.steps) is charged
        assert rec.events[-1]["outcome"] == error.code


async def test_health_mode_bypasses_cache() -> None:
    provider = MemoryProvider(ONE)
    service = SearchService(provider, MemoryCache(8, 300))
    await service.search("q", SearchOptions())
    outcome = await service.search("q", SearchOptions(), use_cache=False)
    assert outcome.source == "upstream" and provider.calls == 2


async def test_degraded_answers_are_not_cached_and_empty_degraded_is_an_answer() -> None:
    """Issue 21 item 7: an empty answer with failed engines is an ok "no results" naming them
    (the provider itself raises ``upstream`` when it knows no engine answered)."""
    degraded = SearchResponse(
        results=ONE.results, unresponsive_engines=(EngineFailure("google", "timeout"),), raw_count=1
    )
    provider = MemoryProvider(degraded)
    service = SearchService(provider, MemoryCache(8, 300))
    assert (await service.search("q", SearchOptions())).source == "upstream"
    assert (await service.search("q", SearchOptions())).source == "upstream"
    empty = MemoryProvider(SearchResponse(unresponsive_engines=(EngineFailure("bing"),)))
    service = SearchService(empty, MemoryCache(8, 300))
    outcome = await service.search("q", SearchOptions())
    assert outcome.response.empty and outcome.response.degraded
    assert (await service.search("q", SearchOptions())).source == "upstream"  # not cached
    assert empty.calls == 2


async def test_leader_checks_the_cache_again_after_joining() -> None:
    """A cache whose reads yield lets a caller miss, then find the flight gone: the leader's
    second look at the cache still prevents a second upstream request."""

    class SlowCache(MemoryCache):
        async def get(self, key: str) -> Any:
            value = await super().get(key)
            for _ in range(5):
                await asyncio.sleep(0)
            return value

    provider = MemoryProvider(ONE)
    service = SearchService(provider, SlowCache(8, 300))
    outcomes = await asyncio.gather(*(service.search("q", SearchOptions()) for _ in range(10)))
    assert provider.calls == 1
    assert {o.response for o in outcomes} == {outcomes[0].response}


def test_cache_key_covers_the_spec_fields() -> None:
    base = cache_key("p", "q", SearchOptions())
    assert cache_key("p", "  q ", SearchOptions()) == base
    assert cache_key("p", "q", SearchOptions(language="EN")) == cache_key(
        "p", "q", SearchOptions(language="en")
    )
    for other in (
        cache_key("other", "q", SearchOptions()),
        cache_key("p", "q2", SearchOptions()),
        cache_key("p", "q", SearchOptions(max_results=3)),
        cache_key("p", "q", SearchOptions(freshness="day")),
        cache_key("p", "q", SearchOptions(language="de")),
        cache_key("p", "q", SearchOptions(country="de")),
        cache_key("p", "q", SearchOptions(safesearch="off")),
    ):
        assert other != base


def test_options_are_strict() -> None:
    from pydantic import ValidationError

    for bad in (
        {"max_results": 0},
        {"max_results": 21},
        {"freshness": "hour"},
        {"extra": 1},
        {"max_results": "5"},
    ):
        with pytest.raises(ValidationError):
            SearchOptions(**bad)
