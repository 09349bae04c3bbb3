"""Failover, cool-downs, fusion and the operator's controls through the Toolkit (issue 18 §2),
against local fake providers speaking their documented formats (SearXNG JSON, Brave Web
Search, Tavily)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.api_server import ApiRequest, ApiResponse, ApiServer, json_response
from tests.support.search_stubs import BRAVE, SEARXNG, TAVILY, chain_settings, fixture_json
from webresearch import RunContext, Settings, Toolkit
from webresearch.runtime.journal import MemoryJournal

pytestmark = pytest.mark.network


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def servers() -> Iterator[tuple[ApiServer, ApiServer, ApiServer]]:
    with ApiServer() as searxng, ApiServer() as brave, ApiServer() as tavily:
        yield searxng, brave, tavily


def _chain(servers: tuple[ApiServer, ApiServer, ApiServer], **extra: Any) -> Settings:
    searxng, brave, tavily = servers
    return chain_settings(
        [(SEARXNG, searxng.base), (BRAVE, brave.base), (TAVILY, tavily.base)], **extra
    )


def _searxng(*urls: str) -> dict[str, Any]:
    return {
        "query": "q",
        "results": [
            {"url": u, "title": f"SearXNG {u}", "content": "s", "engines": ["google", "bing"]}
            for u in urls
        ],
        "answers": [],
        "infoboxes": [],
        "suggestions": [],
        "unresponsive_engines": [],
    }


def _brave(*urls: str) -> dict[str, Any]:
    return {
        "type": "search",
        "query": {"original": "q"},
        "web": {
            "type": "search",
            "results": [
                {
                    "title": f"Brave {u}",
                    "url": u,
                    "description": "d",
                    "page_age": "2024-03-05T10:00:00",
                }
                for u in urls
            ],
        },
    }


def _journal(toolkit: Toolkit) -> MemoryJournal:
    journal = toolkit.journal
    assert isinstance(journal, MemoryJournal)
    return journal


def _too_many(seconds: str) -> ApiResponse:
    return json_response({"error": "slow down"}, 429, [("Retry-After", seconds)])


async def test_failover_in_order_says_who_answered_and_why_the_others_did_not(
    servers: tuple[ApiServer, ApiServer, ApiServer],
) -> None:
    searxng, brave, tavily = servers
    SEARXNG.route(searxng, json_response({"error": "down"}, 503, [("Retry-After", "120")]))
    BRAVE.route(brave, _too_many("30"))
    TAVILY.route(tavily, fixture_json("tavily"))
    clock = FakeClock()
    async with Toolkit(_chain(servers), clock=clock) as toolkit:
        result = await toolkit.call("web_search", {"query": "python asyncio"})
        assert result.ok, result.text
        assert "1. [asyncio — Asynchronous I/O — Python 3.12 documentation]" in result.text
        assert result.text.splitlines()[-1] == (
            "note: answered by Tavily API; before it: the SearXNG instance failed on its side "
            "(HTTP 503) [upstream]; Brave Search API is rate-limiting requests (HTTP 429) [rate]"
        )
        assert result.meta["provider"] == "tavily"
        assert [(a["provider"], a["outcome"], a["code"]) for a in result.meta["failover"]] == [
            ("searxng", "failed", "upstream"),
            ("brave", "failed", "rate"),
        ]
        assert (searxng.count(), brave.count(), tavily.count()) == (1, 1, 1)
        # another search: both failed providers cool down (Retry-After 120 s and 30 s)
        clock.now += 29.0
        second = await toolkit.call("web_search", {"query": "another query"})
        assert second.ok, second.text
        assert (searxng.count(), brave.count(), tavily.count()) == (1, 1, 2)
        assert [a["outcome"] for a in second.meta["failover"]] == ["cooling", "cooling"]
        assert "Brave Search API is cooling down for 1 s after" in second.text
        clock.now += 1.0  # Brave's 30 s are over; SearXNG's 120 s are not
        BRAVE.route(brave, fixture_json("brave"))
        third = await toolkit.call("web_search", {"query": "third query"})
        assert third.meta["provider"] == "brave"
        assert (searxng.count(), brave.count(), tavily.count()) == (1, 2, 2)
        cooldowns = [e for e in _journal(toolkit).events if e.kind == "search.cooldown"]
        assert [(e.details["provider"], e.details["seconds"]) for e in cooldowns] == [
            ("searxng", 120.0),
            ("brave", 30.0),
        ]


async def test_every_provider_down_is_the_first_providers_error_naming_the_others(
    servers: tuple[ApiServer, ApiServer, ApiServer],
) -> None:
    searxng, brave, _ = servers
    SEARXNG.route(searxng, json_response({"error": "down"}, 502))
    BRAVE.route(brave, json_response({"error": "x"}, 402))
    with ApiServer() as closed:
        gone = closed.base  # nothing listens here any more
    settings = chain_settings([(SEARXNG, searxng.base), (BRAVE, brave.base), (TAVILY, gone)])
    async with Toolkit(settings) as toolkit:
        result = await toolkit.call("web_search", {"query": "q"})
        assert result.error is not None and result.error.code == "upstream"
        assert result.text.startswith(
            "error[upstream]: the SearXNG instance failed on its side (HTTP 502); then "
            "Brave Search API: the plan's quota or credit is used up (HTTP 402) [quota]; "
            "Tavily API could not"
        )
        assert "[network]" in result.text
        assert gone not in result.text and searxng.base not in result.text
        # everything cools down now: the next call sends nothing and says when to retry
        again = await toolkit.call("web_search", {"query": "other"})
        assert again.error is not None and again.error.code == "upstream"
        assert again.error.details["retry_after"] == 60.0
        assert "cooling down for 60 s" in again.text
        assert (searxng.count(), brave.count()) == (1, 1)


async def test_costs_and_limits_count_per_provider(
    servers: tuple[ApiServer, ApiServer, ApiServer],
) -> None:
    searxng, brave, tavily = servers
    SEARXNG.route(searxng, lambda r: _searxng(f"https://s.example/{r.param('q')}"))
    BRAVE.route(brave, json_response({"error": "x"}, 500))  # sent, failed: still charged
    TAVILY.route(tavily, fixture_json("tavily"))
    settings = chain_settings(
        [(BRAVE, brave.base), (TAVILY, tavily.base), (SEARXNG, searxng.base)],
        prices={"brave": 0.01, "tavily": 0.02},
        search_rate_limit=2,
    )
    run = RunContext(budget=1.0)
    async with Toolkit(settings, clock=FakeClock()) as toolkit:
        first = await toolkit.call("web_search", {"query": "a"}, run=run)
        assert first.meta["provider"] == "tavily" and first.meta["cost"] == pytest.approx(0.03)
        completed = [e for e in _journal(toolkit).events if e.kind == "tool.completed"]
        assert completed[-1].details["costs"] == {"brave": 0.01, "tavily": 0.02}
        assert toolkit.spent_by(run.run_id) == pytest.approx(0.03)
        # brave cools down after its failure; tavily's window holds 2 requests, then our
        # limit hands over to searxng, whose window is its own
        second = await toolkit.call("web_search", {"query": "b"}, run=run)
        assert second.meta["provider"] == "tavily" and second.meta["cost"] == 0.02
        third = await toolkit.call("web_search", {"query": "c"}, run=run)
        assert third.ok and third.meta["provider"] == "searxng"
        assert [(a["provider"], a["code"]) for a in third.meta["failover"]] == [
            ("brave", "upstream"),
            ("tavily", "rate_limited"),
        ]
        assert "web_search:tavily is limited to 2 calls per 60 s" in third.text
        assert (brave.count(), tavily.count(), searxng.count()) == (1, 2, 1)
        assert toolkit.spent_by(run.run_id) == pytest.approx(0.05)


async def test_a_budget_too_small_for_a_paid_provider_hands_over_to_a_free_one(
    servers: tuple[ApiServer, ApiServer, ApiServer],
) -> None:
    searxng, brave, _ = servers
    BRAVE.route(brave, fixture_json("brave"))
    SEARXNG.route(searxng, _searxng("https://free.example/"))
    settings = chain_settings([(BRAVE, brave.base), (SEARXNG, searxng.base)], prices={"brave": 0.5})
    async with Toolkit(settings) as toolkit:
        result = await toolkit.call("web_search", {"query": "q"}, run=RunContext(budget=0.1))
    assert result.ok and result.meta["provider"] == "searxng"
    assert result.meta["failover"][0]["code"] == "budget_exceeded"
    assert brave.count() == 0 and "cost" not in result.meta


async def test_concurrent_identical_searches_fail_over_with_one_request_each(
    servers: tuple[ApiServer, ApiServer, ApiServer],
) -> None:
    searxng, brave, _ = servers
    gate = threading.Event()

    def slow_failure(request: ApiRequest) -> ApiResponse:
        gate.wait(10)
        return json_response({"error": "down"}, 502)

    SEARXNG.route(searxng, slow_failure)
    BRAVE.route(brave, fixture_json("brave"))
    settings = chain_settings([(SEARXNG, searxng.base), (BRAVE, brave.base)])
    async with Toolkit(settings) as toolkit:
        calls = [
            asyncio.create_task(toolkit.call("web_search", {"query": "same"})) for _ in range(100)
        ]
        for _ in range(50):
            await asyncio.sleep(0)
        await asyncio.to_thread(lambda: None)
        gate.set()
        results = await asyncio.gather(*calls)
    assert all(r.ok and r.meta["provider"] == "brave" for r in results)
    assert (searxng.count(), brave.count()) == (1, 1)


async def test_fusion_merges_both_providers_by_rrf_without_duplicate_urls(
    servers: tuple[ApiServer, ApiServer, ApiServer],
) -> None:
    searxng, brave, _ = servers
    # searxng: A B C; brave: C' A' D (C' and A' are A and C spelled differently)
    a, b, c, d = (f"https://{x}.example/page" for x in "abcd")
    SEARXNG.route(searxng, _searxng(a, b, c))
    BRAVE.route(brave, _brave("http://C.example/page/?utm_source=brave", a + "#top", d))
    settings = chain_settings(
        [(SEARXNG, searxng.base), (BRAVE, brave.base)],
        search_fusion="rrf",
        prices={"brave": 0.01},
    )
    async with Toolkit(settings) as toolkit:
        result = await toolkit.call("web_search", {"query": "q"})
        again = await toolkit.call("web_search", {"query": "q"})
    assert result.ok, result.text
    links = [line for line in result.text.splitlines() if line[:1].isdigit()]
    # a = 1/61 + 1/62, c = 1/63 + 1/61, b = 1/62, d = 1/63
    assert links == [
        f"1. [SearXNG {a}]({a})",
        "2. [Brave http://C.example/page/?utm_source=brave](http://C.example/page/?utm_source=brave)",
        f"3. [SearXNG {b}]({b})",
        f"4. [Brave {d}]({d})",
    ]
    assert "   published: 2024-03-05 · engines: google, bing · providers: searxng, brave" in (
        result.text
    )
    assert "   published: 2024-03-05 · providers: brave" in result.text
    assert result.text.splitlines()[-1] == (
        "note: results of the SearXNG instance and Brave Search API fused by reciprocal rank fusion"
    )
    assert result.meta["fusion"] == "rrf" and result.meta["providers"] == ["searxng", "brave"]
    assert [d["providers"] for d in result.meta["result_details"]] == [
        ["searxng", "brave"],
        ["searxng", "brave"],
        ["searxng"],
        ["brave"],
    ]
    assert result.meta["cost"] == 0.01  # brave's price; searxng is free
    assert again.meta["cached"] is True and "cost" not in again.meta
    assert (searxng.count(), brave.count()) == (1, 1)
    # both asked at once: each answer is that provider's own request
    assert searxng.requests()[0].param("q") == "q" and brave.requests()[0].param("q") == "q"


async def test_fusion_with_one_provider_down_fuses_the_rest_and_says_so(
    servers: tuple[ApiServer, ApiServer, ApiServer],
) -> None:
    searxng, brave, _ = servers
    SEARXNG.route(searxng, _searxng("https://a.example/"))
    BRAVE.route(brave, json_response({"error": "down"}, 503))
    settings = chain_settings([(SEARXNG, searxng.base), (BRAVE, brave.base)], search_fusion="rrf")
    async with Toolkit(settings) as toolkit:
        result = await toolkit.call("web_search", {"query": "q"})
    assert result.ok
    assert result.text.splitlines()[-1] == (
        "note: results of the SearXNG instance fused by reciprocal rank fusion; not "
        "answering: Brave Search API failed on its side (HTTP 503) [upstream]"
    )


async def test_operator_ceiling_and_default_language_and_country(
    servers: tuple[ApiServer, ApiServer, ApiServer],
) -> None:
    _, brave, _ = servers
    BRAVE.route(brave, fixture_json("brave"))
    settings = BRAVE.settings(
        brave.base, search_max_results=5, search_language="de", search_country="AT"
    )
    async with Toolkit(settings) as toolkit:
        capped = await toolkit.call("web_search", {"query": "a", "max_results": 20})
        default = await toolkit.call("web_search", {"query": "b"})
        own = await toolkit.call("web_search", {"query": "c", "language": "fr", "country": "ch"})
    first, second, third = brave.requests()
    assert (first.param("count"), first.param("search_lang"), first.param("country")) == (
        "5",
        "de",
        "AT",
    )
    assert capped.text.splitlines()[-1] == (
        "note: at most 5 results per search (the operator's limit)"
    )
    assert capped.meta["max_results_capped"] == 5
    assert second.param("count") == "5" and "operator's limit" not in default.text
    assert (third.param("search_lang"), third.param("country")) == ("fr", "CH")
    assert "operator" not in own.text
    # Brave's dates are shown and kept: page_age, else age ("3 days ago" stays a text)
    assert "   published: 2024-06-20" in capped.text
    assert "   published: 3 days ago" in capped.text
    assert capped.meta["result_details"][0]["published"] == "2024-06-20"


async def test_fused_requests_reserve_their_prices_together(
    servers: tuple[ApiServer, ApiServer, ApiServer],
) -> None:
    """Asked at once, brave and tavily (0.3 each) cannot both pass a budget of 0.5: the
    second admission sees the first one's pending price."""
    searxng, brave, tavily = servers
    SEARXNG.route(searxng, _searxng("https://a.example/"))
    BRAVE.route(brave, _brave("https://b.example/"))
    TAVILY.route(tavily, fixture_json("tavily"))
    settings = _chain(servers, search_fusion="rrf", prices={"brave": 0.3, "tavily": 0.3})
    run = RunContext(budget=0.5)
    async with Toolkit(settings) as toolkit:
        result = await toolkit.call("web_search", {"query": "q"}, run=run)
        assert result.ok, result.text
        assert result.meta["providers"] == ["searxng", "brave"]
        assert [(a["provider"], a["code"]) for a in result.meta["failover"]] == [
            ("tavily", "budget_exceeded")
        ]
        assert tavily.count() == 0
        assert toolkit.spent_by(run.run_id) == pytest.approx(0.3)
