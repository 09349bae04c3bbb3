"""A URL typed without its scheme or its ``//``: the URL meant, shown (never fetched) as the
next step by the command line, web_fetch, fetch_image and the browser alike."""

from __future__ import annotations

import pytest

from webresearch import RunContext, Settings, Toolkit
from webresearch.url_text import not_web_url, scheme_hint, suggested_url


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        # http(s): without // (WHATWG reads these as http(s)://host for special schemes)
        ("https:/x.org", "https://x.org"),
        ("https:x.org", "https://x.org"),
        ("http:localhost:8765/", "http://localhost:8765/"),
        ("http:127.0.0.1:8765/", "http://127.0.0.1:8765/"),
        ("HTTPS:/x.org/a", "https://x.org/a"),
        # http(s) without its colon (review n-15: read as a file path, no URL suggested)
        ("http//example.org/x", "http://example.org/x"),
        ("HTTPS//x.org", "https://x.org"),
        ("http//localhost:8765/", "http://localhost:8765/"),
        ("http//page", None),
        ("http///x.org", None),
        # no scheme at all
        ("example.org", "https://example.org"),
        ("www.example.org/page.html", "https://www.example.org/page.html"),
        ("x.org:8080", "https://x.org:8080"),
        # a local server with a port speaks plain HTTP far more often
        ("localhost:8765", "http://localhost:8765"),
        ("127.0.0.1:8765/a", "http://127.0.0.1:8765/a"),
        ("[::1]:8080/", "http://[::1]:8080/"),
        # nothing to suggest: no host, credentials, paths, full URLs, other schemes
        ("http:8765", None),
        ("https:", None),
        ("git@github.com:foo/bar", None),
        ("user@example.org/x", None),
        ("page.html", None),
        ("IMG_0042.jpg", None),
        ("nofile.png", None),
        ("report.docx", None),
        ("config.yaml", None),
        ("photos.example.org/IMG_0042.jpg", "https://photos.example.org/IMG_0042.jpg"),
        ("./x.org", None),
        ("/srv/x.org", None),
        ("notes", None),
        ("https://x.org/", None),
        ("javascript:alert(1)", None),
    ],
)
def test_the_url_meant(typed: str, meant: str | None) -> None:
    assert suggested_url(typed) == meant
    hint = scheme_hint(typed)
    assert hint == (None if meant is None else f"a URL needs its scheme: {meant}")
    assert hint is None or "@" not in hint


@pytest.mark.parametrize(
    ("url", "message", "hint"),
    [
        ("example.org", "example.org is not a full URL", "scheme: https://example.org"),
        ("localhost:8765", "localhost:8765 is not a full URL", "scheme: http://localhost:8765"),
        ("https:/x.org", "https:/x.org is not a full URL", "scheme: https://x.org"),
        ("page.html", "page.html has no scheme", "give an http:// or https:// URL"),
        ("javascript:x", "not javascript: URLs", "give an http:// or https:// URL"),
    ],
)
def test_the_browser_words_a_non_web_url_in_sentences(url: str, message: str, hint: str) -> None:
    problem = not_web_url(url)
    assert problem is not None
    assert message in problem[0] and "a relative" not in problem[0]
    assert hint in problem[1]


@pytest.mark.parametrize("url", ["https://x.org/", "http://127.0.0.1:1/", " HTTPS://x.org"])
def test_web_urls_pass_the_browser_scheme_check(url: str) -> None:
    assert not_web_url(url) is None


@pytest.mark.parametrize(
    ("url", "hint"),
    [
        ("example.org", "a URL needs its scheme: https://example.org"),
        ("https:/x.org/a", "a URL needs its scheme: https://x.org/a"),
        ("https:x.org", "a URL needs its scheme: https://x.org"),
        # an internal host: no URL to retry (review, session 13; tests/unit/net/test_typed_internal_hint)
        (
            "http:localhost:8765/",
            "this address is internal and not allowed (SSRF guard); use a public URL",
        ),
        (
            "localhost:8765",
            "this address is internal and not allowed (SSRF guard); use a public URL",
        ),
    ],
)
async def test_web_fetch_tells_a_model_the_url_it_meant(
    settings: Settings, url: str, hint: str
) -> None:
    async with Toolkit(settings) as toolkit:
        result = await toolkit.call("web_fetch", {"url": url}, run=RunContext())
    assert result.error is not None and result.error.code == "invalid_arguments"
    assert result.error.hint == hint


def test_localhost_with_a_trailing_dot_is_a_local_server() -> None:
    """review n-12b: ``localhost.:8765`` got https, which a local server rarely speaks."""
    assert suggested_url("localhost.:8765/x") == "http://localhost.:8765/x"
    assert suggested_url("LOCALHOST.:8765") == "http://LOCALHOST.:8765"
