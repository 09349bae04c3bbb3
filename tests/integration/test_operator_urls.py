"""Operator settings in the forms operators paste (issue 21 item 2), against local servers.

Each service's base URL works with or without the path the service documents, with or
without a trailing slash, under a reverse proxy's sub-path; a form that would send requests
to a wrong path is refused when the Toolkit starts (exit 2 in the CLI), naming the setting and
the expected form — never a ``protocol`` error at the first call. Redis and PostgreSQL URLs:
``tests/fleet/test_url_forms.py``; the pure rules: ``tests/unit/test_operator_urls.py``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner

from tests.support.api_server import ApiRequest, ApiResponse, ApiServer, json_response
from tests.support.hosted_stubs import FIRECRAWL_KEY, JINA_KEY, FirecrawlStub, JinaStub, StubPage
from tests.support.http_server import LocalServer, Route
from webresearch import Settings, Toolkit
from webresearch.browser.discovery import discover, normalize_cdp_url
from webresearch.cli.main import cli
from webresearch.runtime.journal import MemoryJournal

pytestmark = pytest.mark.network

PAGE_URL = "https://news.example/story"
PAGE = StubPage(markdown="# Foxes\n\nThe quick brown fox reads the article.\n", title="Fox")


async def _public(host: str) -> list[str]:
    return ["93.184.216.34"]


def _searxng_answer(request: ApiRequest) -> ApiResponse:
    query = request.query.get("q", [""])[0]
    return json_response(
        {
            "query": query,
            "results": [
                {"title": f"Result for {query}", "url": "https://a.example/", "content": "c"}
            ],
            "unresponsive_engines": [],
        }
    )


@pytest.fixture(scope="module")
def searxng() -> Iterator[ApiServer]:
    """A SearXNG at the root and one behind a proxy under /searx (only the real paths answer)."""
    with ApiServer() as server:
        server.routes[("GET", "/search")] = _searxng_answer
        server.routes[("GET", "/searx/search")] = _searxng_answer
        yield server


def _settings(**values: Any) -> Settings:
    return Settings.load(environ={}, journal_url="memory://", **values)


SEARXNG_FORMS = [
    "",
    "/",
    "/search",
    "/search/",
    "/searx",
    "/searx/",
    "/searx/search",
    "/searx/search/",
]


@pytest.mark.parametrize("form", SEARXNG_FORMS)
async def test_searxng_urls_in_every_pasted_form_search(searxng: ApiServer, form: str) -> None:
    async with Toolkit(_settings(searxng_url=searxng.base + form), journal=MemoryJournal()) as tk:
        result = await tk.call("web_search", {"query": "foxes"})
    assert result.ok, result.text
    assert "Result for foxes" in result.text
    wanted = "/searx/search" if form.startswith("/searx") else "/search"
    assert searxng.requests()[-1].path == wanted


SEARXNG_REFUSED = [
    ("/search?format=json", "without ?query or #fragment"),
    ("/searx#top", "without ?query or #fragment"),
    ("/v1/search", "ends in an API path (/v1/…)"),
]


@pytest.mark.parametrize(("form", "why"), SEARXNG_REFUSED)
def test_searxng_urls_that_would_miss_are_refused_at_start(
    searxng: ApiServer, form: str, why: str
) -> None:
    before = len(searxng.requests())
    toolkit = Toolkit(_settings(searxng_url=searxng.base + form), journal=MemoryJournal())
    reason = toolkit.unavailable["web_search"]
    assert reason.startswith("WEBRESEARCH_SEARXNG_URL ") and why in reason
    assert "e.g. http://searxng:8080" in reason and "127.0.0.1" not in reason
    env = {"WEBRESEARCH_SEARXNG_URL": searxng.base + form, "WEBRESEARCH_JOURNAL_URL": "memory://"}
    done = CliRunner().invoke(cli, ["search", "foxes"], env=env)
    assert done.exit_code == 2, done.output
    assert "WEBRESEARCH_SEARXNG_URL" in done.output and "127.0.0.1" not in done.output
    assert len(searxng.requests()) == before  # nothing was sent anywhere


def _firecrawl(base_url: str) -> Settings:
    return _settings(
        reader="firecrawl", firecrawl_base_url=base_url, firecrawl_api_key=FIRECRAWL_KEY
    )


@pytest.fixture(scope="module")
def firecrawl() -> Iterator[ApiServer]:
    with ApiServer() as server:
        stub = FirecrawlStub(server)
        stub.pages[PAGE_URL] = PAGE
        server.routes[("POST", "/fc/v2/scrape")] = stub.scrape  # behind a proxy's sub-path
        yield server


@pytest.mark.parametrize(
    "form", ["", "/", "/v2", "/v2/", "/v2/scrape", "/v2/search/", "/fc", "/fc/", "/fc/v2/scrape"]
)
async def test_firecrawl_base_urls_in_every_pasted_form_read(
    firecrawl: ApiServer, form: str
) -> None:
    settings = _firecrawl(firecrawl.base + form)
    async with Toolkit(settings, journal=MemoryJournal(), resolver=_public) as tk:
        result = await tk.call("web_fetch", {"url": PAGE_URL})
    assert result.ok, result.text
    assert "The quick brown fox" in result.text
    wanted = "/fc/v2/scrape" if form.startswith("/fc") else "/v2/scrape"
    assert firecrawl.requests()[-1].path == wanted


@pytest.mark.parametrize("form", ["/v1", "/v1/scrape", "/v0/", "/fc/v1"])
def test_a_firecrawl_api_version_we_do_not_speak_is_refused_at_start(
    firecrawl: ApiServer, form: str
) -> None:
    toolkit = Toolkit(_firecrawl(firecrawl.base + form), journal=MemoryJournal())
    reason = toolkit.unavailable["web_fetch"]
    assert "WEBRESEARCH_FIRECRAWL_BASE_URL ends in an API path" in reason
    assert "/v2/scrape, /v2/search" in reason and "127.0.0.1" not in reason
    env = {
        "WEBRESEARCH_READER": "firecrawl",
        "WEBRESEARCH_FIRECRAWL_BASE_URL": firecrawl.base + form,
        "WEBRESEARCH_FIRECRAWL_API_KEY": FIRECRAWL_KEY,
        "WEBRESEARCH_JOURNAL_URL": "memory://",
    }
    done = CliRunner().invoke(cli, ["fetch", PAGE_URL], env=env)
    assert done.exit_code == 2, done.output
    assert "WEBRESEARCH_FIRECRAWL_BASE_URL" in done.output


@pytest.fixture(scope="module")
def jina() -> Iterator[ApiServer]:
    with ApiServer() as server:
        stub = JinaStub(server)
        stub.add(PAGE_URL, PAGE)
        route = server.routes[("GET", "/" + PAGE_URL)]
        server.routes[("GET", "/jina/" + PAGE_URL)] = route
        yield server


@pytest.mark.parametrize("form", ["", "/", "/jina", "/jina/"])
async def test_jina_base_urls_with_a_slash_or_a_sub_path_read(jina: ApiServer, form: str) -> None:
    settings = _settings(reader="jina", jina_base_url=jina.base + form, jina_api_key=JINA_KEY)
    async with Toolkit(settings, journal=MemoryJournal(), resolver=_public) as tk:
        result = await tk.call("web_fetch", {"url": PAGE_URL})
    assert result.ok, result.text
    assert "The quick brown fox" in result.text
    assert jina.requests()[-1].path == ("/jina/" if form.startswith("/jina") else "/") + PAGE_URL


def test_a_jina_base_url_with_a_query_is_refused_at_start(jina: ApiServer) -> None:
    settings = _settings(reader="jina", jina_base_url=jina.base + "/?key=1", jina_api_key=JINA_KEY)
    reason = Toolkit(settings, journal=MemoryJournal()).unavailable["web_fetch"]
    assert "WEBRESEARCH_JINA_BASE_URL must be the service's base URL" in reason


# --- CDP endpoints: discovery dials /json/version under the base, whatever was pasted --------


@pytest.fixture(scope="module")
def devtools() -> Iterator[LocalServer]:
    """A DevTools HTTP endpoint (root and under a proxy's /chrome): /json/version only."""
    with LocalServer() as server:
        for prefix in ("", "/chrome"):
            server.routes[f"{prefix}/json/version"] = Route(
                headers=[("Content-Type", "application/json")],
                body=json.dumps(
                    {
                        "Browser": "HeadlessChrome/1",
                        "webSocketDebuggerUrl": "ws://0.0.0.0:9222/devtools/browser/abc",
                    }
                ).encode(),
            )
        yield server


CDP_FORMS = ["", "/", "/json/version", "/json/version/", "/json", "/chrome", "/chrome/json/version"]


@pytest.mark.parametrize("form", CDP_FORMS)
async def test_cdp_urls_in_every_pasted_form_are_discovered(
    devtools: LocalServer, form: str
) -> None:
    settings = _settings(browser_cdp_url=devtools.base + form)
    configured = settings.browser_cdp_url
    assert configured is not None and settings.browser_backend == "cdp"
    endpoint = await discover(normalize_cdp_url(configured.get_secret_value()))
    host = devtools.base.removeprefix("http://")
    assert endpoint.ws_url == f"ws://{host}/devtools/browser/abc"
    assert (
        devtools.log[-1].path == ("/chrome" if form.startswith("/chrome") else "") + "/json/version"
    )


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("cdp://127.0.0.1:9222", "http://127.0.0.1:9222"),
        ("http://127.0.0.1:9222/devtools/browser/abc", "ws://127.0.0.1:9222/devtools/browser/abc"),
        ("wss://cdp.example/?token=T", "wss://cdp.example?token=T"),
    ],
)
def test_cdp_urls_are_settled_when_the_settings_load(given: str, expected: str) -> None:
    for name in ("browser_cdp_url", "browser_screenshot_fallback_url"):
        value = getattr(_settings(**{name: given}), name)
        assert value.get_secret_value() == expected


@pytest.mark.parametrize(
    "given", ["ftp://127.0.0.1:9222", "http://127.0.0.1:99999", "127.0.0.1:9222"]
)
def test_a_cdp_url_that_cannot_work_stops_the_cli_with_exit_2(given: str) -> None:
    env = {"WEBRESEARCH_BROWSER_CDP_URL": given, "WEBRESEARCH_JOURNAL_URL": "memory://"}
    done = CliRunner().invoke(cli, ["fetch", "https://a.example/"], env=env)
    assert done.exit_code == 2, done.output
    assert "WEBRESEARCH_BROWSER_CDP_URL" in done.output and "9222" not in done.output
