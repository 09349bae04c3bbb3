"""``<meta http-equiv="refresh">`` (issue 21 item 6, case 37).

A refresh with a delay ≤ 5 s on a page without readable text of its own is followed like a
redirect: the target is checked by the SSRF guard as a hop, the hop counts among the same 5,
and the output says how the page was reached. Otherwise the target is named. Never "built by
JavaScript: use the browser tool".
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from tests.conftest import CASES
from tests.support.http_server import LocalServer, Route, load_case
from webresearch import Settings, Toolkit
from webresearch.extract.refresh import MetaRefresh, find_meta_refresh, parse_refresh
from webresearch.runtime.journal import MemoryJournal

CASE = CASES / "37-meta-refresh-target"
HTML = [("Content-Type", "text/html; charset=utf-8")]
ARTICLE = "<p>" + "A paragraph of real reading matter for the person. " * 30 + "</p>"


def _refresh_page(content: str, body: str = "", equiv: str = "refresh") -> bytes:
    return (
        f'<!doctype html><html><head><meta http-equiv="{equiv}" content="{content}">'
        f"<title>Moved</title></head><body>{body}</body></html>"
    ).encode()


@pytest.fixture(scope="module")
def site() -> Iterator[LocalServer]:
    with LocalServer(load_case(CASE)) as srv:
        routes = srv.routes
        forms = {
            "/quoted": "0; URL='/doc.html'",
            "/double": "0;url=&quot;/doc.html&quot;",
            "/spaces": " 3 , url = /doc.html",
            "/fraction": "0.5; URL=/doc.html",
            "/no-label": "1; /doc.html",
            "/absolute": "0;url={BASE}/doc.html",
            "/five": "5;url=/doc.html",
        }
        for path, content in forms.items():
            routes[path] = Route(headers=HTML, body=_refresh_page(content))
        routes["/upper"] = Route(
            headers=HTML, body=_refresh_page("0;URL=/doc.html", equiv="Refresh")
        )
        routes["/redirecting"] = Route(
            headers=HTML,
            body=_refresh_page(
                "0;url=/doc.html", "<p>Redirecting… <a href='/doc.html'>click here</a></p>"
            ),
        )
        routes["/slow"] = Route(headers=HTML, body=_refresh_page("30;url=/doc.html"))
        routes["/reload"] = Route(headers=HTML, body=_refresh_page("0", ARTICLE))
        routes["/reload-url"] = Route(headers=HTML, body=_refresh_page("0;url=/reload-url#top"))
        routes["/news"] = Route(headers=HTML, body=_refresh_page("0;url=/doc.html", ARTICLE))
        for scheme in ("javascript:alert(1)", "data:text/html,hi", "file:///etc/passwd"):
            routes[f"/scheme-{scheme.split(':')[0]}"] = Route(
                headers=HTML, body=_refresh_page(f"0;url={scheme}")
            )
        routes["/internal"] = Route(
            headers=HTML, body=_refresh_page("0;url=http://169.254.169.254/latest/meta-data/")
        )
        routes["/private"] = Route(headers=HTML, body=_refresh_page("0;url=http://10.1.2.3/"))
        routes["/loop-a"] = Route(headers=HTML, body=_refresh_page("0;url=/loop-b"))
        routes["/loop-b"] = Route(headers=HTML, body=_refresh_page("0;url=/loop-a"))
        # HTTP redirects and a refresh in one chain: /r3 takes 3 HTTP hops to /hop, whose
        # refresh (hop 4) leads to /to-doc, a redirect (hop 5) to /doc.html; /r4 one more.
        for n in range(1, 5):
            routes[f"/r{n}"] = Route(302, [("Location", f"/r{n - 1}" if n > 1 else "/hop")])
        routes["/hop"] = Route(headers=HTML, body=_refresh_page("0;url=/to-doc"))
        routes["/to-doc"] = Route(302, [("Location", "/doc.html")])
        yield srv


@pytest.fixture
async def toolkit(settings: Settings) -> AsyncIterator[Toolkit]:
    async with Toolkit(settings.replace(render="never"), journal=MemoryJournal()) as tk:
        yield tk


DOC_TEXT = (
    "The gateway reads its routing table from",
    "three failures in a row take the node out of rotation",
)


async def test_case_37_the_refresh_is_followed(toolkit: Toolkit, site: LocalServer) -> None:
    result = await toolkit.call("web_fetch", {"url": f"{site.base}/"})
    assert result.ok, result.text
    assert f"url: {site.base}/doc.html" in result.text
    for needle in DOC_TEXT:
        assert needle in result.text
    assert f"note: reached through a meta refresh (a redirect in the page) from {site.base}/" in (
        result.text
    )
    for banned in ("built by JavaScript", "JavaScript", "use the browser tool"):
        assert banned not in result.text
    assert result.meta["requested_url"] == f"{site.base}/"
    assert result.meta["redirects"] == [[200, f"{site.base}/doc.html"]]


@pytest.mark.parametrize(
    "path",
    [
        "/quoted",
        "/double",
        "/spaces",
        "/fraction",
        "/no-label",
        "/absolute",
        "/five",
        "/upper",
        "/redirecting",
    ],
)
async def test_every_spelling_of_a_short_refresh_is_followed(
    toolkit: Toolkit, site: LocalServer, path: str
) -> None:
    if path == "/absolute":
        site.routes[path] = Route(headers=HTML, body=_refresh_page(f"0;url={site.base}/doc.html"))
    result = await toolkit.call("web_fetch", {"url": site.base + path})
    assert result.ok, result.text
    assert f"url: {site.base}/doc.html" in result.text
    assert DOC_TEXT[0] in result.text


@pytest.mark.parametrize(("path", "delay"), [("/slow", 30), ("/news", 0)])
async def test_a_long_delay_or_a_page_with_content_names_the_target(
    toolkit: Toolkit, site: LocalServer, path: str, delay: int
) -> None:
    result = await toolkit.call("web_fetch", {"url": site.base + path})
    assert result.ok, result.text
    assert f"url: {site.base}{path}" in result.text  # not followed
    assert (
        f"note: this page asks to be replaced by {site.base}/doc.html after {delay} s "
        "(meta refresh); fetch that URL to read it"
    ) in result.text
    assert DOC_TEXT[0] not in result.text
    if path == "/news":
        assert "A paragraph of real reading matter" in result.text


@pytest.mark.parametrize("path", ["/reload", "/reload-url"])
async def test_a_page_that_reloads_itself_is_just_the_page(
    toolkit: Toolkit, site: LocalServer, path: str
) -> None:
    result = await toolkit.call("web_fetch", {"url": site.base + path})
    assert result.ok, result.text
    assert f"url: {site.base}{path}" in result.text and "meta refresh" not in result.text


@pytest.mark.parametrize("scheme", ["javascript", "data", "file"])
async def test_other_schemes_are_never_followed(
    toolkit: Toolkit, site: LocalServer, scheme: str
) -> None:
    result = await toolkit.call("web_fetch", {"url": f"{site.base}/scheme-{scheme}"})
    assert result.ok, result.text
    assert f"url: {site.base}/scheme-{scheme}" in result.text
    assert "meta refresh" not in result.text and "passwd" not in result.text


@pytest.mark.parametrize("path", ["/internal", "/private"])
async def test_a_refresh_to_an_internal_address_is_refused_like_a_redirect(
    toolkit: Toolkit, site: LocalServer, path: str
) -> None:
    result = await toolkit.call("web_fetch", {"url": site.base + path})
    assert result.error is not None and result.error.code == "blocked_address", result.text
    assert "meta refresh leads to an internal or reserved address" in result.text
    assert "169.254" not in result.text and "10.1.2.3" not in result.text


async def test_a_refresh_loop_ends_at_the_hop_limit(toolkit: Toolkit, site: LocalServer) -> None:
    result = await toolkit.call("web_fetch", {"url": f"{site.base}/loop-a"})
    assert result.error is not None and result.error.code == "too_many_redirects", result.text


async def test_refresh_hops_count_with_http_redirects(toolkit: Toolkit, site: LocalServer) -> None:
    five = await toolkit.call("web_fetch", {"url": f"{site.base}/r3"})  # 3 + refresh + 1
    assert five.ok, five.text
    assert DOC_TEXT[0] in five.text and len(five.meta["redirects"]) == 5
    six = await toolkit.call("web_fetch", {"url": f"{site.base}/r4"})  # 4 + refresh + 1
    assert six.error is not None and six.error.code == "too_many_redirects", six.text


# --- the parser (WHATWG HTML "shared declarative refresh steps") ------------------------------


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("0;url=/doc.html", MetaRefresh(0, "https://s.example/doc.html")),
        ("0; URL='/doc.html'", MetaRefresh(0, "https://s.example/doc.html")),
        ('5 , url = "doc.html"', MetaRefresh(5, "https://s.example/a/doc.html")),
        ("3.7;url=/x", MetaRefresh(3, "https://s.example/x")),
        ("10", MetaRefresh(10, "https://s.example/a/page")),  # reload itself
        ("0;https://other.example/y", MetaRefresh(0, "https://other.example/y")),
        ("0;url='/unterminated", MetaRefresh(0, "https://s.example/unterminated")),
        ("url=/x", None),  # no delay: not a refresh
        ("", None),
        ("0;url=javascript:alert(1)", None),
        ("0;url=data:text/html,x", None),
        ("0;url=file:///etc/passwd", None),
        ("0;url=http://[::1", None),  # unparseable
    ],
)
def test_refresh_content_values(content: str, expected: MetaRefresh | None) -> None:
    assert parse_refresh(content, "https://s.example/a/page") == expected


def test_only_a_refresh_meta_counts_and_the_first_one_wins() -> None:
    html = (
        '<meta charset="utf-8"><meta name="refresh" content="0;url=/no">'
        "<meta content='0;url=/first' http-equiv=REFRESH><meta http-equiv=refresh content=0;url=/second>"
    )
    assert find_meta_refresh(html, "https://s.example/") == MetaRefresh(
        0, "https://s.example/first"
    )
    assert find_meta_refresh("<p>no meta</p>", "https://s.example/") is None
