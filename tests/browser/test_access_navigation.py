"""The per-URL gates for the browser's top-level navigations on both backends.

* robots.txt (RFC 9309, SPEC §1.6): ``open``, browser_open and page_screenshot's tab check
  the URL before the browser sees it; a page's own subresources are not checked. Each test
  serves its own origin (the session's Toolkits keep robots.txt per origin).
* the domain policy (``blocked_domains = ["127.0.0.3"]`` in the suite's settings): the same
  for browser_open and page_screenshot, the URL and a redirect hop into the blocked domain
  (the browser tool's ``open`` is in test_navigation_safety.py).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser.conftest import Kit, Sites
from tests.support.http_server import LocalServer, Route
from webresearch import RunContext

pytestmark = pytest.mark.asyncio(loop_scope="session")

HTML = [("Content-Type", "text/html; charset=utf-8")]
ROBOTS = b"User-agent: *\nDisallow: /private/\n"


def page(text: str, extra: str = "") -> bytes:
    return f"<html><head><title>{text}</title></head><body><p>{text}</p>{extra}</body></html>".encode()


@pytest.fixture
def origin() -> Iterator[LocalServer]:
    with LocalServer() as srv:
        srv.routes["/robots.txt"] = Route(headers=[("Content-Type", "text/plain")], body=ROBOTS)
        srv.routes["/private/page"] = Route(headers=HTML, body=page("Private"))
        # an allowed page whose image lives under the disallowed path: subresources are
        # not checked (RFC 9309 governs what a crawler fetches as pages)
        srv.routes["/page"] = Route(
            headers=HTML, body=page("Public", '<img src="/private/pixel.gif">')
        )
        srv.routes["/private/pixel.gif"] = Route(
            headers=[("Content-Type", "image/gif")],
            body=b"GIF89a\x01\x00\x01\x00\x00\x00\x00;",
        )
        yield srv


async def test_open_and_browser_open_respect_robots(kit: Kit, origin: LocalServer) -> None:
    run = RunContext()
    refused = await kit.call(run, action="open", url=f"{origin.base}/private/page")
    assert refused.error is not None and refused.error.code == "robots_disallowed", refused.text
    assert refused.error.details["rule"] == "/private/"
    one_shot = await kit.toolkit.call(
        "browser_open", {"url": f"{origin.base}/private/page"}, run=run
    )
    assert one_shot.error is not None and one_shot.error.code == "robots_disallowed"
    assert origin.count("/private/page") == 0
    opened = await kit.call(run, action="open", url=f"{origin.base}/page")
    assert opened.ok, opened.text
    if kit.backend == "chromium":  # Lightpanda loads no images
        assert origin.count("/private/pixel.gif") == 1  # a subresource: not checked
    assert origin.count("/robots.txt") == 1
    await kit.call(run, action="close")


async def test_page_screenshot_respects_robots(chromium: Kit, origin: LocalServer) -> None:
    result = await chromium.toolkit.call("page_screenshot", {"url": f"{origin.base}/private/page"})
    assert result.error is not None and result.error.code == "robots_disallowed", result.text
    assert origin.count("/private/page") == 0


@pytest.mark.parametrize("path", ["/secret", None], ids=["direct", "redirect-hop"])
async def test_browser_open_and_page_screenshot_keep_the_domain_policy(
    kit: Kit, sites: Sites, path: str | None
) -> None:
    sites.domain.reset_log()
    url = f"{sites.domain.base}{path}" if path else f"{sites.site.base}/to-domain"
    opened = await kit.toolkit.call("browser_open", {"url": url}, run=RunContext())
    assert opened.error is not None and opened.error.code == "blocked_domain", opened.text
    if "page_screenshot" in [s.name for s in kit.toolkit.tools()]:
        shot = await kit.toolkit.call("page_screenshot", {"url": url})
        assert shot.error is not None and shot.error.code == "blocked_domain", shot.text
    assert sites.domain.count() == 0
