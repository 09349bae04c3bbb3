"""What a CommonMark renderer makes of our markdown is what the page showed (review of
session 9): emphasis elements side by side, a code element whose text is backticks, and a
link or image address holding entity-like or backslash-escape-like text. Checked by
rendering with markdown-it-py (CommonMark, the project's validity check).

Before: ``<em>a</em><em>b</em>`` → ``*a**b*`` (one emphasis around ``a**b``),
``<strong>x</strong><strong>y</strong>`` → ``**x****y**`` (literal stars),
``<code>``</code>`` → ``\\``` `` ``` ``, an address's ``&copy;`` rendered as ``©``.
"""

from __future__ import annotations

import random

import pytest
from lxml import etree
from markdown_it import MarkdownIt

from webresearch.extract.html import extract_html
from webresearch.extract.markdown import element_to_markdown
from webresearch.extract.parse import parse_html

URL = "https://orchard.example.net/pruning/"
#: CommonMark plus the strikethrough our ``~~`` means (GFM's, as markdown-it has it).
RENDERER = MarkdownIt("commonmark").enable("strikethrough")
KINDS = {"em": "em", "i": "em", "strong": "strong", "b": "strong", "del": "del", "s": "del"}


def md(body: str) -> str:
    return element_to_markdown(parse_html(f"<html><body>{body}</body></html>"), URL)


def styled(fragment: str) -> list[tuple[str, frozenset[str] | None]]:
    """Each non-space character of an HTML fragment with the emphasis kinds around it (letters
    and digits only: an emphasis' edge punctuation may stand outside its delimiters)."""
    out: list[tuple[str, frozenset[str] | None]] = []

    def walk(el: etree._Element, active: frozenset[str]) -> None:
        tag = el.tag if isinstance(el.tag, str) else ""
        here = active | ({KINDS[tag]} if tag in KINDS else set())
        out.extend((c, here if c.isalnum() else None) for c in el.text or "" if not c.isspace())
        for child in el:
            walk(child, here)
            out.extend(
                (c, here if c.isalnum() else None) for c in child.tail or "" if not c.isspace()
            )

    walk(etree.fromstring(fragment), frozenset())
    return out


def shows_as_page(body: str) -> bool:
    shown = RENDERER.render(md(f"<p>{body}</p>")).strip() or "<p/>"
    return styled(shown) == styled(f"<p>{body}</p>")


# --------------------------------------------------------------------------- emphasis side by side


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("Prune <em>early</em><em>spring</em> shoots.", "Prune *earlyspring* shoots."),
        ("Prune <i>early</i><em>spring</em> shoots.", "Prune *earlyspring* shoots."),
        ("Cut <strong>two</strong><strong>buds</strong> back.", "Cut **twobuds** back."),
        ("Cut <b>two</b><strong>buds</strong> back.", "Cut **twobuds** back."),
        ("Old <del>wood</del><s>stems</s> go.", "Old ~~woodstems~~ go."),
        ("Keep <em>one</em><span><em>leader</em></span>.", "Keep *oneleader*."),
        ("Tie <em>loosely</em><em>, </em><em>low</em>.", "Tie *loosely*, *low*."),
    ],
)
def test_emphasis_right_after_one_of_its_kind_is_one_emphasis(body: str, expected: str) -> None:
    out = md(f"<p>{body}</p>")
    assert out == expected
    assert "**" not in RENDERER.render(out).replace("<strong>", "")
    assert shows_as_page(body)


def test_an_emphasis_whose_only_content_is_one_of_another_kind_joins_that_kind() -> None:
    """``<b><em>x</em></b>`` keeps both kinds (session 10: it was written ``*x*``), and the
    emphasis before it of its inner kind takes it in: ``*one**leader***``, no ``*one****``."""
    out = md("<p>Keep <em>one</em><b><em>leader</em></b>.</p>")
    assert out == "Keep *one**leader***."
    assert RENDERER.render(out) == "<p>Keep <em>one<strong>leader</strong></em>.</p>\n"


@pytest.mark.parametrize(
    "body",
    [
        "Prune <em>early</em> <em>spring</em> shoots.",  # a space between: two emphases
        "Cut <b>two</b><i>buds</i> back.",  # different kinds side by side render as written
        "Cut <i>two</i><b>buds</b> back.",
        "Cut <i>two</i><del>buds</del> back.",
    ],
)
def test_emphasis_of_other_kinds_or_apart_keeps_its_delimiters(body: str) -> None:
    assert shows_as_page(body)


@pytest.mark.parametrize(
    "body",
    [
        "Thin <em>the <em>inner</em> crown</em>.",
        "Thin <em>the <em>inner.</em></em>",
        "Thin <strong>the <b>inner</b></strong> crown.",
        "Thin <del><s>old</s> wood</del> now.",
    ],
)
def test_emphasis_inside_one_of_its_kind_is_one_emphasis(body: str) -> None:
    out = md(f"<p>{body}</p>")
    assert shows_as_page(body), out
    assert "**" not in RENDERER.render(out).replace("<strong>", "")


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("Stems<del>. Old ones</del> go.", "Stems. ~~Old ones~~ go."),
        ("Cut <b>all of it .</b>Then rest.", "Cut **all of it** .Then rest."),
    ],
)
def test_edge_punctuation_before_a_space_moves_out_with_the_space(body: str, expected: str) -> None:
    """``~~`` after a letter and before ``.`` opens nothing (§6.2 flanking), and a delimiter
    before a space opens nothing either: the punctuation and the space move outside."""
    out = md(f"<p>{body}</p>")
    assert out == expected
    assert shows_as_page(body)


def test_emphasis_side_by_side_renders_as_the_page_on_random_pages() -> None:
    """Runs of text and emphasis elements (one level, with and without spaces and
    punctuation between): every letter keeps its emphasis, every character shows."""
    rng = random.Random(9)
    words = ["ash", "b", "elm.", ", ", "(oak)", "fir!", " "]
    for _ in range(400):
        parts = []
        for _ in range(rng.randint(2, 5)):
            text = "".join(rng.choice(words) for _ in range(rng.randint(1, 2)))
            tag = rng.choice([*KINDS, None, None])
            parts.append(f"<{tag}>{text}</{tag}>" if tag else text)
        body = "".join(parts)
        assert shows_as_page(body), (body, md(f"<p>{body}</p>"))


# --------------------------------------------------------------------------- code spans


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ("<code>``</code>", "``"),
        ("Type <code>`</code> twice.", "`"),
        ("Quote with <code>`name`</code> here.", "`name`"),
        ("A <code>a``b</code> run.", "a``b"),
        ("<code>```</code> opens a fence.", "```"),
    ],
)
def test_a_code_element_of_backticks_is_one_code_span_of_its_text(body: str, code: str) -> None:
    """CommonMark §6.1: a fence longer than any backtick run inside, one space of padding on
    each side when the text starts or ends with a backtick (a renderer strips it)."""
    out = md(f"<p>{body}</p>")
    page = RENDERER.render(out)
    assert page.count("<code>") == 1 and f"<code>{code}</code>" in page, out


def test_a_code_element_inside_another_is_part_of_its_span() -> None:
    out = md("<p>Press <kbd><kbd>Ctrl</kbd>+<kbd>C</kbd></kbd> to copy.</p>")
    assert out == "Press `Ctrl+C` to copy."


# --------------------------------------------------------------------------- link destinations


def rendered_href(markdown: str, kind: str = "link_open") -> str:
    tokens = [t for t in RENDERER.parseInline(markdown)[0].children or [] if t.type == kind]
    assert len(tokens) == 1, markdown
    return str(tokens[0].attrs["href" if kind == "link_open" else "src"])


@pytest.mark.parametrize(
    ("href", "address"),
    [
        ("/shop?size=1&amp;copy;=2", "https://orchard.example.net/shop?size=1&copy;=2"),
        ("/shop?a=1&amp;amp;b=2", "https://orchard.example.net/shop?a=1&amp;b=2"),
        ("/shop?n=&amp;#169;", "https://orchard.example.net/shop?n=&#169;"),
        ("/shop?n=&amp;#xA9;x", "https://orchard.example.net/shop?n=&#xA9;x"),
        ("/tools\\(saws", "https://orchard.example.net/tools\\%28saws"),
        ("/tools\\*saws\\", "https://orchard.example.net/tools\\*saws\\"),
        ("/shop?a=1&amp;b=2", "https://orchard.example.net/shop?a=1&b=2"),
    ],
)
def test_a_link_address_renders_back_to_itself(href: str, address: str) -> None:
    """§6.3: a destination's backslash escapes and entity references are resolved, so a
    ``\\`` and an ``&`` that starts a reference are backslash-escaped."""
    out = md(f'<p>See <a href="{href}">the shop</a> today.</p>')
    assert rendered_href(out) == RENDERER.normalizeLink(address)
    if "\\" not in address:  # markdown-it percent-encodes a backslash
        assert rendered_href(out) == address


def test_a_plain_query_address_is_written_as_it_is() -> None:
    out = md('<p><a href="/shop?a=1&amp;b=2">shop</a></p>')
    assert out == "[shop](https://orchard.example.net/shop?a=1&b=2)"


def test_an_image_and_a_card_address_render_back_to_themselves() -> None:
    image = md('<p><img alt="Saw" src="/img?w=1&amp;copy;=2&amp;p=a\\b.png"></p>')
    expected = "https://orchard.example.net/img?w=1&copy;=2&p=a\\b.png"
    assert rendered_href(image, "image") == RENDERER.normalizeLink(expected)
    card = md('<a href="/c?x=1&amp;reg;=2"><h3>Loppers</h3><p>Long handles.</p></a>')
    line = card.split("\n")[0]
    assert line.startswith("### [Loppers](")
    assert rendered_href(line.removeprefix("### ")) == "https://orchard.example.net/c?x=1&reg;=2"


def test_a_frame_address_renders_back_to_itself() -> None:
    """A frameset page's list of frame links (extract/frames.py) writes its addresses as
    the walk does."""
    page = (
        "<html><head><title>Charts</title></head><frameset cols='25%,75%'>"
        "<frame src='/map?z=1&amp;copy;=2' name='map'><frame src='deck\\plan.html' name='plan'>"
        "</frameset></html>"
    )
    out = extract_html(page, URL).markdown
    links = [line.removeprefix("- ") for line in out.split("\n") if line.startswith("- [")]
    assert [rendered_href(link) for link in links] == [
        "https://orchard.example.net/map?z=1&copy;=2",
        RENDERER.normalizeLink("https://orchard.example.net/pruning/deck\\plan.html"),
    ]
