"""Normalisation: properties (hypothesis) and the documented examples."""

from __future__ import annotations

import re

import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from webresearch.redact import redact_text
from webresearch.search.base import EngineFailure, Infobox, SearchResponse, SearchResult
from webresearch.search.normalize import (
    ELLIPSIS,
    SNIPPET_MAX_CHARS,
    TITLE_MAX_CHARS,
    clean_text,
    clean_url,
    dedupe_key,
    normalize_response,
    truncate,
)

_TAG = re.compile(r"<[A-Za-z/!?][^<>]*>")
_BIDI = re.compile(r"[\u202a-\u202e\u2066-\u2069\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")

# Text that looks like what providers send: words, markup, entities, emoji, accents.
_pieces = st.one_of(
    st.text(max_size=30),
    st.sampled_from(
        [
            "<b>",
            "</b>",
            "<strong>",
            "<br/>",
            "<p>",
            "</div>",
            "<!-- c -->",
            "&amp;",
            "&lt;b&gt;",
            "&amp;lt;i&amp;gt;",
            "&#8212;",
            "&nbsp;",
            "&quot;",
            "👩‍👩‍👧‍👦",
            "🇩🇪",
            "e\u0301",
            "\u202e",
            "\t\n",
            "a < b > c",
            "<script>alert(1)</script>",
        ]
    ),
)
provider_text = st.lists(_pieces, max_size=12).map("".join)


@given(provider_text, st.integers(min_value=1, max_value=600))
@settings(max_examples=300)
def test_clean_text_properties(raw: str, limit: int) -> None:
    out = clean_text(raw, limit)
    assert len(out) <= limit
    assert not _TAG.search(out)
    assert not _BIDI.search(out)
    assert out == out.strip() or out.endswith(ELLIPSIS)
    assert "  " not in out and "\n" not in out


@given(st.text(max_size=400), st.integers(min_value=1, max_value=300))
@settings(max_examples=300)
def test_truncate_never_splits_a_grapheme_cluster(text: str, limit: int) -> None:
    out = truncate(text, limit)
    assert len(out) <= max(limit, len(ELLIPSIS))
    if len(text) <= limit:
        assert out == text
        return
    assert out.endswith(ELLIPSIS)
    kept = out[: -len(ELLIPSIS)]
    assert text.startswith(kept)
    clusters = regex.findall(r"\X", text)
    kept_clusters = regex.findall(r"\X", kept)
    # the kept part is whole clusters of the original (trailing spaces may be dropped)
    assert clusters[: len(kept_clusters)] == kept_clusters or kept == ""


def test_truncate_examples() -> None:
    family = "👩\u200d👩\u200d👧\u200d👦"
    assert truncate(family * 3, 9) == family + ELLIPSIS
    assert truncate("e\u0301" * 10, 6) == "e\u0301e\u0301" + ELLIPSIS
    assert truncate("🇩🇪🇫🇷🇮🇹", 4) == "🇩🇪" + ELLIPSIS
    assert truncate("short", 200) == "short"
    assert len(truncate("x" * 1000, SNIPPET_MAX_CHARS)) == SNIPPET_MAX_CHARS


def test_clean_text_examples() -> None:
    assert clean_text("<b>asyncio</b> &amp; <em>more</em>", 200) == "asyncio & more"
    assert clean_text("Py<strong>thon</strong>", 200) == "Python"
    assert clean_text("one<br>two<p>three</p>", 200) == "one two three"
    # entities are decoded once: double-escaped text is the literal escaped text
    assert (
        clean_text("&amp;lt;script&amp;gt;x&amp;lt;/script&amp;gt;", 200)
        == "&lt;script&gt;x&lt;/script&gt;"
    )
    # escaped text is content, kept; a decoded "<" that would open a tag stays escaped
    assert clean_text("use Vec&lt;T&gt; here", 200) == "use Vec&lt;T> here"
    assert clean_text("if a &lt; b and c &gt; d", 200) == "if a < b and c > d"
    assert clean_text("snippet &lt;one&gt; <i>it</i>", 200) == "snippet &lt;one> it"
    assert clean_text("a < b > c", 200) == "a < b > c"
    assert clean_text("AT&amp;T", 200) == "AT&T"
    assert clean_text("evil\u202etxt.exe", 200) == "eviltxt.exe"
    assert clean_text(None, 200) == "" and clean_text(42, 200) == "42"
    assert clean_text({"nested": 1}, 200) == ""
    assert clean_text("日本語 🐍", 200) == "日本語 🐍"


@given(st.text(max_size=200))
@settings(max_examples=300)
def test_clean_url_only_keeps_absolute_http_urls(raw: str) -> None:
    out = clean_url(raw)
    if out is not None:
        assert out.lower().startswith(("http://", "https://"))
        assert clean_url(out) == out
        assert not any(c.isspace() for c in out)


def test_clean_url_examples() -> None:
    assert clean_url("https://example.org/a?b=1") == "https://example.org/a?b=1"
    assert clean_url("  HTTP://Example.org/  ") == "HTTP://Example.org/"
    for bad in (
        "javascript:alert(1)",
        "JavaScript:alert(1)",
        "data:text/html;base64,PHNjcmlwdD4=",
        "file:///etc/passwd",
        "ftp://example.org/x",
        "/relative",
        "relative/path",
        "//example.org/protocol-relative",
        "https:///no-host",
        "https://exa mple.org/",
        "http://[::1",
        "http://example.org:99999/",
        "",
        None,
        123,
    ):
        assert clean_url(bad) is None, bad
    assert clean_url("https://h/p?api_key=abc&q=1") == "https://h/p?api_key=[REDACTED]&q=1"


def test_dedupe_key_ignores_fragment_and_host_case() -> None:
    assert dedupe_key("https://EXAMPLE.org/a#x") == dedupe_key("https://example.org/a")
    assert dedupe_key("https://example.org:443/a") == dedupe_key("https://example.org/a")
    assert dedupe_key("https://example.org/A") != dedupe_key("https://example.org/a")


results_strategy = st.lists(
    st.builds(
        SearchResult,
        title=provider_text,
        url=st.one_of(
            st.sampled_from(
                [
                    "https://example.org/a",
                    "https://EXAMPLE.org/a#frag",
                    "http://example.org/b?token=t0k",
                    "javascript:alert(1)",
                    "data:,x",
                    "/rel",
                    "https://example.org/c",
                ]
            ),
            st.text(max_size=40),
        ),
        snippet=provider_text,
    ),
    max_size=25,
)


@given(results_strategy, st.integers(min_value=1, max_value=20))
@settings(max_examples=200)
def test_normalize_response_properties(results: list[SearchResult], max_results: int) -> None:
    raw = SearchResponse(results=tuple(results), raw_count=len(results))
    out = normalize_response(raw, max_results)
    assert len(out.results) <= max_results
    keys = [dedupe_key(r.url) for r in out.results]
    assert len(keys) == len(set(keys))
    for r in out.results:
        assert r.url.lower().startswith(("http://", "https://"))
        assert len(r.title) <= TITLE_MAX_CHARS and len(r.snippet) <= SNIPPET_MAX_CHARS
        assert "t0k" not in r.url
    assert out.raw_count == len(results)


def test_normalize_response_keeps_first_duplicate_and_cleans_extras() -> None:
    raw = SearchResponse(
        results=(
            SearchResult("First", "https://example.org/a", "one"),
            SearchResult("Second", "https://EXAMPLE.org/a#x", "two"),
            SearchResult("JS", "javascript:void(0)", "bad"),
        ),
        answers=("<b>42</b>", "<b>42</b>", ""),
        infoboxes=(Infobox("<i>Box</i>", "text &amp; more", "javascript:x"), Infobox("", "")),
        suggestions=("a", "a", "b"),
        unresponsive_engines=(EngineFailure("google", "<b>timeout</b>"), EngineFailure("")),
    )
    out = normalize_response(raw)
    assert [r.title for r in out.results] == ["First"]
    assert out.answers == ("42",)
    assert out.infoboxes == (Infobox("Box", "text & more", ""),)
    assert out.suggestions == ("a", "b")
    assert out.unresponsive_engines == (EngineFailure("google", "timeout"),)
    assert out.raw_count == 3 and out.dropped == 2


@given(st.sampled_from(["token", "api_key", "sig", "password"]), st.text(min_size=1, max_size=20))
def test_redacted_urls_survive_a_second_redaction(name: str, value: str) -> None:
    """The Toolkit redacts the final text again: an already-redacted URL must not change
    (it used to gain a stray "]": ``token=[REDACTED]]``)."""
    url = clean_url(f"https://example.org/p?{name}=x{value.strip() or 'v'}&q=1".replace(" ", ""))
    if url is None:
        return
    text = f"1. [label](<{url}>)\n   {url} and [{url}]({url})"
    assert redact_text(text) == text
