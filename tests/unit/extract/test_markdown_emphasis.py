"""A page's own ``*`` and ``_`` come out as text: escaped where CommonMark would read them as
emphasis (``2*3*4``, ``__init__``), as written where nothing pairs with them (``snake_case``,
``2 * 3``), untouched in code. Checked by rendering our markdown with markdown-it-py."""

from __future__ import annotations

import html
import random
import re

import pytest
from markdown_it import MarkdownIt

from webresearch.extract.markdown import element_to_markdown
from webresearch.extract.parse import parse_html

URL = "https://kitchen.example.org/notes/"


def md(body: str) -> str:
    return element_to_markdown(parse_html(f"<html><body>{body}</body></html>"), URL)


def rendered(markdown: str) -> str:
    return str(MarkdownIt("commonmark").enable("table").render(markdown))


def shown_text(markdown: str) -> str:
    """The text a reader sees, whitespace collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", rendered(markdown))).split())


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The tray holds 2*3*4 = 24 cups.", "The tray holds 2\\*3\\*4 = 24 cups."),
        ("Define __init__ in the class.", "Define \\_\\_init\\_\\_ in the class."),
        ("Stars mark *optional* steps.", "Stars mark \\*optional\\* steps."),
        ("Use _either_ pan.", "Use \\_either\\_ pan."),
        ("Pass **kwargs** on.", "Pass \\*\\*kwargs\\*\\* on."),
    ],
)
def test_prose_stars_and_underscores_that_would_pair_are_escaped(text: str, expected: str) -> None:
    out = md(f"<p>{text}</p>")
    assert out == expected
    assert "<em>" not in rendered(out) and "<strong>" not in rendered(out)
    assert shown_text(out) == text


@pytest.mark.parametrize(
    "text",
    [
        "Call snake_case_name and MAX_SIZE_BYTES.",
        "Multiply 2 * 3 to get six.",
        "A 5* hotel by the bay.",
        "Pass *args or **kwargs to it.",
        "Footnote marks: price* and tax_",
    ],
)
def test_a_star_or_underscore_nothing_pairs_with_stays_as_written(text: str) -> None:
    assert md(f"<p>{text}</p>") == text


def test_a_prose_star_next_to_our_own_marks_does_not_lengthen_them() -> None:
    out = md("<p><b>Bold</b>*note and <em>*starred*</em> word</p>")
    assert rendered(out).strip() == (
        "<p><strong>Bold</strong>*note and <em>*starred*</em> word</p>"
    )


def test_code_keeps_its_stars_and_underscores_as_written() -> None:
    out = md(
        "<p>Run <code>f(*args, **kw)</code> then __main__.</p><pre>x = a*b*c  # __init__</pre>"
    )
    assert "`f(*args, **kw)`" in out
    assert "x = a*b*c  # __init__" in out
    assert "\\_\\_main\\_\\_" in out
    assert shown_text(out) == "Run f(*args, **kw) then __main__. x = a*b*c # __init__"


@pytest.mark.parametrize("line", ["***", "___", "* * *", "*", "- - -"])
def test_a_line_of_stars_or_underscores_is_no_rule_nor_list(line: str) -> None:
    out = md(f"<p>Before</p><p>{line}</p><p>After</p>")
    assert "<hr" not in rendered(out) and "<li>" not in rendered(out)
    assert shown_text(out) == f"Before {line} After"


def test_subscript_underscores_do_not_pair_into_emphasis() -> None:
    out = md("<p>(a)<sub>n m</sub> grows faster than (b)<sub>p q</sub> does.</p>")
    assert "<em>" not in rendered(out)
    assert shown_text(out) == "(a)_{n m} grows faster than (b)_{p q} does."


def test_link_text_cells_and_items_are_escaped_alike() -> None:
    out = md(
        "<p><a href='/snake_case_page'>the *best* one</a></p>"
        "<table><tr><th>a*b*c</th><th>x_y</th></tr><tr><td>_one_</td><td>2</td></tr></table>"
        "<ul><li>*first*</li><li>__second__</li></ul>"
    )
    assert "](https://kitchen.example.org/snake_case_page)" in out  # a URL is no text
    page = rendered(out)
    assert "<em>" not in page and "<strong>" not in page
    for text in ("the *best* one", "a*b*c", "x_y", "_one_", "*first*", "__second__"):
        assert text in html.unescape(page)


def test_emphasis_never_pairs_across_paragraphs_or_cells() -> None:
    out = md("<p>one *a</p><p>b* two</p><table><tr><td>x *y</td><td>z* w</td></tr></table>")
    assert out.count("\\*") == 0  # nothing could pair: nothing escaped


def test_the_page_text_survives_a_round_trip_on_random_inline_mixes() -> None:
    """Random runs of letters, punctuation, ``*`` and ``_``, some in our own emphasis, code
    or a link (their edges letters, so our own marks are well-formed): the text shown is the
    text given, with no emphasis but ours."""
    rnd = random.Random(2026)
    alphabet = "ab *_*_().é!"
    for _ in range(600):
        parts: list[tuple[str, str | None]] = []
        for _ in range(rnd.randint(1, 3)):
            text = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(1, 8)))
            tag = rnd.choice([None, None, "b", "em", "code", "a"])
            parts.append(("a" + text + "b" if tag else text, tag))
        body = " ".join(
            (f"<{t} href='/x'>" if t == "a" else f"<{t}>") + html.escape(s) + f"</{t}>"
            if t
            else html.escape(s)
            for s, t in parts
        )
        out = md(f"<p>{body}</p>")
        tags = re.findall(r"<(?:em|strong|code|a)\b", rendered(out))
        assert len(tags) <= sum(1 for s, t in parts if t and s.strip()), (body, out)
        assert shown_text(out) == " ".join(" ".join(s for s, _ in parts).split()), (body, out)


def test_a_bang_before_a_link_does_not_make_an_image() -> None:
    # review: "now!<a>Download</a>" became "now![Download](…)", an image, its text lost
    body = parse_html(
        "<html><body><p>It is out now!<a href='/dl'>Download</a> Wow! <b>Yes!</b> "
        "<a href='/x'>More</a></p><p>Hello!</p></body></html>"
    ).find("body")
    assert body is not None
    out = element_to_markdown(body, "https://example.org/")
    assert "now\\![Download](https://example.org/dl)" in out
    assert "Wow! **Yes!** [More](https://example.org/x)" in out
    assert out.rstrip().endswith("Hello!")
    rendered = MarkdownIt().render(out)
    assert "<img" not in rendered and "now!<a href" in rendered
