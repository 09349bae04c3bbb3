"""The model-facing text of web_search (pure formatting)."""

from __future__ import annotations

from webresearch.search.base import EngineFailure, Infobox, SearchResponse, SearchResult
from webresearch.tools.page_text import UNTRUSTED_NOTICE
from webresearch.tools.web_search import format_response

NAME = "the SearXNG instance"


def test_results_list() -> None:
    response = SearchResponse(
        results=(
            SearchResult("Title [with] brackets", "https://example.org/a", "snippet"),
            SearchResult("", "https://en.wikipedia.org/wiki/Python_(language)", ""),
            SearchResult("Odd", "https://example.org/a(b", "s"),
        ),
        raw_count=3,
    )
    text = format_response("q", response, NAME)
    assert text.splitlines() == [
        UNTRUSTED_NOTICE,
        r"1. [Title \[with\] brackets](https://example.org/a)",
        "   snippet",
        r"2. [en.wikipedia.org/wiki/Python\_(language)](https://en.wikipedia.org/wiki/Python_(language))",
        "3. [Odd](<https://example.org/a(b>)",
        "   s",
    ]


def test_no_results_hint_only_when_nothing_came_back() -> None:
    assert format_response("cats", SearchResponse(), NAME) == (
        'no results for "cats" — rephrase the query (other or fewer words, no quotes or operators)'
    )
    with_suggestions = format_response("catz", SearchResponse(suggestions=("cats",)), NAME)
    assert with_suggestions.splitlines()[0] == UNTRUSTED_NOTICE
    assert with_suggestions.splitlines()[-1] == "suggestions: cats"
    answers_only = format_response("6*7", SearchResponse(answers=("42",)), NAME)
    assert answers_only == f"{UNTRUSTED_NOTICE}\nanswer: 42"
    box = format_response(
        "py",
        SearchResponse(infoboxes=(Infobox("Python", "A language", "https://python.org"),)),
        NAME,
    )
    assert box.endswith("infobox: Python — A language (https://python.org)")
    assert "no results" not in answers_only + box


def test_unusable_results_are_not_called_empty() -> None:
    text = format_response("q", SearchResponse(raw_count=4), NAME)
    assert (
        text
        == 'no usable results for "q": the SearXNG instance returned 4 results, none with an http(s) URL — rephrase the query'
    )


def test_degraded_and_ignored_notes() -> None:
    response = SearchResponse(
        results=(SearchResult("T", "https://example.org/", "s"),),
        unresponsive_engines=(EngineFailure("google", "timeout"), EngineFailure("bing")),
        ignored=("country",),
        raw_count=1,
    )
    lines = format_response("q", response, NAME).splitlines()
    assert (
        lines[-2]
        == "note: engines that did not answer: google (timeout), bing; results may be incomplete"
    )
    assert lines[-1] == "note: the SearXNG instance ignores: country"


def test_a_result_address_is_a_link_destination_that_resolves_back_to_it() -> None:
    """Review of session 10: an address holding an entity-like ``&copy;``, a backslash, a
    ``)``, a space or angle brackets must still be the link's destination as it is (what
    CommonMark, here markdown-it-py, makes of it: the address, percent-encoded as a
    renderer writes it)."""
    from markdown_it import MarkdownIt
    from markdown_it.common.normalize_url import normalizeLink

    urls = [
        "https://shop.example.net/p?id=4&copy;=1&amp=2&#169;=3",
        "https://shop.example.net/a\\(b\\)c\\d",
        "https://shop.example.net/wiki/Kettle_(appliance))",
        "https://shop.example.net/x)(y",
        "https://shop.example.net/two words/",
        "https://shop.example.net/a<b>c",
        "https://shop.example.net/<x",
        "https://shop.example.net/tab\there",
        "https://shop.example.net/Python_(language)",
    ]
    response = SearchResponse(results=tuple(SearchResult("Kettle", u, "") for u in urls))
    lines = [line for line in format_response("q", response, NAME).splitlines()[1:]]
    parser = MarkdownIt("commonmark")
    for url, line in zip(urls, lines, strict=True):
        tokens = parser.parseInline(line.split(". ", 1)[1])[0].children or []
        links = [t for t in tokens if t.type == "link_open"]
        assert len(links) == 1, line
        assert links[0].attrGet("href") == normalizeLink(url), line
        assert "".join(t.content for t in tokens if t.type == "text") == "Kettle", line
    assert lines[-1] == "9. [Kettle](https://shop.example.net/Python_(language))"
