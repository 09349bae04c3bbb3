"""web_fetch ``render: auto`` renders app shells in the browser (SPEC §1.1)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import Kit, Sites, browser_settings
from webresearch import RunContext, Toolkit

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_web_fetch_renders_an_app_shell_in_the_browser(kit: Kit, sites: Sites) -> None:
    result = await kit.toolkit.call(
        "web_fetch", {"url": f"{sites.site.base}/shell"}, run=RunContext()
    )
    assert result.ok, result.text
    assert result.meta["render"] == "browser"
    assert "Quarterly report Q3" in result.text
    static = await kit.toolkit.call(
        "web_fetch", {"url": f"{sites.site.base}/plain"}, run=RunContext()
    )
    assert static.ok and static.meta["render"] == "none"


async def test_render_never_keeps_the_static_shell(sites: Sites) -> None:
    async with Toolkit(browser_settings("lightpanda", render="never")) as toolkit:
        result = await toolkit.call(
            "web_fetch", {"url": f"{sites.site.base}/shell"}, run=RunContext()
        )
    assert result.ok and result.meta["render"] == "none"
    assert "Quarterly report" not in result.text


async def test_render_always_and_policy_applies_to_rendering(sites: Sites) -> None:
    sites.private.reset_log()
    async with Toolkit(browser_settings("lightpanda", render="always")) as toolkit:
        result = await toolkit.call(
            "web_fetch", {"url": f"{sites.site.base}/subresources"}, run=RunContext()
        )
    assert result.ok and result.meta["render"] == "browser"
    assert sites.forbidden_hits() == 0


#: An app shell whose script draws nothing; its <noscript> sentence (create-react-app's
#: template) is not shown by a browser that ran the script, so it is not page text.
EMPTY_SHELL = (
    b"<!doctype html><html><head><title>App</title></head><body>"
    b"<noscript>You need to enable JavaScript to run this app.</noscript><div id='root'></div>"
    b"<script>window.started = true;</script></body></html>"
)


@pytest.mark.parametrize("backend", ["lightpanda", "chromium"])
async def test_a_shell_that_stays_empty_after_rendering_says_so(sites: Sites, backend: str) -> None:
    from tests.browser.pages import HTML
    from tests.support.http_server import Route
    from webresearch.tools.page_text import EMPTY_HTML_NOTE, EMPTY_RENDERED_NOTE

    sites.site.routes["/empty-shell"] = Route(headers=HTML, body=EMPTY_SHELL)
    # a shell that stays empty is waited for the whole readiness budget: 3 s, not 15 s, here
    settings = browser_settings(backend, render="always", browser_ready_timeout_s=3)
    async with Toolkit(settings) as toolkit:
        result = await toolkit.call(
            "web_fetch", {"url": f"{sites.site.base}/empty-shell"}, run=RunContext()
        )
    assert result.ok and result.meta["render"] == "browser", result.text
    # rendering again (the browser tool) would not help: the note says what was tried
    assert EMPTY_RENDERED_NOTE in result.text
    assert EMPTY_HTML_NOTE not in result.text
    assert "enable JavaScript" not in result.text
