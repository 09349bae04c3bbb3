"""`open` waits for JavaScript-rendered content like web_fetch's render path does (issue 6
follow-up review: `browse …/spa.html --do content` was empty): load, then network and DOM
quiet, within the readiness budget (SPEC §1.4: 15 s)."""

from __future__ import annotations

import time
from http.server import BaseHTTPRequestHandler

import pytest

from tests.browser.conftest import BACKENDS, Kit, Sites, browser_settings
from tests.support.http_server import Route
from webresearch import RunContext, Toolkit
from webresearch.config.defaults import DEFAULT_BROWSER_READY_TIMEOUT_S

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

#: An app shell drawn by a timer well after the page went quiet (no request, no DOM change
#: until then: "settled" by network and DOM silence alone while still empty).
LATE_SHELL = b"""<!doctype html><html><head><title>Late SPA</title></head><body><div id="app"></div>
<script>setTimeout(() => { document.getElementById('app').innerHTML =
  '<h1>Drawn after one second</h1><p>The late article text is here now.</p>'; }, 1000);
</script></body></html>"""

#: A page with text whose script adds more much later: it must not wait for that.
TEXT_THEN_TIMER = b"""<!doctype html><html><head><title>Text page</title></head><body>
<h1>Static article</h1><p>This page has its text from the start; a late timer adds a line.</p>
<script>setTimeout(() => { document.body.insertAdjacentHTML('beforeend',
  '<p>Late addition</p>'); }, 4000);</script></body></html>"""

#: A page with text whose script draws more after 700 ms: no request, no change until then
#: (the networkidle silence of 0.5 s read it before the timer fired).
TEXT_AND_SHORT_TIMER = b"""<!doctype html><html><head><title>Short timer</title></head><body>
<h1>Release notes</h1><p>The list below is filled in by a script.</p><ul id="list"></ul>
<script>setTimeout(() => { document.getElementById('list').innerHTML =
  '<li>Drawn by a short timer</li>'; }, 700);</script></body></html>"""

#: A page with text whose script fetches the rest after the load event.
TEXT_THEN_FETCH = b"""<!doctype html><html><head><title>Fetching</title></head><body>
<h1>Orders</h1><p>Your orders are listed below.</p><div id="orders"></div>
<script>window.addEventListener('load', () => fetch('/api/slow').then(r => r.json())
  .then(d => { document.getElementById('orders').textContent = d.body; }));</script>
</body></html>"""

BUSY = b"""<!doctype html><html><head><title>Busy</title></head><body><p id="clock">0</p>
<h1>Always busy</h1><p>This page changes its DOM and polls the network forever.</p>
<script>let n = 0; setInterval(() => { document.getElementById('clock').textContent = ++n; }, 100);
setInterval(() => fetch('/api/poll').catch(() => {}), 150);</script></body></html>"""


#: App shells that broke: a script that throws, a script that does not load (404).
THROWING_SHELL = b"""<!doctype html><html><head><title>Broken app</title></head><body>
<div id="root"></div><script>throw new Error('the bundle failed');</script></body></html>"""
MISSING_SCRIPT_SHELL = b"""<!doctype html><html><head><title>Broken app</title></head><body>
<div id="root"></div><script src="/no-such-bundle.js"></script></body></html>"""
#: A script failed, but a timer still draws the page: it is waited for.
ERROR_THEN_TIMER_SHELL = b"""<!doctype html><html><head><title>Late SPA</title></head><body>
<div id="app"></div><script>throw new Error('an unrelated widget failed');</script>
<script>setTimeout(() => { document.getElementById('app').innerHTML =
  '<h1>Drawn despite the error</h1><p>The article text arrived after a failed widget.</p>'; }, 700);
</script></body></html>"""
#: The same with a longer timer (not counted as pending work) and a script that did not load.
MISSING_SCRIPT_THEN_LONG_TIMER_SHELL = b"""<!doctype html><html><head><title>Late SPA</title>
</head><body><div id="app"></div><script src="/no-such-widget.js"></script>
<script>setTimeout(() => { document.getElementById('app').innerHTML =
  '<h1>Drawn after a failed widget</h1><p>A long timer drew the article text.</p>'; }, 1500);
</script></body></html>"""


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
            "/spa-late": Route(headers=HTML, body=LATE_SHELL),
            "/canvas-only": Route(
                headers=HTML, body=b"<!doctype html><title>Drawing</title><canvas></canvas>"
            ),
            "/text-then-timer": Route(headers=HTML, body=TEXT_THEN_TIMER),
            "/text-short-timer": Route(headers=HTML, body=TEXT_AND_SHORT_TIMER),
            "/text-then-fetch": Route(headers=HTML, body=TEXT_THEN_FETCH),
            "/shell-throws": Route(headers=HTML, body=THROWING_SHELL),
            "/shell-missing-script": Route(headers=HTML, body=MISSING_SCRIPT_SHELL),
            "/shell-error-then-timer": Route(headers=HTML, body=ERROR_THEN_TIMER_SHELL),
            "/shell-error-then-long-timer": Route(
                headers=HTML, body=MISSING_SCRIPT_THEN_LONG_TIMER_SHELL
            ),
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
        ("/spa-late", "Drawn after one second"),
        ("/text-short-timer", "Drawn by a short timer"),
        ("/text-then-fetch", "The fetched article text."),
        ("/shell-error-then-timer", "Drawn despite the error"),
        ("/shell-error-then-long-timer", "Drawn after a failed widget"),
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
    # the 1.5 s readiness budget bounds it, not the default 15 s one (the browser's start is
    # inside ``elapsed``: 11 s was seen on 3 test workers with a review running beside them)
    assert elapsed < DEFAULT_BROWSER_READY_TIMEOUT_S - 1, "bounded by the readiness budget"


async def test_a_page_with_text_is_not_held_for_its_late_timers(kit: Kit, spa_pages: Sites) -> None:
    """The app-shell wait applies to empty pages only: a page with text settles as before."""
    run = RunContext()
    started = time.monotonic()
    opened = await kit.call(run, action="open", url=f"{spa_pages.site.base}/text-then-timer")
    elapsed = time.monotonic() - started
    content = await kit.call(run, action="content")
    await kit.call(run, action="close")
    assert opened.ok and content.ok, (opened.text, content.text)
    assert "Static article" in content.text
    assert "Late addition" not in content.text, "open waited for the 4 s timer"
    assert elapsed < 3.5


async def test_web_fetch_render_reads_a_late_app_shell(kit: Kit, spa_pages: Sites) -> None:
    result = await kit.toolkit.call(
        "web_fetch", {"url": f"{spa_pages.site.base}/spa-late"}, run=RunContext()
    )
    assert result.ok, result.text
    assert result.meta["render"] == "browser"
    assert "Drawn after one second" in result.text


async def test_content_of_a_page_without_text_says_what_to_do_in_the_browser(
    kit: Kit, spa_pages: Sites
) -> None:
    """The browser's own empty-page note: not web_fetch's "use the browser tool"."""
    run = RunContext()
    opened = await kit.call(run, action="open", url=f"{spa_pages.site.base}/canvas-only")
    content = await kit.call(run, action="content")
    await kit.call(run, action="close")
    assert opened.ok and content.ok, (opened.text, content.text)
    assert "use the browser tool" not in content.text
    assert "shows no readable text yet" in content.text
    assert "wait" in content.text and "snapshot" in content.text


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("path", ["/shell-throws", "/shell-missing-script"])
async def test_a_broken_app_shell_is_read_without_waiting_out_the_budget(
    backend: str, spa_pages: Sites, path: str
) -> None:
    # Before: a shell whose script threw or did not load kept open (and web_fetch's render)
    # waiting for the whole readiness budget, 15 s by default, for a page nothing draws.
    settings = browser_settings(backend, browser_ready_timeout_s=40.0)
    async with Toolkit(settings) as toolkit:
        run = RunContext()
        # the browser is started by a first page
        await toolkit.call(
            "browser", {"action": "open", "url": f"{spa_pages.site.base}/spa-timer"}, run=run
        )
        started = time.monotonic()
        opened = await toolkit.call(
            "browser", {"action": "open", "url": f"{spa_pages.site.base}{path}"}, run=run
        )
        elapsed = time.monotonic() - started
    assert opened.ok, opened.text
    assert opened.meta["ready"] is True and opened.meta["settled"] is True
    assert elapsed < 20, (
        "read on evidence, not after the 40 s budget (generous for a shared machine)"
    )
