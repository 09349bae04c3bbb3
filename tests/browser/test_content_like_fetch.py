"""The browser reads a page as web_fetch does (review of session 7): ``content`` names the
page by web_fetch's title rule (the page's own title, without the site's name), and the
snapshot writes a ``|`` inside a table cell as ``\\|`` (web_fetch's markdown tables do), so
it is not read as a border between cells.

Before: ``content`` said ``title: How to Tune Widgets | Widget Blog`` where web_fetch says
``title: How to Tune Widgets``, and the snapshot's row read ``alpha | a | b | pipe inside``.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import Kit, Sites
from tests.support.http_server import Route
from webresearch import RunContext

pytestmark = pytest.mark.asyncio(loop_scope="session")

HTML = [("Content-Type", "text/html; charset=utf-8")]

TITLED = b"""<!doctype html><html><head><title>How to Tune Widgets | Widget Blog</title>
<meta property="og:title" content="How to Tune Widgets">
<meta property="og:site_name" content="Widget Blog"></head><body><main>
<h1>How to Tune Widgets</h1><p>Turn the small screw a quarter turn, then test the widget
again before you turn it any further.</p></main></body></html>"""

PIPES = b"""<!doctype html><html><head><title>Pipes</title></head><body>
<table><tr><th>name</th><th>left</th><th>right</th><th>note</th></tr>
<tr><td>alpha</td><td>a</td><td>b</td><td>pipe | inside</td></tr></table></body></html>"""


@pytest.fixture
def pages(sites: Sites) -> Sites:
    sites.site.routes.update(
        {
            "/like-fetch-title": Route(headers=HTML, body=TITLED),
            "/like-fetch-pipes": Route(headers=HTML, body=PIPES),
        }
    )
    return sites


async def test_content_uses_web_fetchs_title_rule(chromium: Kit, pages: Sites) -> None:
    run = RunContext()
    url = f"{pages.site.base}/like-fetch-title"
    opened = await chromium.call(run, action="open", url=url)
    assert opened.ok, opened.text
    content = await chromium.call(run, action="content")
    await chromium.call(run, action="close")
    assert content.ok, content.text
    fetched = await chromium.toolkit.call("web_fetch", {"url": url}, run=RunContext())
    assert "title: How to Tune Widgets\n" in fetched.text, fetched.text
    assert "title: How to Tune Widgets\n" in content.text, content.text


async def test_snapshot_escapes_a_pipe_inside_a_table_cell(kit: Kit, pages: Sites) -> None:
    run = RunContext()
    opened = await kit.call(run, action="open", url=f"{pages.site.base}/like-fetch-pipes")
    assert opened.ok, opened.text
    snapshot = await kit.call(run, action="snapshot")
    await kit.call(run, action="close")
    assert snapshot.ok, snapshot.text
    assert "alpha | a | b | pipe \\| inside" in snapshot.text, snapshot.text


TABBED = b"""<!doctype html><html><head><title>Crane shifts</title></head><body><main>
<h1>Crane shifts</h1><p>The harbour runs two shifts a day, and each shift keeps a log of every
lift, every lock checked and every reading of the wind gauge at the top of the cranes.</p>
<div role="tablist"><button role="tab" aria-controls="day">Day</button>
<button role="tab" aria-controls="night">Night</button></div>
<div id="day" role="tabpanel"><p>The day shift paints the cranes.</p></div>
<div id="night" role="tabpanel" hidden><p>The night shift greases every rail, tests the boom
brakes and writes the readings into the log the morning shift signs.</p></div>
</main></body></html>"""


async def test_content_says_when_it_holds_text_the_page_hides(chromium: Kit, sites: Sites) -> None:
    """review n-12: web_fetch said it in a note, the browser's content did not."""
    sites.site.routes["/like-fetch-tabs"] = Route(headers=HTML, body=TABBED)
    run = RunContext()
    opened = await chromium.call(run, action="open", url=f"{sites.site.base}/like-fetch-tabs")
    assert opened.ok, opened.text
    content = await chromium.call(run, action="content")
    await chromium.call(run, action="close")
    assert content.ok, content.text
    assert "writes the readings into the log" in content.text
    kept = content.meta["hidden_chars_kept"]
    assert isinstance(kept, int) and kept > 50
    assert f"note: {kept} letters of this text are hidden on the page itself" in content.text
