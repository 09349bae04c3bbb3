"""Firecrawl as a web_search provider against a local server speaking its v2 search API:
request, results, SPEC §1.2 error codes, and its price (2 credits per 10 results) in the
spending ledger — also for a call cut off after the request was sent."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.api_server import ApiRequest, ApiResponse, ApiServer, json_response
from tests.support.hosted_stubs import FIRECRAWL_KEY, PROXY_TOKEN, FirecrawlStub
from webresearch import RunContext, Settings, Toolkit
from webresearch.runtime.journal import MemoryJournal
from webresearch.search.base import SearchOptions
from webresearch.search.firecrawl import FirecrawlProvider, search_credits

pytestmark = pytest.mark.network

CREDIT = 0.01
RESULTS = [
    {
        "url": "https://docs.python.org/3/library/asyncio.html",
        "title": "asyncio",
        "description": "Asynchronous I/O.",
    },
    {
        "url": "https://example.org/a?token=abc",
        "title": "<b>A</b> &amp; B",
        "description": "second",
    },
    {"url": "javascript:alert(1)", "title": "bad", "description": "dropped"},
    {"url": "https://docs.python.org/3/library/asyncio.html", "title": "dup", "description": "dup"},
] + [
    {"url": f"https://example.org/{i}", "title": f"result {i}", "description": ""}
    for i in range(20)
]


@pytest.fixture
def api() -> Iterator[ApiServer]:
    with ApiServer() as server:
        yield server


def settings_for(base: str, **extra: Any) -> Settings:
    return Settings.load(
        environ={},
        journal_url="memory://",
        search_provider="firecrawl",
        firecrawl_base_url=base,
        firecrawl_api_key=FIRECRAWL_KEY,
        firecrawl_headers={"X-Proxy-Token": PROXY_TOKEN},
        firecrawl_credit_price=CREDIT,
        **extra,
    )


@pytest.mark.parametrize("max_results,credits", [(1, 2), (8, 2), (10, 2), (11, 4), (20, 4)])
def test_two_credits_per_started_ten_results(max_results: int, credits: int) -> None:
    assert search_credits(max_results) == credits
    provider = FirecrawlProvider("k", "https://api.firecrawl.dev", credit_price=0.5)
    assert provider.price(SearchOptions(max_results=max_results)) == credits * 0.5


async def test_the_documented_request_and_answer(api: ApiServer) -> None:
    stub = FirecrawlStub(api, results=RESULTS)
    run = RunContext()
    async with Toolkit(settings_for(api.base, search_timeout_s=8.0)) as toolkit:
        result = await toolkit.call(
            "web_search",
            {"query": "python asyncio", "max_results": 5, "freshness": "week", "country": "de"},
            run=run,
        )
        assert result.ok, result.text
        assert result.meta["provider"] == "firecrawl"
        lines = result.text.splitlines()
        assert lines[1] == "1. [asyncio](https://docs.python.org/3/library/asyncio.html)"
        assert lines[2] == "   Asynchronous I/O."
        assert "[A & B](https://example.org/a?token=[REDACTED])" in result.text
        assert "javascript:" not in result.text and "dup" not in result.text
        assert result.meta["cost"] == 2 * CREDIT == toolkit.spent_by(run.run_id)
    (request,) = stub.requests()
    assert (request.method, request.path) == ("POST", "/v2/search")
    assert request.headers["authorization"] == f"Bearer {FIRECRAWL_KEY}"
    assert request.headers["x-proxy-token"] == PROXY_TOKEN
    assert request.json() == {
        "query": "python asyncio",
        "limit": 5,
        "sources": ["web"],
        "timeout": 7000,
        "tbs": "qdr:w",
        "country": "DE",
    }


async def test_twenty_results_cost_four_credits_and_language_is_reported_ignored(
    api: ApiServer,
) -> None:
    FirecrawlStub(api, results=RESULTS)
    run = RunContext()
    async with Toolkit(settings_for(api.base)) as toolkit:
        result = await toolkit.call(
            "web_search", {"query": "q", "max_results": 20, "language": "fr"}, run=run
        )
        assert result.ok and toolkit.spent_by(run.run_id) == 4 * CREDIT
        assert result.meta["ignored"] == ["language"]
        again = await toolkit.call("web_search", {"query": "q", "max_results": 20}, run=run)
        # a different key (no language): a new paid search; the cached one is free
        assert again.meta["cached"] is False
        cached = await toolkit.call("web_search", {"query": "q", "max_results": 20}, run=run)
        assert cached.meta["cached"] is True
        assert toolkit.spent_by(run.run_id) == 8 * CREDIT


async def test_an_empty_answer_is_no_results_with_a_hint(api: ApiServer) -> None:
    FirecrawlStub(api, results=[])
    async with Toolkit(settings_for(api.base)) as toolkit:
        result = await toolkit.call("web_search", {"query": "nothing here"})
    assert result.ok and "rephrase" in result.text


ERRORS = [
    (401, [], "auth", False),
    (403, [], "auth", False),
    (402, [], "quota", False),
    (429, [("Retry-After", "9")], "rate", True),
    (400, [], "bad_request", False),
    (500, [], "upstream", True),
    (503, [], "upstream", True),
]


@pytest.mark.parametrize("status,headers,code,retryable", ERRORS)
async def test_errors_use_the_search_codes_and_are_charged(
    status: int, headers: list[tuple[str, str]], code: str, retryable: bool, api: ApiServer
) -> None:
    stub = FirecrawlStub(api)
    stub.fail = json_response({"success": False, "error": "nope"}, status, headers)
    run = RunContext()
    async with Toolkit(settings_for(api.base)) as toolkit:
        result = await toolkit.call("web_search", {"query": "q"}, run=run)
        error = result.error
        assert error is not None and error.code == code and error.retryable is retryable
        if status == 429:
            assert error.details["retry_after"] == 9.0 and error.hint == "retry after 9 s"
        assert toolkit.spent_by(run.run_id) == 2 * CREDIT  # the request reached Firecrawl


async def test_a_malformed_answer_is_protocol_never_no_results(api: ApiServer) -> None:
    stub = FirecrawlStub(api)
    stub.fail = json_response({"success": True, "data": {"web": {"not": "a list"}}})
    async with Toolkit(settings_for(api.base)) as toolkit:
        result = await toolkit.call("web_search", {"query": "q"})
    assert result.error is not None and result.error.code == "protocol"


async def test_a_timeout_after_sending_is_charged(api: ApiServer) -> None:
    FirecrawlStub(api)
    api.routes[("POST", "/v2/search")] = api.stalled(30)
    run = RunContext()
    async with Toolkit(settings_for(api.base, search_timeout_s=0.3)) as toolkit:
        result = await toolkit.call("web_search", {"query": "q"}, run=run)
        assert result.error is not None and result.error.code == "timeout"
        assert toolkit.spent_by(run.run_id) == 2 * CREDIT


async def test_a_search_cancelled_after_sending_is_charged(api: ApiServer) -> None:
    arrived = threading.Event()

    def stall(request: ApiRequest) -> ApiResponse:
        arrived.set()
        api.release.wait(30)
        return json_response({})

    FirecrawlStub(api)
    api.routes[("POST", "/v2/search")] = stall
    run = RunContext()
    async with Toolkit(settings_for(api.base), journal=MemoryJournal()) as toolkit:
        task = asyncio.create_task(toolkit.call("web_search", {"query": "q"}, run=run))
        assert await asyncio.to_thread(arrived.wait, 10)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert toolkit.spent_by(run.run_id) == 2 * CREDIT
        journal = toolkit.journal
        assert isinstance(journal, MemoryJournal)
        (failed,) = [e for e in journal.events if e.kind == "tool.failed"]
        assert failed.outcome == "cancelled" and failed.cost == 2 * CREDIT


async def test_the_budget_stops_a_search_before_it_is_sent(api: ApiServer) -> None:
    stub = FirecrawlStub(api, results=RESULTS)
    async with Toolkit(settings_for(api.base)) as toolkit:
        result = await toolkit.call(
            "web_search", {"query": "q", "max_results": 15}, run=RunContext(budget=3 * CREDIT)
        )
    assert result.error is not None and result.error.code == "budget_exceeded"
    assert stub.requests() == []


async def test_without_a_key_the_hosted_api_is_not_used_and_the_variable_is_named() -> None:
    settings = Settings.load(environ={}, journal_url="memory://", search_provider="firecrawl")
    async with Toolkit(settings) as toolkit:
        assert "web_search" not in [s.name for s in toolkit.tools()]
        assert "WEBRESEARCH_FIRECRAWL_API_KEY" in toolkit.unavailable["web_search"]


async def test_a_flat_price_in_prices_wins_over_credits(api: ApiServer) -> None:
    FirecrawlStub(api, results=RESULTS)
    run = RunContext()
    settings = settings_for(api.base).replace(prices={"firecrawl": 0.3})
    async with Toolkit(settings) as toolkit:
        result = await toolkit.call("web_search", {"query": "q", "max_results": 20}, run=run)
        assert result.ok and toolkit.spent_by(run.run_id) == 0.3
