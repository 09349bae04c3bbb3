"""What a CommonMark renderer makes of our markdown is what the page showed (review of
session 9): a code element whose text is backticks, and a link or image address holding
entity-like or backslash-escape-like text. Checked by
rendering with markdown-it-py (CommonMark, the project's validity check).

Before: ``<code>``</code>`` → ``\\``` `` ``` ``, an address's ``&copy;`` rendered as ``©``.
"""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

from webresearch.extract.markdown import element_to_markdown
from webresearch.extract.parse import parse_html

URL = "https://orchard.example.net/pruning/"
#: CommonMark plus the strikethrough our ``~~`` means (GFM's, as markdown-it has it).
RENDERER = MarkdownIt("commonmark").enable("strikethrough")


def md(body: str) -> str:
    return element_to_markdown(parse_html(f"<html><body>{body}</body></html>"), URL)


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
