"""Emphasis of different kinds nested or side by side (review of session 10): each kind the
page shows stays, written so a CommonMark renderer (markdown-it-py) shows no delimiter as
text. Before: ``<b><em>x</em></b>`` → ``*x*`` (the strong emphasis lost),
``<em>a<strong>b</strong></em><strong>c</strong>`` → ``a**b****c**`` (a literal ``****``),
``<b>x <em>y</em></b>`` → ``x *y*``.
"""

from __future__ import annotations

import html
import random

import pytest
from lxml import etree
from markdown_it import MarkdownIt

from webresearch.extract.html import extract_html
from webresearch.extract.markdown import element_to_markdown
from webresearch.extract.parse import parse_html

URL = "https://quilts.example.net/patterns/"
RENDERER = MarkdownIt("commonmark").enable("strikethrough")
KINDS = {
    "em": "em", "i": "em", "strong": "strong", "b": "strong", "del": "del", "s": "del",
    "code": "code", "sup": "sup", "sub": "sub",
}  # fmt: skip


def md(body: str) -> str:
    return element_to_markdown(parse_html(f"<html><body><p>{body}</p></body></html>"), URL)


def kinds(fragment: str) -> list[tuple[str, frozenset[str]]]:
    """Each letter or digit of an HTML fragment with the emphasis kinds around it."""
    out: list[tuple[str, frozenset[str]]] = []

    def walk(el: etree._Element, active: frozenset[str]) -> None:
        tag = el.tag if isinstance(el.tag, str) else ""
        here = active | ({KINDS[tag]} if tag in KINDS and KINDS[tag] != "sup" else set())
        here -= {"sub", "sup"}
        out.extend((c, here) for c in el.text or "" if c.isalnum())
        for child in el:
            walk(child, here)
            out.extend((c, here) for c in child.tail or "" if c.isalnum())

    walk(etree.fromstring(fragment), frozenset())
    return out


def shown(markdown: str) -> str:
    return RENDERER.render(markdown).strip() or "<p/>"


def shown_text(markdown: str) -> str:
    root = etree.fromstring(shown(markdown).replace("\n", ""))
    return html.unescape("".join(root.itertext()))


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("Use <b><em>bias</em></b> binding.", "Use ***bias*** binding."),
        ("Use <i><strong>bias</strong></i> binding.", "Use ***bias*** binding."),
        ("Press<b><em>firmly</em></b>now.", "Press***firmly***now."),  # inside a word: stars
        ("<b>Pin <em>every</em></b> seam.", "**Pin *every*** seam."),
        ("<em>Pin <b>every</b></em> seam.", "*Pin **every*** seam."),
        ("<b><em>Pin</em> every</b> seam.", "***Pin* every** seam."),
        ("<b><em>Cut</em></b><em>twice</em>.", "***Cut**twice*."),
        ("<b><em>Cut</em></b><b>twice</b>.", "***Cut*twice**."),
        ("<em>Cut</em><b><em>twice</em></b>.", "*Cut**twice***."),
        ("<em>Cut</em><strong>twice</strong>.", "*Cut***twice**."),
    ],
)
def test_nested_kinds_keep_each_kind(body: str, expected: str) -> None:
    out = md(body)
    assert out == expected
    assert kinds(shown(out)) == kinds(f"<p>{body}</p>")


def test_an_emphasis_whose_stars_would_run_into_the_ones_before_shows_no_stars() -> None:
    """``<em>a<strong>b</strong></em><strong>c</strong>``: ``*a**b***`` then ``**c**`` would
    make a run of five stars that CommonMark pairs otherwise (``****`` shown); CommonMark
    cannot write the three kinds of letters side by side, so the last loses its strong
    emphasis rather than show stars."""
    out = md("Seam <em>a<strong>b</strong></em><strong>c</strong> done.")
    assert "*" not in shown_text(out)
    assert shown(out) == "<p>Seam <em>a<strong>b</strong></em>c done.</p>"


def test_the_product_page_of_the_review_keeps_both_kinds() -> None:
    page = (
        "<html><head><title>Quilt kit</title></head><body><main><article><h1>Quilt kit</h1>"
        "<p>The kit holds <b><em>pre-cut</em></b> squares for a lap quilt, thread and a "
        "pattern booklet with twelve pages of diagrams and notes on pressing seams.</p>"
        "<p>Every square is cut from washed cotton so that it will not shrink after the "
        "first wash, and the colours stay bright.</p></article></main></body></html>"
    )
    out = extract_html(page, URL).markdown
    assert "***pre-cut***" in out
    assert "<em><strong>pre-cut</strong></em>" in shown(out)


def test_random_mixes_of_kinds_show_no_delimiters_and_no_kind_the_page_lacks() -> None:
    """Random nests and runs of emphasis and strong emphasis around words, inside words or
    apart: the words shown are the page's, no ``*`` shows, and no letter gets a kind it did
    not have; most keep all theirs, and hardly any shows stars. (Strikethrough, code and scripts: below. A delimiter
    between a letter and punctuation cannot open or close, CommonMark §6.2: ``x~~`b`~~y``
    shows its tildes whatever the walk does.)"""
    rnd = random.Random(10)
    tags = ["b", "em", "i", "strong"]
    kept = total = 0

    def fragment(depth: int) -> str:
        parts = []
        edge = rnd.choice(["", "", "z"])  # some elements with a letter at each edge
        for _ in range(rnd.randint(1, 3)):
            word = "".join(rnd.choice("abc") for _ in range(rnd.randint(1, 3)))
            if depth < 3 and rnd.random() < 0.6:
                tag = rnd.choice(tags)
                inner = fragment(depth + 1)
                parts.append(f"<{tag}>{edge}{inner}{edge}</{tag}>")
            else:
                parts.append(word)
            parts.append(rnd.choice(["", "", " "]))
        return "".join(parts)

    failed = []
    for _ in range(400):
        body = "x " + fragment(0) + " y"
        out = md(body)
        page, seen = kinds(f"<p>{body}</p>"), kinds(shown(out))
        text = shown_text(out)
        if "*" in text:
            failed.append((body, out))
            continue
        assert [c for c, _ in seen] == [c for c, _ in page], (body, out)
        for (_, want), (_, got) in zip(page, seen, strict=True):
            assert got <= want, (body, out)
            kept += got == want
            total += 1
    # before (main 0e2b5a7): stars shown on 75 of 2000 such pages, 67 % of kinds kept; now
    # 16 and 93 % (a run of stars the walk cannot split without a character between)
    assert len(failed) <= 4, failed
    assert kept / total > 0.9


@pytest.mark.parametrize(
    "body",
    [
        "Sew <b><code>seam()</code></b> twice.",
        "Sew <code>a</code><b>b</b><em>c</em><code>d</code> twice.",
        "Sew <del><em>old</em></del> <em><del>new</del> ones</em> twice.",
        "Sew <b>x<sup>2</sup></b><em>y<sub>i</sub></em> twice.",
        "Sew <del>old</del><b><em>new</em></b><del>gone</del> twice.",
        "Sew <em>one <code>*</code></em> <b><code>**</code> two</b> twice.",
    ],
)
def test_code_scripts_and_strikethrough_beside_or_inside_emphasis(body: str) -> None:
    out = md(body)
    assert kinds(shown(out)) == kinds(f"<p>{body}</p>"), out


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        # a page's pattern: the punctuation at the end of both kinds moves out of both
        (
            "<i><b>Read the list.<br/><br/></b></i><b>No.100 Celera</b>Makati City",
            "***Read the list***.**No.100 Celera**Makati City",
        ),
        ("Then<b><em>(first.)</em></b>go.", "Then(***first***.)go."),
        ("<b><em>Note:</em></b>Install", "***Note***:Install"),
        ("<b><em>Note:</em></b> Install", "***Note:*** Install"),
        ("Then<b><em>first.</em> cut</b>go.", "Then***first.* cut**go."),
    ],
)
def test_punctuation_at_the_edge_of_nested_kinds(body: str, expected: str) -> None:
    out = md(body)
    assert out == expected
    assert kinds(shown(out)) == kinds(f"<p>{body}</p>")


def test_an_inner_emphasis_ending_with_punctuation_before_a_letter_shows_no_stars() -> None:
    """``<b>x <em>y.</em></b>z``: the ``.`` moves out of the ``*`` (a letter follows), and
    the ``**`` after it could then not close (CommonMark §6.2); the strong emphasis is left
    out (as on main), never shown as stars."""
    out = md("Cut<b> the <em>stem.</em></b>Then")
    assert out == "Cut the *stem*.Then"
    assert "*" not in shown_text(out)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            "<b><a href='/talks'>In conversation</a></b>is a series.",
            "[**In conversation**](https://quilts.example.net/talks)is a series.",
        ),
        (
            "Join<em><a href='/talks'>the talks</a></em> now.",
            "Join[*the talks*](https://quilts.example.net/talks) now.",
        ),
        (
            "Join<b><i><a href='/talks'>the talks</a></i></b>now.",
            "Join[***the talks***](https://quilts.example.net/talks)now.",
        ),
        (  # the letter in the element after it
            "<em><strong><a href='/talks'>Talks</a></strong></em><span>is a series.</span>",
            "[***Talks***](https://quilts.example.net/talks)is a series.",
        ),
        (  # apart from letters: as before
            "Join <b><a href='/talks'>the talks</a></b>. Now.",
            "Join **[the talks](https://quilts.example.net/talks)**. Now.",
        ),
    ],
)
def test_emphasis_around_a_link_glued_to_a_letter_goes_inside_the_link(
    body: str, expected: str
) -> None:
    """``<b><a>x</a></b>is``: ``**[x](u)**is`` shows its stars (a delimiter between the
    link's ``)`` and a letter closes nothing); ``[**x**](u)is`` is the same emphasis."""
    out = md(body)
    assert out == expected
    assert kinds(shown(out)) == kinds(f"<p>{body}</p>")
    assert "*" not in shown_text(out)
