"""A page's own markdown-looking text comes out as text (fresh review, session 8): literal
HTML (``&lt;script&gt;``), entity references, link and image syntax, backticks and
backslashes are escaped where CommonMark would read markup and left as written elsewhere;
a table cell keeps its ``\\|``; side-by-side code elements stay code; strong emphasis that
ends in punctuation before a letter still renders. Checked by rendering our markdown with
markdown-it-py (CommonMark, the project's validity check)."""

from __future__ import annotations

import html
import random
import re

import pytest
from markdown_it import MarkdownIt

from webresearch.extract.markdown import element_to_markdown
from webresearch.extract.parse import parse_html

URL = "https://garden.example.org/notes/"


def md(body: str) -> str:
    return element_to_markdown(parse_html(f"<html><body>{body}</body></html>"), URL)


def rendered(markdown: str) -> str:
    return str(MarkdownIt("commonmark").enable("table").render(markdown))


def shown_text(markdown: str) -> str:
    """The text a reader sees, whitespace collapsed (blocks and breaks are spaces)."""
    page = re.sub(
        r"</?(?:p|br|li|ul|ol|t[dhr]|table|thead|tbody|h\d)\b[^>]*>", " ", rendered(markdown)
    )
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", page)).split())


def page_text(body: str) -> str:
    """The text of a page fragment, whitespace collapsed (blocks and breaks are spaces)."""
    body = re.sub(r"</?(?:p|br|li|ul|ol|t[dhr]|table)\b[^>]*>", " ", body)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", body)).split())


# --------------------------------------------------------------------------- 1. raw HTML


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            "<p>Never paste &lt;script&gt;alert(1)&lt;/script&gt; into the form.</p>",
            "Never paste \\<script>alert(1)\\</script> into the form.",
        ),
        ("<p>Wrap it in &lt;em&gt; tags.</p>", "Wrap it in \\<em> tags."),
        ("<p>Notes go in &lt;!-- x --&gt; blocks.</p>", "Notes go in \\<!-- x --> blocks."),
        ("<p>Start with &lt;?php echo 1; ?&gt; here.</p>", "Start with \\<?php echo 1; ?> here."),
        ("<p>Begin with &lt;!DOCTYPE html&gt; first.</p>", "Begin with \\<!DOCTYPE html> first."),
        ("<p>Quote &lt;![CDATA[a]]&gt; raw.</p>", "Quote \\<![CDATA[a]]> raw."),
        (
            "<p>Write &lt;a href=\"/x\" title='t'&gt;text&lt;/a&gt; for a link.</p>",
            "Write \\<a href=\"/x\" title='t'>text\\</a> for a link.",
        ),
        ("<p>Mail &lt;rose@garden.example&gt; today.</p>", "Mail \\<rose@garden.example> today."),
        ("<p>See &lt;https://garden.example&gt; now.</p>", "See \\<https://garden.example> now."),
    ],
)
def test_literal_html_in_page_text_is_escaped(body: str, expected: str) -> None:
    out = md(body)
    assert out == expected
    page = rendered(out)
    assert "<script" not in page and "<em>" not in page and "<a " not in page
    assert shown_text(out) == page_text(body)


@pytest.mark.parametrize(
    "text",
    ["If a < b then x<3 holds.", "Use <= and => and a<-b.", "Plant 2<3 rows, not <4."],
)
def test_a_less_than_sign_that_starts_nothing_stays(text: str) -> None:
    assert md(f"<p>{html.escape(text)}</p>") == text


def test_a_line_starting_an_html_block_is_escaped() -> None:
    # "<div class=x" starts an HTML block (§4.6) even without its ">": the rest would be raw
    out = md("<p>Intro</p><p>&lt;div class=x<br>&lt;script src=a.js<br>end</p>")
    assert out == "Intro\n\n\\<div class=x\\\n\\<script src=a.js\\\nend"
    assert shown_text(out) == "Intro <div class=x <script src=a.js end"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Type &amp;copy; for the sign.", "Type \\&copy; for the sign."),
        ("Or &amp;#169; and &amp;#xA9; instead.", "Or \\&#169; and \\&#xA9; instead."),
        ("Seeds &amp; bulbs, AT&amp;T, &amp;nosuchname; stay.", None),
    ],
)
def test_an_ampersand_that_would_form_a_reference_is_escaped(
    text: str, expected: str | None
) -> None:
    out = md(f"<p>{text}</p>")
    assert out == (expected or html.unescape(text))
    assert shown_text(out) == html.unescape(text)


# --------------------------------------------------------------------------- 2. links


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Write [a](b) for a link.", "Write \\[a\\](b) for a link."),
        ("Write ![x](y) for a picture.", "Write !\\[x\\](y) for a picture."),
        ("Nested [a [b](c) d](e) too.", "Nested \\[a \\[b\\](c) d\\](e) too."),
        ("[a]: https://x.example", "\\[a]: https://x.example"),
    ],
)
def test_page_text_that_looks_like_a_link_stays_text(text: str, expected: str) -> None:
    out = md(f"<p>{text}</p>")
    assert out == expected
    assert "<a " not in rendered(out) and "<img" not in rendered(out)
    assert shown_text(out) == text


def test_brackets_that_make_no_link_stay_as_written() -> None:
    text = "Cited [1] and [2][3], see [notes] (below) or [x]."
    assert md(f"<p>{text}</p>") == text


def test_a_link_around_link_looking_text_keeps_its_text() -> None:
    out = md("<p>Read <a href='/guide'>[x](y) syntax</a> first, [1] <a href='/n'>note</a>.</p>")
    page = rendered(out)
    assert page.count("<a ") == 2
    assert '<a href="https://garden.example.org/guide">[x](y) syntax</a>' in page
    assert shown_text(out) == "Read [x](y) syntax first, [1] note."


def test_a_list_item_starting_like_a_definition_is_escaped() -> None:
    out = md("<ul><li>[tip]: water at dawn</li><li>[2] ok</li></ul>")
    assert out == "- \\[tip]: water at dawn\n- [2] ok"
    assert shown_text(out) == "[tip]: water at dawn [2] ok"


# --------------------------------------------------------------------------- 3. backticks


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Type a`b`c here.", "Type a\\`b`c here."),
        ("Quote ``x`` and `y` too.", "Quote \\`\\`x`` and \\`y` too."),
        ("It`s fine alone.", "It`s fine alone."),
    ],
)
def test_page_backticks_open_no_code_span(text: str, expected: str) -> None:
    out = md(f"<p>{text}</p>")
    assert out == expected
    assert "<code>" not in rendered(out)
    assert shown_text(out) == text


def test_a_page_backtick_does_not_take_our_code_span_apart() -> None:
    out = md("<p>It`s <code>ls</code> then `<code>cd</code>` ok</p>")
    assert rendered(out).count("<code>") == 2
    assert shown_text(out) == "It`s ls then `cd` ok"


# --------------------------------------------------------------------------- 4. backslashes


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Save to C:\\_temp\\ now.", "Save to C:\\\\_temp\\ now."),
        ("Match \\d+ then \\*.", "Match \\d+ then \\\\*."),
        ("Escape \\[x] and \\`y`.", "Escape \\\\[x] and \\\\\\`y`."),
    ],
)
def test_a_page_backslash_before_punctuation_is_doubled(text: str, expected: str) -> None:
    out = md(f"<p>{text}</p>")
    assert out == expected
    assert shown_text(out) == text


def test_a_page_backslash_before_our_markup_or_a_break_shows() -> None:
    out = md("<p>Path C:\\<b>bin</b> and D:\\<br>next</p>")
    assert shown_text(out) == "Path C:\\bin and D:\\ next"
    # the page's backslash shows; the <br> is the one hard break (review 11, fault 10)
    assert "<strong>bin</strong>" in rendered(out) and "D:\\<br />" in rendered(out)
    assert rendered(out).count("<br") == 1


# --------------------------------------------------------------------------- 5. table cells


def test_a_cells_backslash_pipe_shows_as_written() -> None:
    out = md(
        "<table><tr><th>Shell</th><th>Meaning</th></tr>"
        "<tr><td>a \\| b</td><td>x | y</td></tr></table>"
    )
    assert out.splitlines()[2] == "| a \\\\\\| b | x \\| y |"
    page = rendered(out)
    assert "<td>a \\| b</td>" in page and "<td>x | y</td>" in page


# --------------------------------------------------------------------------- 6. code spans


@pytest.mark.parametrize(
    ("body", "expected", "code"),
    [
        ("<code>foo</code><code>bar</code>", "`foobar`", ["foobar"]),  # review 11: one span
        ("<kbd>Ctrl</kbd><kbd>`</kbd>", "`Ctrl` `` ` ``", ["Ctrl", "`"]),
        ("<code>a</code> <code>b</code>", "`a` `b`", ["a", "b"]),
    ],
)
def test_code_elements_side_by_side_stay_code(body: str, expected: str, code: list[str]) -> None:
    out = md(f"<p>Run {body} now.</p>")
    assert out == f"Run {expected} now."
    assert re.findall(r"<code>(.*?)</code>", rendered(out)) == code


# --------------------------------------------------------------------------- 7. emphasis edges


@pytest.mark.parametrize(
    ("body", "expected", "strong"),
    [
        ("<strong>Note:</strong>Install it.", "**Note**:Install it.", "Note"),
        ("<strong>重要：</strong>请注意安全", "**重要**：请注意安全", "重要"),
        ("Plant<b>(early)</b>now", "Plant(**early**)now", "early"),
        ("A <b>(b)</b><i>x</i>", "A **(b**)*x*", "(b"),
        ("请<b>「注意」</b>安全", "请「**注意**」安全", "注意"),
    ],
)
def test_strong_text_ending_in_punctuation_before_a_letter_renders(
    body: str, expected: str, strong: str
) -> None:
    out = md(f"<p>{body}</p>")
    assert out == expected
    assert f"<strong>{strong}</strong>" in rendered(out)
    assert shown_text(out) == page_text(body)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("<strong>Note:</strong> Install it.", "**Note:** Install it."),
        ("Plant <b>(early)</b> now.", "Plant **(early)** now."),
        ("<em>Why?</em>", "*Why?*"),
        ("<b>Price:</b><br>10 EUR", "**Price:**\\\n10 EUR"),
    ],
)
def test_emphasis_that_renders_already_is_written_as_before(body: str, expected: str) -> None:
    out = md(f"<p>{body}</p>")
    assert out == expected
    assert "*" not in shown_text(out)


# --------------------------------------------------------------------------- round trip


def _round_trip(parts: list[tuple[str, str | None]], joint: str = "") -> None:
    body = joint.join(
        (f"<{t} href='/x'>" if t == "a" else f"<{t}>") + html.escape(s) + f"</{t}>"
        if t
        else html.escape(s)
        for s, t in parts
    )
    out = md(f"<p>{body}</p>")
    page = rendered(out)
    ours = sum(1 for s, t in parts if t and s.strip())
    assert len(re.findall(r"<(?!/?p>)[a-z!?/]", page)) <= 2 * ours, (body, out, page)
    assert shown_text(out) == page_text(body), (body, out)


def test_the_page_text_survives_a_round_trip_on_random_markup_lookalikes() -> None:
    """Random runs of letters, spaces and the characters markdown reads (``<>&[]()!`\\``
    and friends), some in our own emphasis, code or a link (their edges letters, so our own
    marks are well-formed): the text shown is the text given, and no HTML element, link,
    image or code span appears but ours."""
    rnd = random.Random(802)
    alphabet = "ab ab <>&[]()!`\\:;#/=\"'x.y@*_"
    for _ in range(800):
        parts: list[tuple[str, str | None]] = []
        for _ in range(rnd.randint(1, 3)):
            text = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(1, 10)))
            tag = rnd.choice([None, None, None, "b", "em", "code", "a"])
            parts.append(("a" + text + "b" if tag else text, tag))
        _round_trip(parts, " ")


def test_emphasis_with_punctuation_at_its_edges_renders_between_letters() -> None:
    """Random emphasis whose text starts and ends with punctuation, written between letters
    or punctuation of the page: the text shown is the text given, with no stars."""
    rnd = random.Random(2612)
    marks = ":;.,!?()\"'#/=<>&[]：「」"
    for _ in range(600):
        head = "".join(rnd.choice(marks) for _ in range(rnd.randint(0, 2)))
        tail = "".join(rnd.choice(marks) for _ in range(rnd.randint(0, 2)))
        before, after = rnd.choice(["x", "Word ", "(", ""]), rnd.choice(["y", " z", ".", ""])
        tag = rnd.choice(["b", "em", "strong", "i"])
        _round_trip([(before, None), (f"{head}ab{tail}", tag), (after, None)])


def test_adjacent_emphasis_with_edge_punctuation_is_one_emphasis() -> None:
    """Side by side, emphases of one kind join (session 9: test_markdown_round_trip); the
    punctuation between them stays inside, emphasised as on the page."""
    out = md("<p><i>Designer/</i><i>Photo</i> x, <b>a.</b><b>b</b> y</p>")
    assert out == "*Designer/Photo* x, **a.b** y"
    assert rendered(out) == "<p><em>Designer/Photo</em> x, <strong>a.b</strong> y</p>\n"


def test_a_bracketed_footnote_superscript_stays_unbraced() -> None:
    assert md("<p>Rust is in the kernel<sup>[1]</sup> now.</p>") == "Rust is in the kernel^[1] now."


@pytest.mark.parametrize("underline", ["=", "===", "--", "- -", "==  "])
def test_a_line_of_equals_or_dashes_after_a_break_is_no_heading(underline: str) -> None:
    """A setext underline (CommonMark §4.3) from the page's text: ``words<br>=`` had become
    an ``<h1>`` (fresh review, session 8)."""
    body = f"<p>Heading-like words here<br>{underline}</p>"
    out = md(body)
    assert "<h1>" not in rendered(out) and "<h2>" not in rendered(out), out
    assert shown_text(out) == page_text(body)


@pytest.mark.parametrize(
    "body",
    [
        "<p>A <strong>:</strong>x and then pre<strong>fix</strong>post</p>",
        "<p>Last<em>.</em>dot and <em>word</em></p>",
    ],
)
def test_emphasis_of_punctuation_alone_does_not_pair_with_later_marks(body: str) -> None:
    """``**:**x`` could not close, so its stars paired with the next run's and a whole
    stretch of the sentence became bold (fresh review, session 8)."""
    out = md(body)
    assert shown_text(out) == page_text(body), out
    assert "<strong>" not in rendered(out).split("pre")[0], out
