"""Acceptance: a scripted session on a local SPA on both backends (SPEC §1.4)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import Kit, Sites
from webresearch import RunContext

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_login_navigate_read_on_a_spa(kit: Kit, sites: Sites) -> None:
    run = RunContext()
    opened = await kit.call(run, action="open", url=f"{sites.site.base}/app/")
    assert opened.ok, opened.text
    assert "title: Acme" in opened.text
    assert opened.text.startswith("[untrusted web content")

    snap = await kit.call(run, action="snapshot")
    assert snap.ok, snap.text
    assert 'textbox "User name" [ref=' in snap.text
    user_ref = snap.text.split('textbox "User name" [ref=')[1].split("]")[0]

    filled = await kit.call(run, action="fill", ref=user_ref, text="alice")
    assert filled.ok, filled.text
    assert (await kit.call(run, action="fill", selector="#pw", text="secret")).ok
    clicked = await kit.call(run, action="click", selector="text=Log in")
    assert clicked.ok, clicked.text
    waited = await kit.call(run, action="wait", selector="text=Welcome, alice")
    assert waited.ok, waited.text

    # The SPA navigates with pushState and renders from an API call.
    assert (await kit.call(run, action="click", selector="#reports-link")).ok
    assert (await kit.call(run, action="wait", selector="#reports li")).ok
    content = await kit.call(run, action="content")
    assert content.ok, content.text
    assert "Quarterly report Q3" in content.text
    assert "url: " + sites.site.base + "/app/reports" in content.text
    assert content.meta["trust"] == "untrusted"

    # State persists between calls: the cookie is still there after a reload.
    reopened = await kit.call(run, action="open", url=f"{sites.site.base}/app/home")
    assert reopened.ok
    value = await kit.call(
        run, action="evaluate", expression="document.querySelector('h1').textContent"
    )
    assert 'value: "Welcome, alice"' in value.text

    shot = await kit.call(run, action="screenshot")
    assert shot.ok, shot.text
    if kit.backend == "chromium":
        assert len(shot.images) == 1
        block = shot.images[0]
        assert block.mime in ("image/png", "image/jpeg", "image/webp")
        assert (block.meta["width"], block.meta["height"]) == (1280, 800)
    else:
        # Lightpanda draws no real pixels: no picture goes to the model, the text does.
        assert shot.images == ()
        assert "cannot draw real screenshots" in shot.text
        assert "Welcome, alice" in shot.text

    closed = await kit.call(run, action="close")
    assert closed.ok and "closed" in closed.text
    after = await kit.call(run, action="content")
    assert after.error is not None and "no page open" in after.text

    actions = [
        e.details["action"]
        for e in await kit.journal.query(run_id=run.run_id, kind="browser.action")
    ]
    assert actions[:3] == ["open", "snapshot", "fill"]
    risks = {
        e.details["action"]: e.details["risk"]
        for e in await kit.journal.query(run_id=run.run_id, kind="browser.action")
    }
    assert (
        risks["click"] == "medium" and risks["fill"] == "medium" and risks["evaluate"] == "medium"
    )
    assert risks["content"] == "low" and risks["open"] == "low"


async def test_sessions_are_isolated(kit: Kit, sites: Sites) -> None:
    run = RunContext()
    other = RunContext()
    await kit.call(run, action="open", url=f"{sites.site.base}/plain")
    await kit.call(run, action="evaluate", expression="document.cookie = 'who=first'")
    await kit.call(other, action="open", url=f"{sites.site.base}/plain")
    seen = await kit.call(other, action="evaluate", expression="document.cookie")
    assert 'value: ""' in seen.text
    named = await kit.call(run, action="open", url=f"{sites.site.base}/plain2", session="side")
    assert named.ok
    mine = await kit.call(run, action="evaluate", expression="[location.pathname, document.cookie]")
    assert '"/plain"' in mine.text and "who=first" in mine.text
    side = await kit.call(run, action="evaluate", expression="document.cookie", session="side")
    assert 'value: ""' in side.text
    for r, s in ((run, None), (other, None), (run, "side")):
        args = {"action": "close"} if s is None else {"action": "close", "session": s}
        await kit.toolkit.call("browser", args, run=r)


async def test_evaluate_returns_json_and_exceptions_as_results(kit: Kit, sites: Sites) -> None:
    run = RunContext()
    await kit.call(run, action="open", url=f"{sites.site.base}/plain")
    value = await kit.call(
        run,
        action="evaluate",
        expression="new Promise(r => setTimeout(() => r({a: [1, 2], b: 'x'}), 10))",
    )
    assert value.ok and 'value: {"a": [1, 2], "b": "x"}' in value.text
    boom = await kit.call(run, action="evaluate", expression="() => { throw new Error('kaboom') }")
    assert boom.ok, "a page exception is a result, not a tool error"
    assert "exception:" in boom.text and "kaboom" in boom.text
    assert boom.meta["exception"] is True
    await kit.call(run, action="close")


async def test_stale_refs_after_navigation_never_click_something_else(
    kit: Kit, sites: Sites
) -> None:
    run = RunContext()
    await kit.call(run, action="open", url=f"{sites.site.base}/plain")
    snap = await kit.call(run, action="snapshot")
    ref = snap.text.split('link "next" [ref=')[1].split("]")[0]
    clicked = await kit.call(run, action="click", ref=ref)
    assert clicked.ok, clicked.text
    arrived = await kit.call(run, action="wait", selector="text=second plain page")
    assert arrived.ok and "/plain2" in arrived.text
    # The new document gets refs of its own; the old ref must not resolve to anything.
    await kit.call(run, action="snapshot")
    again = await kit.call(run, action="click", ref=ref)
    assert again.error is not None and again.error.code == "stale_ref"
    assert again.text.count("take a new snapshot") == 1, again.text  # said once (n-18)
    back = await kit.call(run, action="back")
    assert back.ok and "/plain" in back.text
    assert "note: the page navigated; earlier refs are stale" in back.text  # n-18
    stale = await kit.call(run, action="click", ref=ref)
    assert stale.error is not None and stale.error.code == "stale_ref"
    assert (await kit.call(run, action="forward")).ok
    await kit.call(run, action="close")


async def test_case_06_hidden_ssr_content_survives_browser_content(kit: Kit) -> None:
    from pathlib import Path

    from tests.support.http_server import LocalServer, load_case

    case = Path(__file__).parents[1] / "fixtures" / "cases" / "06-hidden-ssr-content"
    with LocalServer(load_case(case)) as server:
        run = RunContext()
        assert (await kit.call(run, action="open", url=f"{server.base}/")).ok
        content = await kit.call(run, action="content")
        await kit.call(run, action="close")
    assert content.ok, content.text
    assert "Transport-level routing lets one gateway forward each request" in content.text
    assert "ROUTE_UNKNOWN, POOL_DRAINING and ENVELOPE_TOO_LARGE" in content.text
    assert "window.__HYDRATE__" not in content.text
