"""page_screenshot over Firecrawl (screenshot and markdown in ONE request) against local
servers: the image through our pipeline, the text for a model that cannot see images at no
extra cost, and every way the picture can fail becoming "screenshot no longer available"."""

from __future__ import annotations

import base64
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest

from tests.support.api_server import ApiServer, json_response
from tests.support.hosted_stubs import FIRECRAWL_KEY, FirecrawlStub, StubPage
from tests.support.http_server import LocalServer, Route
from tests.support.tiny_png import png_bytes
from webresearch import RunContext, Settings, Toolkit
from webresearch.runtime.journal import MemoryJournal
from webresearch.tools.page_screenshot import BLIND_NOTE, UNAVAILABLE_NOTE
from webresearch.tools.page_text import UNTRUSTED_IMAGE_NOTICE, UNTRUSTED_NOTICE

pytestmark = pytest.mark.network

PAGE_URL = "https://news.example/story"
PAGE_TEXT = "# Foxes\n\nThe quick brown fox reads the whole article."
PNG = png_bytes(64, 40, (0, 128, 255))
PRICE = 0.5


async def resolver(host: str) -> list[str]:
    if host == "news.example":
        return ["93.184.216.34"]
    raise OSError("no such host")


@pytest.fixture
def api() -> Iterator[ApiServer]:
    with ApiServer() as server:
        yield server


@pytest.fixture
def release() -> Iterator[threading.Event]:
    event = threading.Event()
    yield event
    event.set()


@pytest.fixture
def shots(release: threading.Event) -> Iterator[LocalServer]:
    """Where the service's screenshot URLs point (Firecrawl's storage stand-in)."""

    def stall(h: BaseHTTPRequestHandler) -> None:
        release.wait(10)

    with LocalServer() as srv:
        png = [("Content-Type", "image/png")]
        srv.routes["/shot.png"] = Route(headers=png, body=PNG)
        srv.routes["/missing.png"] = Route(status=404, headers=[("Content-Type", "text/plain")])
        srv.routes["/html.png"] = Route(headers=[("Content-Type", "text/html")], body=b"<html>")
        srv.routes["/big.png"] = Route(headers=png, body=PNG + b"\0" * (5 * 1024 * 1024))
        srv.routes["/corrupt.png"] = Route(headers=png, body=PNG[:40])
        srv.routes["/slow.png"] = stall
        for i in range(1, 5):  # /r1 → /r2 → /r3 → /r4 → /shot.png
            target = "/shot.png" if i == 4 else f"/r{i + 1}"
            srv.routes[f"/r{i}"] = Route(status=302, headers=[("Location", "{BASE}" + target)])
        srv.routes["/to-metadata"] = Route(
            status=302, headers=[("Location", "http://169.254.169.254/latest/meta-data/")]
        )
        yield srv


def settings_for(base: str, **extra: Any) -> Settings:
    return Settings.load(
        environ={},
        allowed_networks=["127.0.0.0/8"],
        journal_url="memory://",
        search_provider="none",
        screenshot_service="firecrawl",
        firecrawl_base_url=base,
        firecrawl_api_key=FIRECRAWL_KEY,
        firecrawl_credit_price=PRICE,
        screenshot_download_timeout_s=1.0,
        robots="ignore",  # the site is a public test address: see test_robots.py
        **extra,
    )


def toolkit_for(settings: Settings) -> Toolkit:
    return Toolkit(settings, journal=MemoryJournal(), resolver=resolver)


def kinds(toolkit: Toolkit) -> list[str]:
    journal = toolkit.journal
    assert isinstance(journal, MemoryJournal)
    return [e.kind for e in journal.events]


def stub_with(api: ApiServer, screenshot: str | None) -> FirecrawlStub:
    page = StubPage(PAGE_TEXT, title="Fox story", screenshot=screenshot)
    return FirecrawlStub(api, pages={PAGE_URL: page})


async def test_a_model_that_sees_gets_the_picture_from_one_request(
    api: ApiServer, shots: LocalServer
) -> None:
    stub = stub_with(api, f"{shots.base}/shot.png")
    run = RunContext()
    async with toolkit_for(settings_for(api.base)) as toolkit:
        result = await toolkit.call("page_screenshot", {"url": PAGE_URL}, run=run)
        assert result.ok, result.text
        (image,) = result.images
        assert image.mime == "image/png" and image.data == PNG  # a passthrough PNG
        assert image.meta["width"] == 64 and image.meta["height"] == 40
        lines = result.text.splitlines()
        assert lines[:3] == [UNTRUSTED_IMAGE_NOTICE, f"url: {PAGE_URL}", "title: Fox story"]
        assert lines[3].startswith("screenshot: image/png 64×40 px")
        assert result.meta["screenshot"] == "image" and result.meta["reader"] == "firecrawl"
        assert toolkit.spent_by(run.run_id) == PRICE
    (request,) = stub.requests()
    assert request.path == "/v2/scrape"
    assert request.json()["formats"] == ["markdown", {"type": "screenshot", "fullPage": False}]
    assert request.headers["authorization"] == f"Bearer {FIRECRAWL_KEY}"
    (download,) = shots.log
    assert download.path == "/shot.png" and download.headers["accept"].startswith("image/")


async def test_a_model_that_cannot_see_gets_the_text_of_the_same_single_paid_request(
    api: ApiServer, shots: LocalServer
) -> None:
    stub = stub_with(api, f"{shots.base}/shot.png")
    run = RunContext(can_see_images=False)
    async with toolkit_for(settings_for(api.base)) as toolkit:
        assert "page_screenshot" in [s.name for s in toolkit.tools(run)]
        result = await toolkit.call("page_screenshot", {"url": PAGE_URL}, run=run)
        assert result.ok, result.text
        assert result.images == ()
        lines = result.text.splitlines()
        assert lines[:6] == [
            BLIND_NOTE,
            UNTRUSTED_NOTICE,
            f"url: {PAGE_URL}",
            "content-type: text/html",
            "title: Fox story",
            "",
        ]
        assert result.text.endswith(PAGE_TEXT)
        assert result.meta["screenshot"] == "text_instead"
        # Exactly one request to the service, exactly one charge, nothing downloaded.
        assert len(stub.requests()) == 1
        assert toolkit.spent_by(run.run_id) == PRICE
        journal = toolkit.journal
        assert isinstance(journal, MemoryJournal)
        (done,) = [e for e in journal.events if e.kind == "tool.completed"]
        assert done.cost == PRICE
    assert shots.log == []


async def test_an_inline_screenshot_needs_no_download(api: ApiServer) -> None:
    stub_with(api, "data:image/png;base64," + base64.b64encode(PNG).decode())
    async with toolkit_for(settings_for(api.base)) as toolkit:
        result = await toolkit.call("page_screenshot", {"url": PAGE_URL})
    assert result.ok and result.images[0].data == PNG


async def test_three_redirects_are_followed(api: ApiServer, shots: LocalServer) -> None:
    stub_with(api, f"{shots.base}/r2")  # r2 → r3 → r4 → shot.png: three redirects
    async with toolkit_for(settings_for(api.base)) as toolkit:
        result = await toolkit.call("page_screenshot", {"url": PAGE_URL})
    assert result.ok and result.images, result.text


FAILURES = [
    ("/missing.png", "http_status"),
    ("/html.png", "unsupported_content"),
    ("/big.png", "too_large"),
    ("/corrupt.png", "unsupported_content"),
    ("/r1", "too_many_redirects"),  # four redirects
    ("/to-metadata", "blocked_address"),  # a redirect into the metadata service
    ("/slow.png", "timeout"),
    ("http://10.0.0.9/shot.png", "blocked_address"),
    ("data:image/png;base64,%%%", "fetch_error"),
    (None, "fetch_error"),  # the service sent no screenshot
]


@pytest.mark.parametrize("target,code", FAILURES)
async def test_any_picture_failure_becomes_text_never_an_error(
    target: str | None, code: str, api: ApiServer, shots: LocalServer
) -> None:
    if target is not None and target.startswith("/"):
        target = shots.base + target
    stub = stub_with(api, target)
    run = RunContext()
    async with toolkit_for(settings_for(api.base)) as toolkit:
        result = await toolkit.call("page_screenshot", {"url": PAGE_URL}, run=run)
        assert result.ok, result.text
        assert result.images == ()
        assert result.text.startswith(UNAVAILABLE_NOTE + "\n" + UNTRUSTED_NOTICE)
        assert "screenshot no longer available" in result.text
        assert result.text.endswith(PAGE_TEXT)
        assert result.meta["screenshot"] == "unavailable"
        assert result.meta["screenshot_error"] == code
        assert "screenshot.unavailable" in kinds(toolkit)
        assert toolkit.spent_by(run.run_id) == PRICE  # one paid request, whatever happened
        # A failed picture is not cached: the next call asks the service again.
        await toolkit.call("page_screenshot", {"url": PAGE_URL}, run=run)
    assert len(stub.requests()) == 2


async def test_a_cached_capture_is_free_and_a_blind_entry_does_not_serve_a_seeing_model(
    api: ApiServer, shots: LocalServer
) -> None:
    stub = stub_with(api, f"{shots.base}/shot.png")
    blind, seeing = RunContext(can_see_images=False), RunContext()
    async with toolkit_for(settings_for(api.base)) as toolkit:
        first = await toolkit.call("page_screenshot", {"url": PAGE_URL}, run=blind)
        again = await toolkit.call("page_screenshot", {"url": PAGE_URL}, run=blind)
        assert first.meta["cached"] is False and again.meta["cached"] is True
        picture = await toolkit.call("page_screenshot", {"url": PAGE_URL}, run=seeing)
        assert picture.images and picture.meta["cached"] is False
        cached = await toolkit.call("page_screenshot", {"url": PAGE_URL}, run=seeing)
        assert cached.images[0].data == PNG and cached.meta["cached"] is True
        text = await toolkit.call("page_screenshot", {"url": PAGE_URL}, run=blind)
        assert text.images == () and text.meta["cached"] is True
    assert len(stub.requests()) == 2
    assert len(shots.log) == 1


async def test_a_page_url_failing_the_ssrf_rules_never_reaches_the_service(api: ApiServer) -> None:
    stub = stub_with(api, None)
    async with toolkit_for(settings_for(api.base)) as toolkit:
        for url in ("http://169.254.169.254/", "http://10.1.2.3/", "http://localhost/"):
            result = await toolkit.call("page_screenshot", {"url": url})
            assert result.error is not None and result.error.code == "blocked_address"
    assert stub.requests() == []


async def test_a_service_failure_is_the_calls_error(api: ApiServer) -> None:
    stub = stub_with(api, None)
    stub.fail = json_response({"success": False, "error": "Payment Required"}, 402)
    async with toolkit_for(settings_for(api.base)) as toolkit:
        result = await toolkit.call("page_screenshot", {"url": PAGE_URL})
    assert result.error is not None and result.error.code == "http_status"
    # the service's status, never read as the page's own
    assert result.error.details["service_status"] == 402 and "status" not in result.error.details
    assert not result.error.retryable


async def test_without_a_screenshot_service_the_tool_is_absent_and_nothing_is_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # no service, and a browser that draws no pixels (Lightpanda without a fallback)
    settings = Settings.load(
        environ={}, journal_url="memory://", search_provider="none", browser_backend="lightpanda"
    )
    async with Toolkit(settings) as toolkit:
        assert "page_screenshot" not in [s.name for s in toolkit.tools()]
        assert "page_screenshot" not in toolkit.unavailable
        result = await toolkit.call("page_screenshot", {"url": PAGE_URL})
        assert result.error is not None and result.error.code == "tool_unavailable"
        assert "screenshot service" in result.error.details["reason"]
    assert not [r for r in caplog.records if "page_screenshot" in r.getMessage()]


async def test_the_tool_needs_network_access(api: ApiServer) -> None:
    async with toolkit_for(settings_for(api.base)) as toolkit:
        assert "page_screenshot" in [s.name for s in toolkit.tools(RunContext())]
        offline = RunContext(network_access=False)
        assert "page_screenshot" not in [s.name for s in toolkit.tools(offline)]
