"""`open` waits for JavaScript-rendered content like web_fetch's render path does (issue 6
follow-up review: `browse …/spa.html --do content` was empty): load, then network and DOM
quiet, within the readiness budget (SPEC §1.4: 15 s)."""

from __future__ import annotations

import time
from http.server import BaseHTTPRequestHandler

import pytest

from tests.browser.conftest import Kit, Sites, browser_settings
from tests.support.http_server import Route
from webresearch import RunContext, Toolkit

pytestmark = pytest.mark.asyncio(loop_scope="session")

HTML = [("Content-Type", "text/html; charset=utf-8")]

TIMER = b"""<!doctype html><html><head><title>Timer SPA</title></head><body><div id="app"></div>
<script>setTimeout(() => { document.getElementById('app').innerHTML =
  '<h1>Rendered by a timer</h1><p>The timer article arrived after the load event.</p>'; }, 300);
</script></body></html>"""

FETCHING = b"""<!doctype html><html><head><title>Fetch SPA</title></head><body><div id="app">
<p>Loading...</p></div><script>setTimeout(() => fetch('/api/slow').then(r => r.json()).then(d => {
  document.getElementById('app').innerHTML = '<h1>' + d.title + '</h1><p>' + d.body + '</p>'; }), 200);
</script></body></html>"""

BUSY = b"""<!doctype html><html><head><title>Busy</title></head><body><p id="clock">0</p>
<h1>Always busy</h1><p>This page changes its DOM and polls the network forever.</p>
<script>let n = 0; setInterval(() => { document.getElementById('clock').textContent = ++n; }, 100);
setInterval(() => fetch('/api/poll').catch(() => {}), 150);</script></body></html>"""


def _slow(h: BaseHTTPRequestHandler) -> None:
    time.sleep(0.7)  # a slow API the page waits for (server side; the test never sleeps)
    body = b'{"title": "Rendered after a slow fetch", "body": "The fetched article text."}'
    h.send_response(200)
    h.send_header("Content-Type", "application/json")
    h.send_header("Content-Length", str(len(body)))
    h.end_headers()
    h.wfile.write(body)


@pytest.fixture
def spa_pages(sites: Sites) -> Sites:
    sites.site.routes.update(
        {
            "/spa-timer": Route(headers=HTML, body=TIMER),
            "/spa-fetch": Route(headers=HTML, body=FETCHING),
            "/busy": Route(headers=HTML, body=BUSY),
            "/api/slow": _slow,
            "/api/poll": Route(headers=[("Content-Type", "text/plain")], body=b"ok"),
        }
    )
    return sites


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("/spa-timer", "Rendered by a timer"),
        ("/spa-fetch", "Rendered after a slow fetch"),
    ],
)
async def test_content_right_after_open_has_the_rendered_page(
    kit: Kit, spa_pages: Sites, path: str, text: str
) -> None:
    run = RunContext()
    opened = await kit.call(run, action="open", url=f"{spa_pages.site.base}{path}")
    assert opened.ok, opened.text
    assert opened.meta["ready"] is True and opened.meta["settled"] is True
    content = await kit.call(run, action="content")  # no wait in between
    assert content.ok, content.text
    assert text in content.text
    assert "Loading..." not in content.text
    await kit.call(run, action="close")


async def test_browser_open_reads_the_rendered_page(kit: Kit, spa_pages: Sites) -> None:
    result = await kit.toolkit.call(
        "browser_open", {"url": f"{spa_pages.site.base}/spa-fetch"}, run=RunContext()
    )
    assert result.ok, result.text
    assert "Rendered after a slow fetch" in result.text and result.meta["settled"] is True


async def test_a_page_that_never_settles_returns_within_the_budget(spa_pages: Sites) -> None:
    async with Toolkit(browser_settings("lightpanda", browser_ready_timeout_s=1.5)) as toolkit:
        run = RunContext()
        started = time.monotonic()
        opened = await toolkit.call(
            "browser", {"action": "open", "url": f"{spa_pages.site.base}/busy"}, run=run
        )
        elapsed = time.monotonic() - started
    assert opened.ok, opened.text
    assert opened.meta["ready"] is True and opened.meta["settled"] is False
    assert "still changing after 1.5 s" in opened.text
    assert elapsed < 10, "bounded by the readiness budget (generous for a shared machine)"
