"""An article's author card is not content (extract/author_cards.py), on pages of our own."""

from __future__ import annotations

from lxml import html as lxml_html

from webresearch.extract.align import page_text_size
from webresearch.extract.author_cards import author_cards
from webresearch.extract.html import extract_html

URL = "https://kiln-notes.example.com/glazes/celadon-at-cone-ten"

PROSE = "".join(
    f"<p>Firing {i}: hold the kiln at body reduction for forty minutes, then let the iron "
    f"in the glaze turn the pale green that celadon is known for as the cone bends.</p>"
    for i in range(6)
)

CARD = (
    "<div class='box'><img src='/avatars/mara.jpg' alt='Mara Olsen'>"
    "<h4><a href='https://kiln-notes.example.com/author/mara-olsen/'>Mara Olsen</a></h4>"
    "<p>Mara is a studio potter in Bergen who has fired reduction kilns for twenty years "
    "and teaches glaze chemistry on weekends.</p></div>"
)


def md(inner: str) -> str:
    html = (
        "<!DOCTYPE html><html><head><title>Celadon at cone ten</title></head><body>"
        "<header><nav><a href='/'>Home</a> <a href='/glazes'>Glazes</a></nav></header>"
        f"<main><article><h1>Celadon at cone ten</h1>{inner}</article></main>"
        "<footer><p>© 2024 Kiln Notes</p></footer></body></html>"
    )
    return extract_html(html, URL).markdown


def test_an_author_card_after_the_article_is_not_content() -> None:
    out = md(PROSE + CARD)
    assert "Firing 0: hold the kiln" in out and "Firing 5: hold the kiln" in out
    assert "studio potter in Bergen" not in out


def test_a_card_linked_by_rel_author_counts() -> None:
    card = CARD.replace(
        "href='https://kiln-notes.example.com/author/mara-olsen/'", "href='/m' rel='author'"
    )
    assert "studio potter in Bergen" not in md(PROSE + card)


def test_a_byline_without_biography_stays() -> None:
    root = lxml_html.fromstring(
        "<div><p class='byline'>By <a href='/author/mara-olsen/'>Mara Olsen</a> · "
        f"6 min read</p><div>{PROSE}</div></div>"
    )
    assert author_cards(root, page_text_size(root)) == []


def test_several_people_cards_are_the_content() -> None:
    # A team page or an anthology's contributors: every card stays.
    cards = "".join(
        CARD.replace("mara-olsen", slug)
        .replace("Mara Olsen", name)
        .replace("Mara is", f"{first} is")
        for slug, name, first in [
            ("mara-olsen", "Mara Olsen", "Mara"),
            ("jon-berg", "Jon Berg", "Jon"),
        ]
    )
    root = lxml_html.fromstring(f"<div><div>{PROSE}</div>{cards}</div>")
    assert author_cards(root, page_text_size(root)) == []


def test_a_card_whose_text_is_not_about_the_linked_name_stays() -> None:
    root = lxml_html.fromstring(
        "<div><div class='box'><a href='/author/mara-olsen/'>Mara Olsen</a><p>Celadon is a "
        "glaze of iron and feldspar that turns green in reduction and blue-grey in the "
        f"cool spots of the kiln.</p></div><div>{PROSE}</div></div>"
    )
    assert author_cards(root, page_text_size(root)) == []


def test_pictures_next_to_the_card_stay() -> None:
    gallery = "".join(f"<img src='/g{i}.jpg' alt='Celadon bowl {i}'>" for i in range(4))
    root = lxml_html.fromstring(
        f"<div><div class='wrap'><div class='gallery'>{gallery}</div>{CARD}</div>"
        f"<div>{PROSE}</div></div>"
    )
    assert [c.get("class") for c in author_cards(root, page_text_size(root))] == ["box"]
