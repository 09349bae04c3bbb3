"""Dialogs never wedge a session; iframes; long pages; scrolling (both backends)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import Kit, Sites
from webresearch import RunContext

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_confirm_dialog_never_blocks_later_actions(kit: Kit, sites: Sites) -> None:
    run = RunContext()
    assert (await kit.call(run, action="open", url=f"{sites.site.base}/dialogs")).ok
    for _ in range(3):
        clicked = await kit.call(run, action="click", selector="#confirm")
        assert clicked.ok, clicked.text
        assert "confirm dialog was" in clicked.text
    out = await kit.call(
        run, action="evaluate", expression="document.getElementById('out').textContent"
    )
    assert 'value: "cancelled"' in out.text  # default policy: dismiss
    for selector in ("#alert", "#prompt"):
        assert (await kit.call(run, action="click", selector=selector)).ok
    snap = await kit.call(run, action="snapshot")
    assert snap.ok and "Delete" in snap.text
    dialogs = await kit.journal.query(run_id=run.run_id, kind="browser.dialog")
    assert [e.details["type"] for e in dialogs][:3] == ["confirm", "confirm", "confirm"]
    assert {e.details["type"] for e in dialogs} >= {"confirm", "alert", "prompt"}
    assert dialogs[0].details["message"] == "Delete everything?"
    await kit.call(run, action="close")


async def test_alert_during_load_does_not_wedge_open(kit: Kit, sites: Sites) -> None:
    run = RunContext()
    opened = await kit.call(run, action="open", url=f"{sites.site.base}/alert-on-load")
    assert opened.ok, opened.text
    after = await kit.call(
        run, action="evaluate", expression="document.getElementById('x').textContent"
    )
    assert 'value: "after"' in after.text
    await kit.call(run, action="close")


async def test_iframe_content_and_elements(kit: Kit, sites: Sites) -> None:
    # Lightpanda loads iframes because it is launched with --load-resources iframe.
    run = RunContext()
    assert (await kit.call(run, action="open", url=f"{sites.site.base}/frames")).ok
    snap = await kit.call(run, action="snapshot")
    assert 'iframe "Inner frame"' in snap.text
    assert 'button "Frame button" [ref=' in snap.text
    ref = snap.text.split('button "Frame button" [ref=')[1].split("]")[0]
    assert (await kit.call(run, action="click", ref=ref)).ok
    clicked = await kit.call(
        run,
        action="evaluate",
        expression="document.getElementById('inner').contentDocument.body.dataset.clicked",
    )
    assert 'value: "yes"' in clicked.text
    content = await kit.call(run, action="content")
    assert "Outer page" in content.text and "lighthouse keeper" in content.text
    await kit.call(run, action="close")


async def test_long_page_scrolls_and_full_page_screenshot_is_tiles(
    chromium: Kit, sites: Sites
) -> None:
    run = RunContext()
    assert (await chromium.call(run, action="open", url=f"{sites.site.base}/long")).ok
    scrolled = await chromium.call(run, action="scroll", direction="down", amount=1000)
    assert "y=1000" in scrolled.text and "page height 12000" in scrolled.text
    shot = await chromium.call(run, action="screenshot", full_page=True)
    assert shot.ok, shot.text
    assert len(shot.images) == 4  # a few viewport-sized tiles, never one squashed sliver
    for block in shot.images:
        assert block.meta["width"] == 1280 and block.meta["height"] == 800
    assert "covering 3200 of 12000 px" in shot.text
    assert "scroll down and take another screenshot" in shot.text
    await chromium.call(run, action="close")


async def test_scroll_element_into_view_and_wait(kit: Kit, sites: Sites) -> None:
    run = RunContext()
    assert (await kit.call(run, action="open", url=f"{sites.site.base}/long")).ok
    assert (await kit.call(run, action="scroll", selector="text=section 20")).ok
    waited = await kit.call(run, action="wait", selector="text=section 29")
    assert waited.ok, waited.text
    missing = await kit.call(run, action="click", selector="#does-not-exist")
    assert missing.error is not None and "no element matches" in missing.text
    await kit.call(run, action="close")
