"""One domain policy for every tool that takes a URL (issue 20 item 6): web_fetch (local and
hosted readers), fetch_image and page_screenshot's service refuse a blocked domain with
``blocked_domain`` — before anything is sent — and at every redirect hop, including the
hops a cached result or a hosted service reports. The browser's own checks are in
``tests/browser``.

Real local servers; the names ``allowed.test`` and ``blocked.test`` both resolve to
127.0.0.1 through an injected resolver, so the server's log tells which name was asked for.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import LOOPBACK_ONLY
from tests.support.api_server import ApiServer
from tests.support.hosted_stubs import (
    FIRECRAWL_KEY,
    JINA_KEY,
    FirecrawlStub,
    JinaStub,
    StubPage,
)
from tests.support.http_server import LocalServer, Route
from tests.support.tiny_png import png_bytes
from webresearch import Settings, Toolkit, ToolResult
from webresearch.runtime.journal import MemoryJournal
from webresearch.tools.services import Services

pytestmark = pytest.mark.network

HTML = [("Content-Type", "text/html; charset=utf-8")]
PAGE = b"<html><head><title>P</title></head><body><main><p>Page text here.</p></main></body></html>"
PNG = png_bytes(8, 8, (200, 10, 30))


async def resolver(host: str) -> list[str]:
    if host.endswith(("allowed.test", "blocked.test")):
        return ["127.0.0.1"]
    raise OSError("no such host")


@pytest.fixture
def site() -> Iterator[LocalServer]:
    with LocalServer() as srv:
        blocked = f"http://blocked.test:{srv.port}"
        png = [("Content-Type", "image/png")]
        srv.routes.update(
            {
                "/page": Route(headers=HTML, body=PAGE),
                "/img.png": Route(headers=png, body=PNG),
                "/to-blocked": Route(status=302, headers=[("Location", f"{blocked}/page")]),
                "/img-to-blocked": Route(status=302, headers=[("Location", f"{blocked}/img.png")]),
            }
        )
        yield srv


def on(site: LocalServer, host: str, path: str) -> str:
    return f"http://{host}:{site.port}{path}"


def hits(site: LocalServer, host: str) -> int:
    """Requests the server got for ``host`` (robots.txt included)."""
    return sum(1 for r in site.log if r.headers.get("host", "").startswith(f"{host}:"))


def policy_settings(**values: Any) -> Settings:
    return Settings.load(
        environ={},
        allowed_networks=list(LOOPBACK_ONLY),
        journal_url="memory://",
        search_provider="none",
        **values,
    )


BLOCKED = {"blocked_domains": ["blocked.test"]}
ALLOW_LIST = {"allowed_domains": ["allowed.test", "*.allowed.test"]}


def toolkit_for(settings: Settings) -> Toolkit:
    return Toolkit(settings, journal=MemoryJournal(), resolver=resolver)


def refused(result: ToolResult) -> bool:
    return result.error is not None and result.error.code == "blocked_domain"


# --- web_fetch and fetch_image: the URL and every hop ---------------------------------------


@pytest.mark.parametrize("policy", [BLOCKED, ALLOW_LIST], ids=["blocked", "allow-list"])
async def test_web_fetch_refuses_the_domain_and_a_redirect_into_it(
    policy: dict[str, list[str]], site: LocalServer
) -> None:
    async with toolkit_for(policy_settings(**policy)) as toolkit:
        direct = await toolkit.call("web_fetch", {"url": on(site, "blocked.test", "/page")})
        assert refused(direct), direct.text
        assert direct.error is not None and "blocked.test" in direct.error.message
        assert direct.error.hint is not None and "allowed domains" in direct.error.hint
        hop = await toolkit.call("web_fetch", {"url": on(site, "allowed.test", "/to-blocked")})
        assert refused(hop), hop.text
        assert hop.error is not None and "the redirect target" in hop.error.message
        # a hop the model did not choose: its host is named, its URL is not echoed
        assert on(site, "blocked.test", "/page") not in hop.error.message
        ok = await toolkit.call("web_fetch", {"url": on(site, "allowed.test", "/page")})
        assert ok.ok, ok.text
    assert hits(site, "blocked.test") == 0
    assert site.count("/to-blocked") == 1


@pytest.mark.parametrize("policy", [BLOCKED, ALLOW_LIST], ids=["blocked", "allow-list"])
async def test_fetch_image_refuses_the_domain_and_a_redirect_into_it(
    policy: dict[str, list[str]], site: LocalServer
) -> None:
    async with toolkit_for(policy_settings(**policy)) as toolkit:
        direct = await toolkit.call("fetch_image", {"url": on(site, "blocked.test", "/img.png")})
        assert refused(direct), direct.text
        hop = await toolkit.call(
            "fetch_image", {"url": on(site, "allowed.test", "/img-to-blocked")}
        )
        assert refused(hop), hop.text
        ok = await toolkit.call("fetch_image", {"url": on(site, "allowed.test", "/img.png")})
        assert ok.ok, ok.text
    assert hits(site, "blocked.test") == 0


async def test_an_empty_allow_list_blocks_every_site(site: LocalServer) -> None:
    async with toolkit_for(policy_settings(allowed_domains=[])) as toolkit:
        for tool, path in (("web_fetch", "/page"), ("fetch_image", "/img.png")):
            result = await toolkit.call(tool, {"url": on(site, "allowed.test", path)})
            assert refused(result) and result.error is not None
            assert "every site is blocked" in result.error.message
    assert site.log == []


async def test_a_wildcard_covers_subdomains_not_the_apex(site: LocalServer) -> None:
    settings = policy_settings(allowed_domains=["*.allowed.test"])
    async with toolkit_for(settings) as toolkit:
        sub = await toolkit.call("web_fetch", {"url": on(site, "www.allowed.test", "/page")})
        apex = await toolkit.call("web_fetch", {"url": on(site, "allowed.test", "/page")})
    assert sub.ok, sub.text
    assert refused(apex)


async def test_a_cached_result_is_checked_again_under_another_policy(site: LocalServer) -> None:
    """A page cached by a worker without the policy (a shared cache) still passes the
    policy of the worker that serves it: its redirect hops are checked on every hit."""
    url = on(site, "allowed.test", "/to-blocked")
    image = on(site, "allowed.test", "/img-to-blocked")
    open_kit = toolkit_for(policy_settings())
    strict = Services(
        policy_settings(**BLOCKED),
        journal=MemoryJournal(),
        resolver=resolver,
        state=open_kit.services.state,
    )
    async with open_kit, Toolkit(services=strict) as strict_kit:
        assert (await open_kit.call("web_fetch", {"url": url})).ok
        assert (await open_kit.call("fetch_image", {"url": image})).ok
        before = len(site.log)
        assert refused(await strict_kit.call("web_fetch", {"url": url}))
        assert refused(await strict_kit.call("fetch_image", {"url": image}))
        assert len(site.log) == before  # served from the cache, then refused
        again = await open_kit.call("web_fetch", {"url": url})
        assert again.ok and again.meta["cached"] is True


# --- hosted readers and the screenshot service: checked before handing the URL over ---------


@pytest.fixture
def api() -> Iterator[ApiServer]:
    with ApiServer() as server:
        yield server


async def test_firecrawl_never_gets_a_blocked_url_and_its_final_url_is_checked(
    site: LocalServer, api: ApiServer
) -> None:
    moved = StubPage("# Moved\n\nText.", final_url=on(site, "blocked.test", "/page"))
    stub = FirecrawlStub(
        api,
        pages={
            on(site, "blocked.test", "/page"): StubPage("# Blocked\n\nText."),
            on(site, "allowed.test", "/to-blocked"): moved,
            on(site, "allowed.test", "/page"): StubPage("# Fine\n\nText."),
        },
    )
    settings = policy_settings(
        **BLOCKED, reader="firecrawl", firecrawl_base_url=api.base, firecrawl_api_key=FIRECRAWL_KEY
    )
    async with toolkit_for(settings) as toolkit:
        direct = await toolkit.call("web_fetch", {"url": on(site, "blocked.test", "/page")})
        assert refused(direct) and stub.requests() == []  # never handed over
        via = await toolkit.call("web_fetch", {"url": on(site, "allowed.test", "/to-blocked")})
        assert refused(via), via.text  # the service followed a redirect into it
        assert "Moved" not in via.text
        again = await toolkit.call("web_fetch", {"url": on(site, "allowed.test", "/to-blocked")})
        assert refused(again) and len(stub.requests()) == 1  # refused again, not paid again
        assert (await toolkit.call("web_fetch", {"url": on(site, "allowed.test", "/page")})).ok
    assert len(stub.requests()) == 2


async def test_jina_never_gets_a_blocked_url_and_its_final_url_is_checked(site: LocalServer, api: ApiServer) -> None:
    stub = JinaStub(api)
    stub.add(on(site, "blocked.test", "/page"), StubPage("Blocked text.", title="B"))
    stub.add(on(site, "allowed.test", "/page"), StubPage("Fine text.", title="F"))
    moved = StubPage("Moved text.", title="M", final_url=on(site, "blocked.test", "/page"))
    stub.add(on(site, "allowed.test", "/to-blocked"), moved)
    settings = policy_settings(
        **ALLOW_LIST, reader="jina", jina_base_url=api.base, jina_api_key=JINA_KEY
    )
    async with toolkit_for(settings) as toolkit:
        direct = await toolkit.call("web_fetch", {"url": on(site, "blocked.test", "/page")})
        assert refused(direct) and stub.requests() == []
        ok = await toolkit.call("web_fetch", {"url": on(site, "allowed.test", "/page")})
        assert ok.ok and "Fine text." in ok.text
        via = await toolkit.call("web_fetch", {"url": on(site, "allowed.test", "/to-blocked")})
        assert refused(via) and "Moved text." not in via.text  # where Jina's fetch ended
    assert len(stub.requests()) == 2


async def test_the_screenshot_service_never_gets_a_blocked_url(
    site: LocalServer, api: ApiServer
) -> None:
    storage = f"{site.base}/img.png"  # the service's own storage: not a model-chosen URL
    stub = FirecrawlStub(
        api,
        pages={
            on(site, "blocked.test", "/page"): StubPage("# B", screenshot=storage),
            on(site, "allowed.test", "/page"): StubPage("# F", screenshot=storage),
            on(site, "allowed.test", "/to-blocked"): StubPage(
                "# M", screenshot=storage, final_url=on(site, "blocked.test", "/page")
            ),
        },
    )
    settings = policy_settings(
        **ALLOW_LIST,
        screenshot_service="firecrawl",
        firecrawl_base_url=api.base,
        firecrawl_api_key=FIRECRAWL_KEY,
    )
    async with toolkit_for(settings) as toolkit:
        direct = await toolkit.call("page_screenshot", {"url": on(site, "blocked.test", "/page")})
        assert refused(direct) and stub.requests() == []
        via = await toolkit.call("page_screenshot", {"url": on(site, "allowed.test", "/to-blocked")})
        assert refused(via) and not via.images
        ok = await toolkit.call("page_screenshot", {"url": on(site, "allowed.test", "/page")})
        assert ok.ok, ok.text
        assert len(ok.images) == 1  # the service's download is not subject to the policy
    assert hits(site, "blocked.test") == 0


# --- the deprecated browser names ----------------------------------------------------------


async def test_the_browser_names_still_work_for_every_tool_with_a_warning(
    site: LocalServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="webresearch")
    settings = Settings.load(
        environ={"WEBRESEARCH_BROWSER_BLOCKED_DOMAINS": "blocked.test"},
        allowed_networks=list(LOOPBACK_ONLY),
        journal_url="memory://",
        search_provider="none",
    )
    assert settings.blocked_domains == ("blocked.test",)
    async with toolkit_for(settings) as toolkit:
        result = await toolkit.call("web_fetch", {"url": on(site, "blocked.test", "/page")})
    assert refused(result)
    (line,) = [r.getMessage() for r in caplog.records if "deprecated" in r.getMessage()]
    assert "browser_blocked_domains" in line and "use blocked_domains" in line
    assert "ignored" not in line


def test_the_new_name_wins_over_the_deprecated_one() -> None:
    settings = policy_settings(blocked_domains=["a.test"], browser_blocked_domains=["b.test"])
    assert settings.blocked_domains == ("a.test",)
    (line,) = settings.deprecation_warnings()
    assert "(ignored: blocked_domains is set)" in line
    assert policy_settings(allowed_domains=[]).deprecation_warnings() == []
