"""What follows an article's container (extract/article_end.py), on small pages of our own."""

from __future__ import annotations

from lxml import etree, html

from webresearch.extract.article_end import drop_after_article
from webresearch.extract.html import extract_html

URL = "https://orchard.example.net/journal/pruning-old-apple-trees"

PROSE = "".join(
    f"<p>Step {i}: cut the crossing branch just outside its collar, leave the spur wood that "
    f"bore fruit last summer, and paint nothing on the wound; the tree seals it by spring.</p>"
    for i in range(8)
)

CALL = (
    "<div class='box'><h3>Want an orchard that crops every year?</h3>"
    "<p>Our team visits gardens across the county every winter season, and a first visit "
    "costs nothing at all.</p><p><a href='/visit'>Book a free orchard visit</a></p></div>"
)


def page(after: str, content: str = PROSE) -> str:
    return (
        "<!DOCTYPE html><html><head><title>Pruning old apple trees</title></head><body>"
        "<header><nav><a href='/'>Home</a> <a href='/journal'>Journal</a></nav></header>"
        "<main><article><h1>Pruning old apple trees</h1>"
        f"<div class='rich-text'>{content}</div>{after}</article></main>"
        "<footer><p>© 2024 Orchard Journal</p></footer></body></html>"
    )


def tree(after: str, content: str = PROSE) -> etree._Element:
    """The content as the extractor renders it: the article alone."""
    return html.fromstring(
        f"<div><article><div class='rich-text'>{content}</div>{after}</article></div>"
    )


def text(root: etree._Element) -> str:
    return " ".join("".join(root.itertext()).split())


def test_a_call_to_action_after_the_article_container_is_left_out() -> None:
    out = extract_html(page(CALL), URL).markdown
    assert "Step 7: cut the crossing branch" in out
    assert "crops every year" not in out
    assert "visits gardens across the county" not in out


def test_what_follows_inside_the_article_container_stays() -> None:
    root = tree("", PROSE + CALL)
    assert drop_after_article(root) == 0
    assert "Book a free orchard visit" in text(root)


def test_the_next_text_block_of_the_same_kind_is_the_article() -> None:
    more = "<div class='rich-text'><p>Last: water the tree deeply once the cuts are done.</p></div>"
    root = tree(more + CALL)
    assert drop_after_article(root) > 0
    assert "water the tree deeply" in text(root)
    assert "Book a free orchard visit" not in text(root)


def test_a_tail_of_its_own_prose_stays() -> None:
    faq = "".join(
        f"<div class='faq'><h3>Question {i}?</h3><div>Answer {i}: an old tree takes three "
        f"winters to reshape, a third of the crown each year, never more, or it answers with "
        f"a thicket of water shoots that shade the fruit and invite canker.</div></div>"
        for i in range(4)
    )
    root = tree(faq)
    assert drop_after_article(root) == 0
    assert "Answer 3" in text(root)


def test_reference_material_after_the_article_stays() -> None:
    index = "<dl><dt><code>prune()</code></dt><dd>Cuts one branch.</dd></dl>"
    root = tree(index)
    assert drop_after_article(root) == 0
    assert "Cuts one branch" in text(root)


def test_a_page_of_small_text_boxes_has_no_article_container() -> None:
    boxes = "".join(
        f"<div class='card'><p>Service {i}: we prune, shape and feed fruit trees of any age "
        f"and size.</p></div>"
        for i in range(6)
    )
    root = html.fromstring(f"<html><body><div class='grid'>{boxes}</div>{CALL}</body></html>")
    body = root.find("body")
    assert body is not None
    assert drop_after_article(body) == 0
    assert "Book a free orchard visit" in text(body)


def test_a_signature_written_as_its_own_paragraph_after_the_article_stays() -> None:
    """Review r-14: an API page's signature block is reference material, not a teaser."""
    signature = (
        "<div class='api'><h3>Signature</h3>"
        "<p><code>orchard.prune(tree, season=None)</code></p></div>"
    )
    root = tree(signature)
    assert drop_after_article(root) == 0
    assert "orchard.prune(tree, season=None)" in text(root)


def test_inline_code_in_a_sentence_of_the_tail_is_not_a_signature() -> None:
    teaser = (
        "<div class='box'><h3>More from the journal</h3>"
        "<p>Read how we use <code>shears</code> on young trees next month.</p></div>"
    )
    root = tree(teaser)
    assert drop_after_article(root) > 0
    assert "young trees next month" not in text(root)
