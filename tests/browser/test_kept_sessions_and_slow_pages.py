"""Issue 15 phase B on real browsers, with settings of their own: a named session's cookies
and local storage kept in the workspace when the operator opts in (never by default), and a
call's ``timeout_ms`` that gives a slow page more time than the action timeout — up to the
ceiling."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.browser.conftest import BACKENDS, Sites, browser_settings
from tests.browser.pages import slow_page
from tests.support.http_server import Route
from webresearch import RunContext, Toolkit

pytestmark = pytest.mark.asyncio(loop_scope="session")

HTML = [("Content-Type", "text/html; charset=utf-8")]
SHOP = b"""<!doctype html><html><head><title>Shop</title></head><body><p>shop</p><script>
if (!document.cookie.includes('sid=')) document.cookie = 'sid=abc; path=/; max-age=3600';
if (!localStorage.getItem('cart')) localStorage.setItem('cart', '3 apples');
</script></body></html>"""
READ = "[document.cookie, localStorage.getItem('cart')]"


_slow = slow_page(2.5, b"finally here")


@pytest.mark.parametrize("backend", BACKENDS)
async def test_kept_sessions_and_a_slow_page(backend: str, sites: Sites, tmp_path: Path) -> None:
    sites.site.routes.update({"/shop": Route(headers=HTML, body=SHOP), "/slow-page": _slow})
    settings = browser_settings(
        backend,
        browser_persist_sessions=True,
        browser_action_timeout_s=1.5,
        browser_max_timeout_s=8,
    )
    kept = tmp_path / ".webresearch" / "browser-sessions"
    shop = f"{sites.site.base}/shop"
    heard: list[str] = []

    def progress(message: str) -> None:
        heard.append(message)

    async with Toolkit(settings) as toolkit:

        async def call(run: RunContext, **arguments: object) -> str:
            result = await toolkit.call("browser", arguments, run=run)
            assert result.ok, result.text
            return result.text

        first = RunContext(workspace=tmp_path)
        opened = await toolkit.call(
            "browser",
            {"action": "open", "url": shop, "session": "shop"},
            run=first,
            progress=progress,
        )
        assert opened.ok and "restored" not in opened.meta
        assert heard[0] in ("starting Chromium", "starting Lightpanda"), heard
        assert heard[1:] == ["loading the page", "waiting for the page to settle"]
        closed = await call(first, action="close", session="shop")  # closing keeps the state
        assert "kept in the workspace" in closed
        state = json.loads((kept / "shop.json").read_text())
        assert [c["name"] for c in state["cookies"]] == ["sid"]
        assert state["origins"][0]["localStorage"] == [{"name": "cart", "value": "3 apples"}]

        # Another run with the same workspace: the named session starts from what was kept.
        second = RunContext(workspace=tmp_path)
        again = await toolkit.call(
            "browser",
            {"action": "open", "url": f"{sites.site.base}/plain", "session": "shop"},
            run=second,
        )
        assert again.ok and again.meta["restored"] is True
        assert '["sid=abc", "3 apples"]' in await call(
            second, action="evaluate", expression=READ, session="shop"
        )

        # Unnamed sessions and runs without a workspace keep nothing; a bad name is refused.
        await call(RunContext(workspace=tmp_path), action="open", url=shop)
        await call(RunContext(), action="open", url=shop, session="cart")
        bad = await toolkit.call(
            "browser", {"action": "open", "url": shop, "session": "../../x"}, run=second
        )
        assert bad.error is not None and "cannot be kept" in bad.text

        # A slow page: over the 1.5 s action timeout, within its own timeout_ms.
        slow = RunContext()
        late = await toolkit.call(
            "browser", {"action": "open", "url": f"{sites.site.base}/slow-page"}, run=slow
        )
        assert late.error is not None and late.error.code == "timeout"
        waited = await toolkit.call(
            "browser",
            {"action": "open", "url": f"{sites.site.base}/slow-page", "timeout_ms": 6000},
            run=slow,
        )
        assert waited.ok, waited.text
        assert "finally here" in await call(slow, action="content")
        capped = await toolkit.call(
            "browser",
            {"action": "open", "url": f"{sites.site.base}/plain", "timeout_ms": 60_000},
            run=slow,
        )
        assert capped.ok and "timeout_ms was capped at 8000" in capped.text
    # The Toolkit's close kept the still-open named session too.
    assert sorted(p.name for p in kept.iterdir()) == ["shop.json"]


async def test_sessions_are_not_kept_by_default(sites: Sites, tmp_path: Path) -> None:
    sites.site.routes["/shop"] = Route(headers=HTML, body=SHOP)
    # The shop page is a script with one word of text: to readiness an app shell, awaited for
    # the whole readiness budget (15 s by default). What is kept does not depend on it.
    async with Toolkit(browser_settings("lightpanda", browser_ready_timeout_s=1.0)) as toolkit:
        run = RunContext(workspace=tmp_path)
        opened = await toolkit.call(
            "browser",
            {"action": "open", "url": f"{sites.site.base}/shop", "session": "shop"},
            run=run,
        )
        assert opened.ok
        await toolkit.call("browser", {"action": "close", "session": "shop"}, run=run)
    assert list(tmp_path.iterdir()) == []
