"""Each HTTP provider against a local server speaking its API's documented format."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from tests.support.api_server import ApiServer, json_response, raw_response
from tests.support.search_stubs import (
    BRAVE,
    EMPTY_ANSWERS,
    EXA,
    PROVIDERS,
    SEARXNG,
    TAVILY,
    StubProvider,
    fixture_json,
)
from webresearch import RunContext, Toolkit
from webresearch.errors import SearchProtocolError
from webresearch.search.base import SearchOptions
from webresearch.search.exa import ExaProvider
from webresearch.search.normalize import normalize_response
from webresearch.search.registry import create_provider

pytestmark = pytest.mark.network


@pytest.fixture
def api() -> Iterator[ApiServer]:
    with ApiServer() as server:
        yield server


async def _search(stub: StubProvider, api: ApiServer, **options: Any) -> Any:
    provider = create_provider(stub.settings(api.base), stub.id)
    try:
        return await provider.search("python asyncio", SearchOptions(**options))
    finally:
        await provider.aclose()


# --- documented answers → normalised results --------------------------------------------------


async def test_searxng_documented_answer(api: ApiServer) -> None:
    SEARXNG.route(api, fixture_json("searxng"))
    raw = await _search(SEARXNG, api, max_results=10)
    response = normalize_response(raw, 10)
    urls = [r.url for r in response.results]
    assert urls == [
        "https://docs.python.org/3/library/asyncio.html",
        "https://realpython.com/async-io-python/?utm_source=x&token=[REDACTED]",
        "https://example.org/no-snippet",
    ]
    first = response.results[0]
    assert first.title == "asyncio — Asynchronous I/O — Python 3.12 documentation"
    assert first.snippet == (
        "asyncio is a library to write concurrent code using the async/await syntax & more."
    )
    assert first.engine == "google, duckduckgo, brave"
    assert response.results[1].title == ""  # null title
    assert "日本語" in response.results[1].snippet and "🐍" in response.results[1].snippet
    assert response.results[2].snippet == ""
    assert response.answers == ("asyncio is part of the standard library",)
    assert response.infoboxes[0].title == "Python (programming language)"
    assert response.infoboxes[0].text.startswith("Python is a high-level")
    assert [f.engine for f in response.unresponsive_engines] == ["qwant", "startpage"]
    assert response.suggestions == ("python asyncio tutorial", "python asyncio gather")
    assert raw.raw_count == 8


async def test_searxng_request_parameters(api: ApiServer) -> None:
    SEARXNG.route(api, EMPTY_ANSWERS["searxng"])
    await _search(SEARXNG, api, freshness="week", language="de", country="at", safesearch="strict")
    (request,) = api.requests()
    assert request.method == "GET" and request.path == "/search"
    assert request.param("format") == "json"
    assert request.param("q") == "python asyncio"
    assert request.param("pageno") == "1"
    assert request.param("time_range") == "week"
    assert request.param("language") == "de-AT"
    assert request.param("safesearch") == "2"


async def test_searxng_country_alone_is_reported_as_ignored(api: ApiServer) -> None:
    SEARXNG.route(api, EMPTY_ANSWERS["searxng"])
    raw = await _search(SEARXNG, api, country="fr")
    assert raw.ignored == ("country",)
    assert api.requests()[0].param("language") is None


async def test_brave_documented_answer_and_request(api: ApiServer) -> None:
    BRAVE.route(api, fixture_json("brave"))
    raw = await _search(BRAVE, api, max_results=5, freshness="month", country="us", language="en")
    (request,) = api.requests()
    assert request.headers["x-subscription-token"] == BRAVE.key
    assert request.headers["accept"] == "application/json"
    assert request.param("q") == "python asyncio"
    assert request.param("count") == "5"
    assert request.param("freshness") == "pm"
    assert request.param("country") == "US"
    assert request.param("search_lang") == "en"
    assert request.param("safesearch") == "moderate"
    response = normalize_response(raw, 5)
    assert [r.url for r in response.results] == [
        "https://docs.python.org/3/library/asyncio.html",
        "https://realpython.com/async-io-python/",
    ]
    assert response.results[0].snippet == (
        "asyncio is a library to write concurrent code using the async/await syntax."
    )
    assert response.results[1].title == "Python's asyncio: A Hands-On Walkthrough – Real Python"
    assert response.results[1].snippet.startswith("Async IO is a concurrent")  # extra_snippets
    assert response.infoboxes[0].text == (
        "Python is a high-level, general-purpose programming language."
    )


@pytest.mark.parametrize("freshness,code", [("day", "pd"), ("week", "pw"), ("year", "py")])
async def test_brave_freshness_codes(api: ApiServer, freshness: str, code: str) -> None:
    BRAVE.route(api, EMPTY_ANSWERS["brave"])
    raw = await _search(BRAVE, api, freshness=freshness)
    assert api.requests()[0].param("freshness") == code
    assert raw.results == ()


async def test_tavily_documented_answer_and_request(api: ApiServer) -> None:
    TAVILY.route(api, fixture_json("tavily"))
    raw = await _search(TAVILY, api, max_results=3, freshness="day", country="us")
    (request,) = api.requests()
    assert request.headers["authorization"] == f"Bearer {TAVILY.key}"
    body = request.json()
    assert body["query"] == "python asyncio"
    assert body["max_results"] == 3
    assert body["time_range"] == "day"
    assert body["include_answer"] is True
    assert str(TAVILY.key) not in request.body.decode()  # the key travels in the header only
    response = normalize_response(raw, 3)
    assert response.answers[0].startswith("asyncio is Python's standard library")
    assert [r.url for r in response.results] == [
        "https://docs.python.org/3/library/asyncio.html",
        "https://realpython.com/python-async-features/",
    ]
    # the real <code> tag is stripped; the escaped one is text the page showed, kept and
    # never turned into a tag
    assert response.results[1].snippet == "Learn how to use &lt;code>async&lt;/code> and await…"
    assert raw.ignored == ("country",)


async def test_exa_documented_answer_and_request(api: ApiServer) -> None:
    EXA.route(api, fixture_json("exa"))
    provider = ExaProvider(
        EXA.key or "",
        api.base,
        now=lambda: datetime(2024, 7, 10, 12, 0, tzinfo=UTC),
    )
    try:
        raw = await provider.search(
            "python asyncio", SearchOptions(max_results=4, freshness="week", country="de")
        )
    finally:
        await provider.aclose()
    (request,) = api.requests()
    assert request.headers["x-api-key"] == EXA.key
    body = request.json()
    assert body["numResults"] == 4
    assert body["startPublishedDate"] == "2024-07-03T12:00:00.000Z"
    assert body["userLocation"] == "DE"
    assert body["contents"] == {"highlights": True}
    response = normalize_response(raw, 4)
    assert response.results[0].snippet.startswith("asyncio is a library")
    assert " … It is used as a foundation" in response.results[0].snippet
    assert response.results[1].title == ""
    assert response.results[1].snippet.startswith("Full text with tags and")


@pytest.mark.parametrize("stub", PROVIDERS, ids=lambda s: s.id)
async def test_empty_documented_answer_is_no_results(api: ApiServer, stub: StubProvider) -> None:
    stub.route(api, EMPTY_ANSWERS[stub.id])
    async with Toolkit(stub.settings(api.base)) as toolkit:
        result = await toolkit.call("web_search", {"query": "zzqx nothing"})
    assert result.ok, result.text
    assert result.text.startswith('no results for "zzqx nothing" — rephrase the query')
    assert result.meta["results"] == 0


# --- errors: every provider, every class of failure ------------------------------------------

_ERRORS: list[tuple[str, Any, str, bool]] = [
    ("401", json_response({"error": "unauthorized"}, 401), "auth", False),
    ("402", json_response({"error": "payment required"}, 402), "quota", False),
    (
        "429",
        json_response({"error": "rate limited"}, 429, [("Retry-After", "17")]),
        "rate",
        True,
    ),
    ("400", json_response({"error": {"detail": "bad country"}}, 400), "bad_request", False),
    ("422", json_response({"detail": [{"msg": "query too long"}]}, 422), "bad_request", False),
    ("500", raw_response("<h1>Internal Server Error</h1>", 500), "upstream", True),
    ("503", raw_response("", 503, None), "upstream", True),
    ("404", raw_response("nope", 404, "text/plain"), "protocol", False),
    ("garbage", raw_response(b"\x00\xff{not json", 200, "application/json"), "protocol", False),
    ("html", raw_response("<!doctype html><title>Login</title>", 200), "protocol", False),
    ("json-array", json_response([1, 2, 3]), "protocol", False),
    ("wrong-shape", json_response({"message": "ok", "data": None}), "protocol", False),
    ("redirect", raw_response("", 302, None), "protocol", False),
]


@pytest.mark.parametrize("stub", PROVIDERS, ids=lambda s: s.id)
@pytest.mark.parametrize("name,answer,code,retryable", _ERRORS, ids=[e[0] for e in _ERRORS])
async def test_errors_are_classified_never_no_results(
    api: ApiServer, stub: StubProvider, name: str, answer: Any, code: str, retryable: bool
) -> None:
    if stub.id == "searxng" and name == "html":
        code = "protocol"  # case 22 B; its message is checked in test_search_case22
    stub.route(api, answer)
    async with Toolkit(stub.settings(api.base)) as toolkit:
        result = await toolkit.call("web_search", {"query": "python"})
    assert result.error is not None, result.text
    assert result.error.code == code
    assert result.error.retryable is retryable
    assert "no results" not in result.text
    assert api.base not in result.text and "127.0.0.1" not in result.text
    assert "Traceback" not in result.text and "JSONDecodeError" not in result.text
    assert "Expecting value" not in result.text
    assert api.count() == 1  # never retried
    if name == "429":
        assert result.error.details["retry_after"] == 17
        assert "retry after 17 s" in result.text
    if name == "400":
        assert "bad country" in result.text


async def test_brave_429_reset_header_windows(api: ApiServer) -> None:
    BRAVE.route(
        api,
        json_response(
            {"type": "ErrorResponse", "error": {"status": 429, "code": "RATE_LIMITED"}},
            429,
            [
                ("X-RateLimit-Limit", "1, 15000"),
                ("X-RateLimit-Remaining", "0, 14000"),
                ("X-RateLimit-Reset", "1, 1419704"),
            ],
        ),
    )
    async with Toolkit(BRAVE.settings(api.base)) as toolkit:
        result = await toolkit.call("web_search", {"query": "q"})
    assert result.error is not None and result.error.code == "rate"
    assert result.error.details["retry_after"] == 1.0


@pytest.mark.parametrize("stub", PROVIDERS, ids=lambda s: s.id)
async def test_timeout_is_classified(api: ApiServer, stub: StubProvider) -> None:
    stub.route(api, api.stalled(30))
    async with Toolkit(stub.settings(api.base, search_timeout_s=0.3)) as toolkit:
        result = await toolkit.call("web_search", {"query": "slow"})
    assert result.error is not None
    assert result.error.code == "timeout"
    assert result.error.retryable
    assert "0.3 s" in result.text or "in time" in result.text


@pytest.mark.parametrize("stub", PROVIDERS, ids=lambda s: s.id)
async def test_unreachable_provider_is_network(stub: StubProvider) -> None:
    with ApiServer() as closed:
        base = closed.base
    async with Toolkit(stub.settings(base)) as toolkit:
        result = await toolkit.call("web_search", {"query": "q"})
    assert result.error is not None
    assert result.error.code == "network"
    assert result.error.retryable
    assert base not in result.text


async def test_oversized_answer_is_protocol(api: ApiServer) -> None:
    SEARXNG.route(api, raw_response(b"{" + b" " * 200_000 + b"}", 200, "application/json"))
    provider = create_provider(SEARXNG.settings(api.base), "searxng")
    provider.endpoint.max_bytes = 100_000  # type: ignore[attr-defined]
    try:
        with pytest.raises(SearchProtocolError):
            await provider.search("q", SearchOptions())
    finally:
        await provider.aclose()


async def test_environment_proxy_is_not_used(
    api: ApiServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")
    monkeypatch.setenv("ALL_PROXY", "http://127.0.0.1:9")
    SEARXNG.route(api, EMPTY_ANSWERS["searxng"])
    async with Toolkit(SEARXNG.settings(api.base)) as toolkit:
        result = await toolkit.call("web_search", {"query": "q"}, run=RunContext())
    assert result.ok, result.text
    assert api.count("/search") == 1
