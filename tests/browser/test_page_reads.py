"""The top document's reads go through one CDP ``Runtime.evaluate`` (browser/page_eval.py):
a page whose own script breaks the read gives a clear error and leaves the session usable;
the snapshot's arguments reach the page."""

from __future__ import annotations

import pytest

from tests.browser.conftest import Kit, Sites
from tests.support.http_server import Route
from webresearch import RunContext

pytestmark = pytest.mark.asyncio(loop_scope="session")

HTML = [("Content-Type", "text/html; charset=utf-8")]

#: A page whose script makes the document's root element unreadable.
BROKEN_ROOT = b"""<!doctype html><html><head><title>Broken root</title></head><body>
<h1>Hidden root</h1><p>This page breaks documentElement for every script.</p>
<script>Object.defineProperty(document, 'documentElement', {get() {
  throw new TypeError('the root is not for you'); }});</script></body></html>"""

PLAIN = b"""<!doctype html><html><head><title>Plain page</title></head><body>
<h1>A plain page</h1><p>Readable text after the broken one.</p>
<p><a href="#next">Next link</a></p></body></html>"""


@pytest.fixture
def pages(sites: Sites) -> Sites:
    sites.site.routes.update(
        {
            "/reads-broken-root": Route(headers=HTML, body=BROKEN_ROOT),
            "/reads-plain": Route(headers=HTML, body=PLAIN),
        }
    )
    return sites


async def test_a_page_that_breaks_the_read_gives_a_clear_error(kit: Kit, pages: Sites) -> None:
    run = RunContext()
    opened = await kit.call(run, action="open", url=f"{pages.site.base}/reads-broken-root")
    assert opened.ok, opened.text
    content = await kit.call(run, action="content")
    assert content.error is not None and content.error.code == "browser", content.text
    assert (
        "reading the page failed: a script of the page broke it "
        "(TypeError: the root is not for you)" in content.text
    )
    # The session is still usable.
    again = await kit.call(run, action="open", url=f"{pages.site.base}/reads-plain")
    assert again.ok, again.text
    assert "title: Plain page" in again.text
    text = await kit.call(run, action="content")
    assert text.ok and "Readable text after the broken one." in text.text
    snapshot = await kit.call(run, action="snapshot")
    await kit.call(run, action="close")
    assert snapshot.ok, snapshot.text
    assert 'link "Next link" [ref=d' in snapshot.text  # the stamp argument reached the page
