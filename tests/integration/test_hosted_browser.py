"""browser_open (one-shot read), page_screenshot through a pixel-drawing browser, and the
screenshot service behind the browser's screenshot when the backend draws no pixels — on
real browsers (a launched Chromium, a launched Lightpanda) against pages on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from tests.support.api_server import ApiServer
from tests.support.hosted_stubs import FIRECRAWL_KEY, FirecrawlStub, StubPage
from tests.support.http_server import LocalServer, Route
from tests.support.tiny_png import png_bytes
from webresearch import RunContext, Settings, Toolkit
from webresearch.runtime.journal import MemoryJournal
from webresearch.tools.gates import backend_unavailable_reason
from webresearch.tools.page_text import UNTRUSTED_NOTICE

pytestmark = pytest.mark.network

HTML = [("Content-Type", "text/html; charset=utf-8")]
#: Text that exists only after the page's script ran (web_fetch's static read misses it).
RENDERED = "The fox article appears once the script has run."
APP = (
    "<!doctype html><html><head><title>Fox app</title></head><body><div id='app'>Loading</div>"
    "<script>document.getElementById('app').innerHTML = '<h1>Foxes</h1><p>"
    + RENDERED
    + "</p>';</script></body></html>"
).encode()
PNG = png_bytes(64, 40, (200, 10, 10))


def browser_settings(backend: str, **extra: Any) -> Settings:
    values: dict[str, Any] = {
        "environ": {},
        "allowed_networks": ["127.0.0.1/32"],
        "journal_url": "memory://",
        "search_provider": "none",
        "browser_backend": backend,
        "browser_rate_limit": None,
        **extra,
    }
    return Settings.load(**values)


def needs(backend: str) -> None:
    reason = backend_unavailable_reason(SimpleNamespace(settings=browser_settings(backend)))  # type: ignore[arg-type]
    assert reason is None, f"the test setup (scripts/test) installs the {backend} backend: {reason}"


@pytest.fixture
def site() -> Iterator[LocalServer]:
    with LocalServer() as srv:
        srv.routes["/app"] = Route(headers=HTML, body=APP)
        srv.routes["/gone"] = Route(status=404, headers=HTML, body=b"<h1>Not here</h1>")
        srv.routes["/shot.png"] = Route(headers=[("Content-Type", "image/png")], body=PNG)
        yield srv


def kinds(toolkit: Toolkit) -> list[str]:
    journal = toolkit.journal
    assert isinstance(journal, MemoryJournal)
    return [e.kind for e in journal.events]


async def test_browser_open_reads_the_rendered_page_and_closes_the_tab(site: LocalServer) -> None:
    needs("chromium")
    async with Toolkit(browser_settings("chromium"), journal=MemoryJournal()) as toolkit:
        assert "browser_open" in [s.name for s in toolkit.tools()]
        result = await toolkit.call("browser_open", {"url": f"{site.base}/app"})
        assert result.ok, result.text
        lines = result.text.splitlines()
        assert lines[:5] == [
            UNTRUSTED_NOTICE,
            f"url: {site.base}/app",
            "content-type: text/html",
            "title: Fox app",
            "",
        ]
        assert RENDERED in result.text and "Loading" not in result.text
        assert result.meta["render"] == "browser" and result.meta["status"] == 200
        assert result.meta["trust"] == "untrusted"
        # One-shot: the tab is gone, nothing is left in the session table.

        assert len(toolkit.services.browser.table) == 0
        journal = toolkit.journal
        assert isinstance(journal, MemoryJournal)
        actions = [e for e in journal.events if e.kind == "browser.action"]
        assert actions[-1].details["one_shot"] is True and actions[-1].details["outcome"] == "ok"

        gone = await toolkit.call("browser_open", {"url": f"{site.base}/gone"})
        assert gone.error is not None and gone.error.code == "http_status"
        assert gone.error.details["status"] == 404
        assert len(toolkit.services.browser.table) == 0

        for url in ("http://169.254.169.254/latest/", "http://10.0.0.1/"):
            refused = await toolkit.call("browser_open", {"url": url})
            assert refused.error is not None and refused.error.code == "blocked_address"
        offline = RunContext(network_access=False)
        assert "browser_open" not in [s.name for s in toolkit.tools(offline)]


async def test_page_screenshot_with_a_pixel_browser_and_no_service(site: LocalServer) -> None:
    needs("chromium")
    async with Toolkit(browser_settings("chromium"), journal=MemoryJournal()) as toolkit:
        assert "page_screenshot" in [s.name for s in toolkit.tools()]
        shot = await toolkit.call("page_screenshot", {"url": f"{site.base}/app"})
        assert shot.ok, shot.text
        (image,) = shot.images
        assert (image.meta["width"], image.meta["height"]) == (1280, 800)
        blind = await toolkit.call(
            "page_screenshot", {"url": f"{site.base}/app"}, run=RunContext(can_see_images=False)
        )
        assert blind.ok and blind.images == ()
        assert "cannot see images" in blind.text and RENDERED in blind.text

        assert len(toolkit.services.browser.table) == 0


async def test_without_pixels_or_a_service_page_screenshot_is_absent() -> None:
    needs("lightpanda")
    async with Toolkit(browser_settings("lightpanda"), journal=MemoryJournal()) as toolkit:
        assert "page_screenshot" not in [s.name for s in toolkit.tools()]
        assert "browser_open" in [s.name for s in toolkit.tools()]


async def test_the_service_draws_what_a_pixel_less_browser_cannot(site: LocalServer) -> None:
    needs("lightpanda")
    with ApiServer() as api:
        page_url = f"{site.base}/app"
        stub = FirecrawlStub(
            api,
            pages={
                page_url: StubPage(
                    "# Foxes\n\n" + RENDERED, title="Fox app", screenshot=f"{site.base}/shot.png"
                )
            },
        )
        settings = browser_settings(
            "lightpanda",
            screenshot_service="firecrawl",
            firecrawl_base_url=api.base,
            firecrawl_api_key=FIRECRAWL_KEY,
            firecrawl_credit_price=0.5,
        )
        run = RunContext()
        async with Toolkit(settings, journal=MemoryJournal()) as toolkit:
            assert (await toolkit.call("browser", {"action": "open", "url": page_url}, run=run)).ok
            shot = await toolkit.call("browser", {"action": "screenshot"}, run=run)
            assert shot.ok, shot.text
            (image,) = shot.images
            assert image.data == PNG
            assert shot.meta["rendered_by"] == "service" and shot.meta["backend"] == "lightpanda"
            assert "drawn by the screenshot service" in shot.text
            assert toolkit.spent_by(run.run_id) == 0.5
            # page_screenshot is offered: the service draws it.
            assert "page_screenshot" in [s.name for s in toolkit.tools(run)]
            await toolkit.call("browser", {"action": "close"}, run=run)
        assert len(stub.requests()) == 1
        assert stub.requests()[0].json()["url"] == page_url
