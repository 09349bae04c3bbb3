"""web_fetch behind hosted page readers (Firecrawl v2 scrape, Jina Reader) against local
servers speaking their documented formats: the output, the requests we send, the SSRF checks
before handing a URL over, error classification, caching and spending."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.api_server import ApiRequest, ApiResponse, ApiServer, json_response, raw_response
from tests.support.hosted_stubs import (
    FIRECRAWL_KEY,
    JINA_KEY,
    PROXY_TOKEN,
    FirecrawlStub,
    JinaStub,
    StubPage,
)
from webresearch import RunContext, Settings, Toolkit, ToolResult
from webresearch.readers.base import DOCUMENT_KEYS
from webresearch.runtime.journal import MemoryJournal
from webresearch.tools.page_text import UNTRUSTED_NOTICE

pytestmark = pytest.mark.network

STORY_URL = "https://news.example/story"
STORY = StubPage(
    markdown="# Foxes\n\nThe quick brown fox reads the whole article.\n\n- one\n- two\n",
    title="Fox story",
)
#: A public answer for the page hosts the tests use; ``internal.example`` is private.
DNS = {"news.example": ["93.184.216.34"], "internal.example": ["10.0.0.7"]}


async def resolver(host: str) -> list[str]:
    if host not in DNS:
        raise OSError("no such host")
    return DNS[host]


def settings_for(reader: str, base: str, **extra: Any) -> Settings:
    values: dict[str, Any] = {
        "environ": {},
        "allowed_networks": ["127.0.0.0/8"],
        "journal_url": "memory://",
        "search_provider": "none",
        "reader": reader,
        "robots": "ignore",  # the site is a public test address: see test_robots.py
    }
    if reader == "firecrawl":
        values.update(
            firecrawl_base_url=base,
            firecrawl_api_key=FIRECRAWL_KEY,
            firecrawl_headers={"X-Proxy-Token": PROXY_TOKEN},
            firecrawl_credit_price=0.25,
        )
    else:
        values.update(jina_base_url=base, jina_api_key=JINA_KEY, prices={"jina": 0.1})
    values.update(extra)
    return Settings.load(**values)


PRICE = {"firecrawl": 0.25, "jina": 0.1}


@pytest.fixture
def api() -> Iterator[ApiServer]:
    with ApiServer() as server:
        yield server


def stub_for(reader: str, api: ApiServer, **pages: StubPage) -> FirecrawlStub | JinaStub:
    if reader == "firecrawl":
        fc = FirecrawlStub(api)
        fc.pages.update({STORY_URL: STORY, **pages})
        return fc
    jina = JinaStub(api)
    jina.add(STORY_URL, STORY)
    for url, page in pages.items():
        jina.add(url, page)
    return jina


def toolkit_for(settings: Settings) -> Toolkit:
    return Toolkit(settings, journal=MemoryJournal(), resolver=resolver)


def events(toolkit: Toolkit, kind: str) -> list[Any]:
    journal = toolkit.journal
    assert isinstance(journal, MemoryJournal)
    return [e for e in journal.events if e.kind == kind]


READERS = pytest.mark.parametrize("reader", ["firecrawl", "jina"])


@READERS
async def test_the_page_comes_back_in_the_spec_format_with_the_service_named(
    reader: str, api: ApiServer
) -> None:
    stub = stub_for(reader, api)
    run = RunContext()
    async with toolkit_for(settings_for(reader, api.base)) as toolkit:
        result = await toolkit.call("web_fetch", {"url": STORY_URL}, run=run)
        assert result.ok, result.text
        lines = result.text.splitlines()
        assert lines[:5] == [
            UNTRUSTED_NOTICE,
            f"url: {STORY_URL}",
            "content-type: text/html",
            "title: Fox story",
            "",
        ]
        assert "\n".join(lines[5:]).strip() == STORY.markdown.strip()
        meta = result.meta
        assert meta["reader"] == reader and meta["extractor"] == reader
        assert meta["cached"] is False and meta["trust"] == "untrusted" and meta["status"] == 200
        assert DOCUMENT_KEYS - {"text", "markdown"} <= set(meta)
        assert meta["cost"] == PRICE[reader] == toolkit.spent_by(run.run_id)
        # A second read is the cache's: no request, no charge.
        again = await toolkit.call("web_fetch", {"url": STORY_URL}, run=run)
        assert again.meta["cached"] is True and "cost" not in again.meta
        assert toolkit.spent_by(run.run_id) == PRICE[reader]
        assert len(stub.requests()) == 1
        (done, _) = events(toolkit, "tool.completed")
        assert done.cost == PRICE[reader]
        (request_event,) = events(toolkit, "reader.request")
        assert request_event.details["service"] == reader
        assert request_event.details["outcome"] == "ok"


async def test_firecrawl_gets_the_documented_scrape_request(api: ApiServer) -> None:
    stub = FirecrawlStub(api, pages={STORY_URL: STORY})
    settings = settings_for("firecrawl", api.base, reader_timeout_s=20.0)
    async with toolkit_for(settings) as toolkit:
        assert (await toolkit.call("web_fetch", {"url": STORY_URL})).ok
    (request,) = stub.requests()
    assert (request.method, request.path) == ("POST", "/v2/scrape")
    assert request.headers["authorization"] == f"Bearer {FIRECRAWL_KEY}"
    assert request.headers["x-proxy-token"] == PROXY_TOKEN
    assert request.headers["content-type"] == "application/json"
    assert request.json() == {
        "url": STORY_URL,
        "formats": ["markdown"],
        "onlyMainContent": True,
        "timeout": 20000,
    }


async def test_jina_gets_the_url_appended_and_json_mode(api: ApiServer) -> None:
    stub = JinaStub(api)
    stub.add(STORY_URL, STORY)
    async with toolkit_for(settings_for("jina", api.base, reader_timeout_s=20.0)) as toolkit:
        assert (await toolkit.call("web_fetch", {"url": STORY_URL})).ok
    (request,) = stub.requests()
    assert (request.method, request.path) == ("GET", "/" + STORY_URL)
    assert request.headers["authorization"] == f"Bearer {JINA_KEY}"
    assert request.headers["accept"] == "application/json"
    assert request.headers["x-return-format"] == "markdown"
    assert request.headers["x-timeout"] == "20"


async def test_jina_without_a_key_sends_no_authorization(api: ApiServer) -> None:
    stub = JinaStub(api, key=None)
    stub.add(STORY_URL, STORY)
    settings = settings_for("jina", api.base, jina_api_key=None)
    async with toolkit_for(settings) as toolkit:
        assert (await toolkit.call("web_fetch", {"url": STORY_URL})).ok
    assert "authorization" not in stub.requests()[0].headers


async def test_jina_plain_markdown_mode_is_read_too(api: ApiServer) -> None:
    """A proxy (or an older instance) answering the plain mode instead of JSON."""
    text = (
        "Title: Fox story\n\nURL Source: https://news.example/story/\n\n"
        "Markdown Content:\n# Foxes\n\nPlain mode body.\n"
    )
    api.routes[("GET", "/" + STORY_URL)] = raw_response(text, 200, "text/plain; charset=utf-8")
    async with toolkit_for(settings_for("jina", api.base)) as toolkit:
        result = await toolkit.call("web_fetch", {"url": STORY_URL})
    assert result.ok, result.text
    assert "url: https://news.example/story/" in result.text
    assert "title: Fox story" in result.text and result.text.endswith("Plain mode body.")


async def test_firecrawl_keyless_self_hosted_instance(api: ApiServer) -> None:
    stub = FirecrawlStub(api, key=None, pages={STORY_URL: STORY})
    settings = settings_for("firecrawl", api.base, firecrawl_api_key=None, firecrawl_headers={})
    async with toolkit_for(settings) as toolkit:
        assert (await toolkit.call("web_fetch", {"url": STORY_URL})).ok
    assert "authorization" not in stub.requests()[0].headers


async def test_the_hosted_api_without_a_key_leaves_web_fetch_out_and_says_what_to_set() -> None:
    settings = Settings.load(
        environ={}, journal_url="memory://", search_provider="none", reader="firecrawl"
    )
    async with Toolkit(settings) as toolkit:
        assert "web_fetch" not in [s.name for s in toolkit.tools()]
        assert "WEBRESEARCH_FIRECRAWL_API_KEY" in toolkit.unavailable["web_fetch"]


@READERS
async def test_the_final_url_the_service_reports_is_shown(reader: str, api: ApiServer) -> None:
    moved = StubPage(
        "Moved text.", title="Moved", final_url="https://news.example/new?token=s3cr3t"
    )
    stub_for(reader, api, **{"https://news.example/old": moved})
    async with toolkit_for(settings_for(reader, api.base)) as toolkit:
        result = await toolkit.call("web_fetch", {"url": "https://news.example/old"})
    assert result.ok, result.text
    assert "url: https://news.example/new?token=[REDACTED]" in result.text
    assert result.meta["requested_url"] == "https://news.example/old"


@READERS
@pytest.mark.parametrize("odd", ["x", "/relative", "javascript:alert(1)", "ftp://h/f"])
async def test_a_reported_address_that_is_not_a_web_url_is_not_shown(
    reader: str, odd: str, api: ApiServer
) -> None:
    page = StubPage("Some text.", title="T", final_url=odd)
    stub_for(reader, api, **{"https://news.example/page": page})
    async with toolkit_for(settings_for(reader, api.base)) as toolkit:
        result = await toolkit.call("web_fetch", {"url": "https://news.example/page"})
    assert result.ok, result.text
    assert "url: https://news.example/page" in result.text  # the address asked for


async def test_a_firecrawl_answer_without_markdown_is_a_fetch_error(api: ApiServer) -> None:
    stub = FirecrawlStub(api)
    stub.fail = json_response({"success": True, "data": {"metadata": {}}}, 200)
    async with toolkit_for(settings_for("firecrawl", api.base)) as toolkit:
        result = await toolkit.call("web_fetch", {"url": STORY_URL})
    assert result.error is not None and result.error.code == "fetch_error"
    assert "without the page text" in result.error.message


@READERS
async def test_the_sites_own_error_status_is_http_status_and_charged(
    reader: str, api: ApiServer
) -> None:
    gone = StubPage("Not Found", title="404", status=404)
    stub = stub_for(reader, api, **{"https://news.example/gone": gone})
    run = RunContext()
    async with toolkit_for(settings_for(reader, api.base)) as toolkit:
        result = await toolkit.call("web_fetch", {"url": "https://news.example/gone"}, run=run)
        assert result.error is not None and result.error.code == "http_status"
        assert result.error.details["status"] == 404 and result.error.retryable is False
        assert "https://news.example/gone answered HTTP 404" in result.text
        assert result.error.details["reader"] == reader
        assert toolkit.spent_by(run.run_id) == PRICE[reader]  # the service was paid
    assert len(stub.requests()) == 1


BLOCKED = [
    ("http://169.254.169.254/latest/meta-data/", "blocked_address"),
    ("http://10.0.0.1/admin", "blocked_address"),
    ("http://localhost:8080/", "blocked_address"),
    ("http://internal.example/", "blocked_address"),  # resolves to 10.0.0.7 (DNS check)
    ("http://[::ffff:10.0.0.1]/", "blocked_address"),
    ("http://2130706433/", "blocked_address"),  # 127.0.0.1 as a decimal integer
    ("http://user:pw@news.example/", "blocked_address"),
    ("file:///etc/passwd", "invalid_arguments"),  # a non-http(s) scheme is a bad argument
    ("gopher://news.example/", "invalid_arguments"),
    ("http://unknown.example/", "network"),  # does not resolve: never handed over
]


@READERS
@pytest.mark.parametrize("url,code", BLOCKED)
async def test_urls_failing_the_ssrf_rules_are_never_handed_to_the_service(
    reader: str, url: str, code: str, api: ApiServer
) -> None:
    stub = stub_for(reader, api)
    run = RunContext()
    async with toolkit_for(settings_for(reader, api.base)) as toolkit:
        result = await toolkit.call("web_fetch", {"url": url}, run=run)
        assert result.error is not None and result.error.code == code, result.text
        assert toolkit.spent_by(run.run_id) == 0
    assert stub.requests() == []


ERRORS: list[tuple[int, list[tuple[str, str]], str, bool, float | None]] = [
    (401, [], "http_status", False, None),
    (402, [], "http_status", False, None),
    (403, [], "http_status", False, None),
    (408, [], "timeout", True, None),
    (429, [("Retry-After", "7")], "http_status", True, 7.0),
    (500, [], "http_status", True, None),
    (502, [], "http_status", True, None),
    (503, [], "http_status", True, None),
    (400, [], "http_status", False, None),
]


@READERS
@pytest.mark.parametrize("status,headers,code,retryable,retry_after", ERRORS)
async def test_service_errors_are_classified_like_fetch_errors_and_charged(
    reader: str,
    status: int,
    headers: list[tuple[str, str]],
    code: str,
    retryable: bool,
    retry_after: float | None,
    api: ApiServer,
) -> None:
    stub = stub_for(reader, api)
    body = (
        {"success": False, "error": "Bad Request: Invalid URL"}
        if reader == "firecrawl"
        else {"data": None, "code": status, "name": "X", "message": "Invalid URL", "status": 1}
    )
    stub.fail = json_response(body, status, headers)
    run = RunContext()
    async with toolkit_for(settings_for(reader, api.base)) as toolkit:
        result = await toolkit.call("web_fetch", {"url": STORY_URL}, run=run)
        error = result.error
        assert error is not None and error.code == code, result.text
        assert error.retryable is retryable
        assert error.details.get("retry_after") == retry_after
        assert error.details["service"] == reader and error.details["service_status"] == status
        assert "status" not in error.details  # the page's own status field stays unset
        name = "Firecrawl" if reader == "firecrawl" else "Jina Reader"
        assert name in error.message and "page service" in error.message
        if status == 429:
            assert error.hint == "retry after 7 s"
        if status == 400:
            assert "Invalid URL" in error.message
        # The request reached the service: the call is charged even though it failed.
        assert toolkit.spent_by(run.run_id) == PRICE[reader]
        (failed,) = events(toolkit, "tool.failed")
        assert failed.cost == PRICE[reader] and failed.error_code == code
    assert len(stub.requests()) == 1


@READERS
async def test_an_unreadable_answer_is_a_fetch_error(reader: str, api: ApiServer) -> None:
    stub = stub_for(reader, api)
    stub.fail = raw_response("<html><body>proxy login</body></html>", 200)
    async with toolkit_for(settings_for(reader, api.base)) as toolkit:
        result = await toolkit.call("web_fetch", {"url": STORY_URL})
    assert result.error is not None and result.error.code == "fetch_error"
    assert "HTML page" in result.error.message


async def test_a_firecrawl_answer_without_success_is_a_fetch_error(api: ApiServer) -> None:
    stub = FirecrawlStub(api)
    stub.fail = json_response({"success": False, "error": "Failed to scrape"}, 200)
    async with toolkit_for(settings_for("firecrawl", api.base)) as toolkit:
        result = await toolkit.call("web_fetch", {"url": STORY_URL})
    assert result.error is not None and result.error.code == "fetch_error"


@READERS
async def test_a_service_that_never_answers_times_out_and_is_charged(
    reader: str, api: ApiServer
) -> None:
    stub = stub_for(reader, api)
    route = api.stalled(30)
    stub.fail = None
    if reader == "firecrawl":
        api.routes[("POST", "/v2/scrape")] = route
    else:
        api.routes[("GET", "/" + STORY_URL)] = route
    run = RunContext()
    async with toolkit_for(settings_for(reader, api.base, reader_timeout_s=0.4)) as toolkit:
        result = await toolkit.call("web_fetch", {"url": STORY_URL}, run=run)
        assert result.error is not None and result.error.code == "timeout", result.text
        assert result.error.retryable is True
        assert toolkit.spent_by(run.run_id) == PRICE[reader]


@READERS
async def test_an_unreachable_service_is_network_and_not_charged(reader: str) -> None:
    with ApiServer() as closed:
        gone = closed.base
    run = RunContext()
    async with toolkit_for(settings_for(reader, gone)) as toolkit:
        result = await toolkit.call("web_fetch", {"url": STORY_URL}, run=run)
        assert result.error is not None and result.error.code == "network", result.text
        assert toolkit.spent_by(run.run_id) == 0


@READERS
async def test_the_budget_is_checked_before_anything_is_sent(reader: str, api: ApiServer) -> None:
    stub = stub_for(reader, api)
    run = RunContext(budget=PRICE[reader] * 1.5)
    async with toolkit_for(settings_for(reader, api.base)) as toolkit:
        first = await toolkit.call("web_fetch", {"url": STORY_URL}, run=run)
        second = await toolkit.call("web_fetch", {"url": "https://news.example/other"}, run=run)
    assert first.ok
    assert second.error is not None and second.error.code == "budget_exceeded"
    assert len(stub.requests()) == 1


@READERS
async def test_a_call_cancelled_after_the_request_left_is_still_charged(
    reader: str, api: ApiServer
) -> None:
    arrived = threading.Event()

    def stall(request: ApiRequest) -> ApiResponse:
        arrived.set()
        api.release.wait(30)
        return json_response({})

    stub = stub_for(reader, api)
    if reader == "firecrawl":
        api.routes[("POST", "/v2/scrape")] = stall
    else:
        api.routes[("GET", "/" + STORY_URL)] = stall
    run = RunContext()
    async with toolkit_for(settings_for(reader, api.base)) as toolkit:
        task = asyncio.create_task(toolkit.call("web_fetch", {"url": STORY_URL}, run=run))
        assert await asyncio.to_thread(arrived.wait, 10)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert toolkit.spent_by(run.run_id) == PRICE[reader]
        (failed,) = events(toolkit, "tool.failed")
        assert failed.outcome == "cancelled" and failed.cost == PRICE[reader]
    assert len(stub.requests()) == 1


@READERS
async def test_rate_limit_applies_on_a_miss_only(reader: str, api: ApiServer) -> None:
    stub = stub_for(reader, api)
    async with toolkit_for(settings_for(reader, api.base, fetch_rate_limit=1)) as toolkit:
        results: list[ToolResult] = [
            await toolkit.call("web_fetch", {"url": STORY_URL}),
            await toolkit.call("web_fetch", {"url": STORY_URL}),  # cached: free
            await toolkit.call("web_fetch", {"url": "https://news.example/other"}),
        ]
    assert results[0].ok and results[1].ok and results[1].meta["cached"] is True
    assert results[2].error is not None and results[2].error.code == "rate_limited"
    assert len(stub.requests()) == 1


@READERS
async def test_the_fetch_scope_applies_before_the_service_is_asked(
    reader: str, api: ApiServer
) -> None:
    stub = stub_for(reader, api)
    scoped = RunContext(fetch_scope="search_results")
    async with toolkit_for(settings_for(reader, api.base)) as toolkit:
        result = await toolkit.call("web_fetch", {"url": STORY_URL}, run=scoped)
    assert result.error is not None and result.error.code == "scope_denied"
    assert stub.requests() == []


@READERS
async def test_a_large_answer_is_read_in_the_worker_pool_with_the_same_result(
    reader: str, api: ApiServer
) -> None:
    # Parsing, cleaning and hashing an answer of ≥ 256 KiB runs in a worker (issue 14).
    big = StubPage("# Long\n\n" + "A sentence of the long page.\u200b\n\n" * 12_000, title="Long")
    gone = StubPage("Not Found " * 30_000, title="404", status=404)
    pages = {"https://news.example/long": big, "https://news.example/gone": gone}
    stub_for(reader, api, **pages)
    outcomes = []
    for workers in (0, 2):
        settings = settings_for(reader, api.base, cpu_workers=workers, fetch_cache_size=0)
        async with toolkit_for(settings) as toolkit:
            long = await toolkit.call("web_fetch", {"url": "https://news.example/long"})
            missing = await toolkit.call("web_fetch", {"url": "https://news.example/gone"})
            # reading the answer, formatting the long text; the error is no job done
            assert toolkit.services.cpu.describe()["jobs"] == 2
            assert toolkit.services.cpu.started is (workers > 0)
        assert long.ok, long.text
        assert long.meta["hidden_chars_removed"] == 12_000
        assert missing.error is not None and missing.error.details["status"] == 404
        meta = {k: v for k, v in long.meta.items() if k not in ("fetched_at", "operation_id")}
        outcomes.append((long.text, meta, missing.text, missing.error.to_dict()))
    assert outcomes[0] == outcomes[1]
