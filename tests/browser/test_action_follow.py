"""What an action on the page reports about where it led (new-user test, session 17): a
navigation the page starts shortly after a click or a key press is waited for and reported
on that action's result, and refs are called stale only when another document loaded — not
after ``history.pushState``, always after a reload of the same URL (SPEC §1.4)."""

from __future__ import annotations

import logging

import pytest

from tests.browser.conftest import Kit, Sites
from tests.support.http_server import Route
from webresearch import RunContext

pytestmark = pytest.mark.asyncio(loop_scope="session")

HTML = [("Content-Type", "text/html; charset=utf-8")]
STALE = "note: the page navigated; earlier refs are stale"
SAME_DOC = "note: the address changed but the page did not load a new document"

START = b"""<!doctype html><html><head><title>Harbour office</title></head><body>
<h1>Harbour office</h1>
<button id="later" onclick="this.textContent = 'Going'; setTimeout(() => { location = '/follow/timetable'; }, 400)">Timetable</button>
<input id="q" onkeydown="if (event.key === 'Enter') setTimeout(() => { location = '/follow/timetable?q=' + this.value; }, 300)">
<button id="tide" onclick="document.getElementById('out').textContent = 'High tide 14:05'">Tide</button>
<button id="push" onclick="history.pushState({}, '', '/follow/spa/fares'); document.getElementById('out').textContent = 'Fares'">Fares</button>
<a id="again" href="/follow/start">Reload</a>
<p id="out">Welcome</p>
</body></html>"""
#: review r-18a: a toast hidden after 900 ms, and a page polling in a loop (a fetch, then
#: a 30 ms timeout), made every click wait about a second.
TOAST = b"""<!doctype html><html><head><title>Harbour office</title></head><body>
<button id="save" onclick="const t = document.getElementById('toast'); t.textContent = 'Saved'; setTimeout(() => { t.textContent = ''; }, 900)">Save</button>
<p id="toast"></p></body></html>"""
POLLING = b"""<!doctype html><html><head><title>Harbour office</title></head><body>
<button id="tide" onclick="document.getElementById('out').textContent = 'High tide 14:05'">Tide</button>
<p id="out">Welcome</p>
<script>const poll = () => fetch('/follow/tick').then(() => setTimeout(poll, 30), () => setTimeout(poll, 30)); poll();</script>
</body></html>"""
TIMETABLE = b"""<!doctype html><html><head><title>Timetable</title></head><body>
<h1>Winter timetable</h1><p>Two crossings a day.</p></body></html>"""


def _serve(sites: Sites) -> str:
    sites.site.routes["/follow/start"] = Route(headers=HTML, body=START)
    sites.site.routes["/follow/timetable"] = Route(headers=HTML, body=TIMETABLE)
    sites.site.routes["/follow/toast"] = Route(headers=HTML, body=TOAST)
    sites.site.routes["/follow/polling"] = Route(headers=HTML, body=POLLING)
    sites.site.routes["/follow/tick"] = Route(headers=HTML, body=b"ok")
    return sites.site.base


def _ref(snapshot: str, name: str) -> str:
    return snapshot.split(f"{name} [ref=")[1].split("]")[0]


async def test_a_navigation_started_after_a_click_or_key_is_reported_on_it(
    kit: Kit, sites: Sites
) -> None:
    base = _serve(sites)
    run = RunContext()
    assert (await kit.call(run, action="open", url=f"{base}/follow/start")).ok
    clicked = await kit.call(run, action="click", selector="#later")
    assert clicked.ok, clicked.text
    assert f"url: {base}/follow/timetable\ntitle: Timetable" in clicked.text
    assert STALE in clicked.text

    assert (await kit.call(run, action="open", url=f"{base}/follow/start")).ok
    filled = await kit.call(run, action="fill", selector="#q", text="x")
    assert "filled 1 character\n" in filled.text  # one, singular (same test)
    pressed = await kit.call(run, action="press", key="Enter")
    assert pressed.ok, pressed.text
    assert f"url: {base}/follow/timetable?q=x\ntitle: Timetable" in pressed.text


async def test_a_click_that_starts_nothing_reports_the_same_page(kit: Kit, sites: Sites) -> None:
    base = _serve(sites)
    run = RunContext()
    assert (await kit.call(run, action="open", url=f"{base}/follow/start")).ok
    clicked = await kit.call(run, action="click", selector="#tide")
    assert clicked.ok, clicked.text
    assert f"url: {base}/follow/start\n" in clicked.text
    assert "note:" not in clicked.text
    content = await kit.call(run, action="content")
    assert "High tide 14:05" in content.text


async def test_refs_stay_valid_after_push_state_and_go_stale_after_a_reload(
    kit: Kit, sites: Sites
) -> None:
    base = _serve(sites)
    run = RunContext()
    assert (await kit.call(run, action="open", url=f"{base}/follow/start")).ok
    snap = await kit.call(run, action="snapshot")
    assert "valid until the page loads another document" in snap.text
    push, tide, again = (
        _ref(snap.text, n) for n in ('button "Fares"', 'button "Tide"', 'link "Reload"')
    )

    pushed = await kit.call(run, action="click", ref=push)
    assert pushed.ok, pushed.text
    assert f"url: {base}/follow/spa/fares" in pushed.text
    assert SAME_DOC in pushed.text and STALE not in pushed.text
    after_push = await kit.call(run, action="click", ref=tide)  # the same document: valid
    assert after_push.ok, after_push.text

    reloaded = await kit.call(run, action="click", ref=again)  # a new document
    assert reloaded.ok, reloaded.text
    assert STALE in reloaded.text
    reloaded_again = await kit.call(run, action="click", selector="#again")  # the same URL
    assert reloaded_again.ok, reloaded_again.text
    assert f"url: {base}/follow/start\n" in reloaded_again.text
    assert STALE in reloaded_again.text  # the URL did not change; the document did
    stale = await kit.call(run, action="click", ref=tide)
    assert not stale.ok and stale.error is not None and stale.error.code == "stale_ref"


async def test_a_toast_or_a_polling_page_does_not_hold_a_click(
    kit: Kit, sites: Sites, caplog: pytest.LogCaptureFixture
) -> None:
    base = _serve(sites)
    run = RunContext()
    caplog.set_level(logging.DEBUG, logger="webresearch.browser")
    assert (await kit.call(run, action="open", url=f"{base}/follow/toast")).ok
    caplog.clear()
    clicked = await kit.call(run, action="click", selector="#save")
    assert clicked.ok, clicked.text
    reasons = [r.getMessage() for r in caplog.records if "after the action" in r.getMessage()]
    assert reasons == ["after the action: nothing set off"]

    assert (await kit.call(run, action="open", url=f"{base}/follow/polling")).ok
    for _ in range(3):
        caplog.clear()
        clicked = await kit.call(run, action="click", selector="#tide")
        assert clicked.ok, clicked.text
        reasons = [r.getMessage() for r in caplog.records if "after the action" in r.getMessage()]
        assert reasons == ["after the action: nothing set off"], reasons


LINKS = b"""<!doctype html><html><head><title>Harbour links</title></head><body>
<a id="dead" href="/follow/gone">Old timetable</a>
<button id="late" onclick="setTimeout(() => { location = '/follow/gone?late'; }, 400)">Later</button>
<form action="/follow/gone"><input id="q" name="q"></form>
</body></html>"""
GONE = b"<!doctype html><title>Not here</title><p>No such page.</p>"


async def test_an_action_that_lands_on_an_error_page_says_its_status_as_open_does(
    kit: Kit, sites: Sites
) -> None:
    """A click on a link to a missing page said ``title: Error response`` and nothing of the
    404 that ``open`` reports (new-user test, session 18), and its metadata had no url or
    status: a click, a late navigation and a form sent by a key now say both."""
    base = _serve(sites)
    sites.site.routes["/follow/links"] = Route(headers=HTML, body=LINKS)
    sites.site.routes["/follow/gone"] = Route(status=404, headers=HTML, body=GONE)
    run = RunContext()
    for field, action in (("#dead", "click"), ("#late", "click"), ("#q", "press")):
        assert (await kit.call(run, action="open", url=f"{base}/follow/links")).ok
        if action == "click":
            result = await kit.call(run, action="click", selector=field)
        else:
            assert (await kit.call(run, action="fill", selector=field, text="x")).ok
            result = await kit.call(run, action="press", key="Enter")
        assert result.ok, result.text
        lines = result.text.splitlines()
        assert "title: Not here" in lines, result.text
        assert "status: 404" in lines, result.text
        assert any(line.startswith("note: the server answered HTTP 404") for line in lines)
        assert STALE in lines
        assert result.meta["status"] == 404
        assert str(result.meta["url"]).startswith(f"{base}/follow/gone")
    clicked = await kit.call(run, action="click", selector="p")  # stays: no status said
    assert clicked.ok, clicked.text
    assert "status:" not in clicked.text
    assert clicked.meta["url"] == f"{base}/follow/gone?q=x"
    assert "status" not in clicked.meta


SAVE = b"""<!doctype html><html><head><title>Harbour form</title></head><body>
<button id="save" onclick="fetch('/follow/saved').then(r => r.text()).then(() => { location = '/follow/timetable'; })">Save and continue</button>
</body></html>"""


async def test_a_result_names_one_page_when_the_page_moves_while_it_is_read(
    kit: Kit, sites: Sites
) -> None:
    """After a click whose ``fetch`` answer moves the page, the result named the new URL
    with an empty title, or the old page with the note that it navigated, in 3 of 20 runs
    (new-user test, session 18): the URL and the title were read one after the other while
    the document changed. Whenever the move lands, the lines name one page. Repeated: the
    failure depended on timing (no time is asserted)."""
    base = _serve(sites)
    sites.site.routes["/follow/save"] = Route(headers=HTML, body=SAVE)
    sites.site.routes["/follow/saved"] = Route(headers=[("Content-Type", "text/plain")], body=b"ok")
    run = RunContext()
    for _ in range(8):
        assert (await kit.call(run, action="open", url=f"{base}/follow/save")).ok
        clicked = await kit.call(run, action="click", selector="#save")
        assert clicked.ok, clicked.text
        lines = clicked.text.splitlines()
        if STALE in lines:
            assert lines[2:4] == [f"url: {base}/follow/timetable", "title: Timetable"], lines
        else:
            assert lines[2:4] == [f"url: {base}/follow/save", "title: Harbour form"], lines
        await kit.call(run, action="wait", ms=300)  # a move the result did not see lands
