"""Review of session 10, fault 13: what the model reads of a search result renders (here with
markdown-it-py, CommonMark) as exactly one link — the result's title to its URL — and the
snippet as plain text: no image, link, autolink, HTML, code, emphasis or block from page text."""

from __future__ import annotations

from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.common.normalize_url import normalizeLink
from markdown_it.common.utils import escapeHtml

from webresearch.search.base import SearchResponse, SearchResult
from webresearch.search.normalize import clean_url, normalize_response
from webresearch.tools.page_text import UNTRUSTED_NOTICE
from webresearch.tools.search_text import format_response, markdown_text

NAME = "the SearXNG instance"
URL = "https://a.test/page"


def _rendered(title: str, url: str, snippet: str) -> str:
    response = SearchResponse(results=(SearchResult(title, url, snippet),), raw_count=1)
    return str(MarkdownIt("commonmark").render(format_response("q", response, NAME)))


def _expected(title: str, url: str, snippet: str) -> str:
    """The HTML of one result with ``title`` linked to ``url`` and ``snippet`` as text."""
    shown = " ".join(snippet.split())
    body = f'<a href="{escapeHtml(normalizeLink(url))}">{escapeHtml(" ".join(title.split()))}</a>'
    body += f"\n{escapeHtml(shown)}" if shown else ""
    return f"<p>{escapeHtml(UNTRUSTED_NOTICE)}</p>\n<ol>\n<li>{body}</li>\n</ol>\n"


def test_an_address_ending_in_a_backslash_is_still_the_link() -> None:
    url = "https://a.test/8\\"
    assert _rendered("bs url", url, "") == _expected("bs url", url, "")


def test_a_code_span_in_a_title_is_text_without_a_stray_backslash() -> None:
    title = "code `a]b` span"
    assert _rendered(title, URL, "") == _expected(title, URL, "")


def test_an_address_with_a_space_is_kept_percent_encoded() -> None:
    raw = SearchResponse(
        results=(
            SearchResult("Two words", "https://a.test/two words/?q=a b", "s"),
            SearchResult("Bad host", "https://exa mple.test/", "s"),
        )
    )
    response = normalize_response(raw)
    assert [r.url for r in response.results] == ["https://a.test/two%20words/?q=a%20b"]
    text = format_response("q", response, NAME)
    html = MarkdownIt("commonmark").render(text)
    assert html == _expected("Two words", "https://a.test/two%20words/?q=a%20b", "s")
    assert clean_url("https://a.test/a\tb") is None  # other whitespace: still dropped


def test_snippet_markup_reaches_the_model_as_text() -> None:
    snippets = [
        "see ![i](https://track.test/p.png) here",
        "a [link](https://evil.test/) and <https://auto.test/> and <img src=x onerror=y>",
        "# Heading",
        "> quoted",
        "- item",
        "1. first",
        "---",
        "===",
        "*em* __strong__ `code` ~~gone~~ snake_case_name",
        "AT&amp;T &copy; &#169; trailing backslash \\",
        "```",
        "| a | b |",
    ]
    for snippet in snippets:
        assert _rendered("T", URL, snippet) == _expected("T", URL, snippet), snippet


def test_escaping_stays_readable() -> None:
    assert markdown_text("snake_case costs $5 (or 6!) | 3 # 4 - 5") == (
        "snake_case costs $5 (or 6!) | 3 # 4 - 5"
    )
    assert markdown_text("![i](https://track.test/p.png)") == r"!\[i\](https://track.test/p.png)"
    assert markdown_text("1. first") == r"1\. first"
    assert markdown_text("<b>bold</b> a < b") == r"\<b>bold\</b> a < b"


def test_the_normalisers_escaped_tag_shows_as_written() -> None:
    """``clean_text`` keeps a page's ``Vec<T>`` as ``Vec&lt;T>``: the model reads ``Vec\\<T>``
    and a renderer shows ``Vec<T>``."""
    raw = SearchResponse(results=(SearchResult("Vec&lt;T&gt;", URL, "use Vec&lt;T&gt;"),))
    response = normalize_response(raw)
    assert _rendered(response.results[0].title, URL, response.results[0].snippet) == _expected(
        "Vec<T>", URL, "use Vec<T>"
    )


#: Characters markdown may read as syntax (and words that start entities and addresses),
#: mixed with any printable character (controls never reach the formatter: normalisation).
_CHARS = st.sampled_from([*"\\`*_[]()<>!&#;:/-+=~|. \t\n1aZ", "&amp;", "http"]) | st.characters(
    blacklist_categories=("Cc", "Cs")
)


@given(
    title=st.lists(_CHARS, max_size=30).map("".join),
    snippet=st.lists(_CHARS, max_size=40).map("".join),
)
@example(title="code `a]b` span", snippet="![i](https://track.test/p.png)")
@example(title="*a*", snippet="<http://x.test/> <!-- c --> &copy; \\")
@settings(max_examples=400, deadline=None)
def test_any_text_renders_as_itself(title: str, snippet: str) -> None:
    assume(title.strip() and "&lt;" not in title + snippet)
    assert _rendered(title, URL, snippet) == _expected(title, URL, snippet)
