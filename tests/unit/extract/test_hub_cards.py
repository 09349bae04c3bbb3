"""A hub page's cards to its own sub-pages (one link around a heading and a summary each) are
its content: kept, the link on the heading; cards linking elsewhere are left as links."""

from __future__ import annotations

from webresearch.extract.html import extract_html
from webresearch.extract.hub_cards import open_hub_cards
from webresearch.extract.page_noise import drop_teasers
from webresearch.extract.parse import parse_html

SERVICES = {
    "pruning": "We shape young fruit trees in their first winters so that light reaches every branch.",
    "grafting": "Our grafters join old local varieties onto hardy rootstock for the next generation.",
    "soil-care": "A yearly soil test tells which feed your orchard needs before the blossom opens.",
    "harvest-help": "Pickers and crates arrive on the day your pears ripen and stay until the last tree.",
}


def card(slug: str, summary: str, prefix: str = "/services/") -> str:
    name = slug.replace("-", " ").capitalize()
    return (
        f"<div class='card'><a class='card-link' href='{prefix}{slug}/'>"
        f"<div class='card__body'><h3>{name}</h3><div class='card__desc'>{summary}</div>"
        "<span>Learn more</span></div></a></div>"
    )


def hub(extra: str = "") -> str:
    cards = "".join(card(slug, text) for slug, text in SERVICES.items())
    return (
        "<html><head><title>Orchard services</title></head><body>"
        "<header><nav><a href='/'>Home</a><a href='/services/'>Services</a></nav></header>"
        "<div class='page'><h1>Orchard services</h1><p>From the first planting to the last "
        "harvest, our gardeners look after community orchards across the county, and every "
        "service below can be booked for a single visit or a whole season.</p>"
        f"<div class='cards'>{cards}</div>{extra}</div>"
        "<footer><p>© 2026 Orchard Care</p></footer></body></html>"
    )


URL = "http://127.0.0.1/services"


def test_a_hubs_cards_to_its_sub_pages_are_kept_with_their_links() -> None:
    markdown = extract_html(hub(), URL).markdown
    for text in SERVICES.values():
        assert text in markdown
    assert "### [Pruning](http://127.0.0.1/services/pruning/)" in markdown


def test_only_cards_below_the_page_are_opened() -> None:
    teasers = "".join(
        card(slug, text, prefix="/blog/")  # the blog: other pages, a teaser grid
        for slug, text in SERVICES.items()
    )
    doc = parse_html(hub(f"<div class='more'>{teasers}</div>"))
    body = doc.find("body")
    assert body is not None
    assert open_hub_cards(body, URL) == 4
    assert len(body.findall(".//a[@class='card-link']")) == 4  # the blog cards stay links
    home = parse_html(hub()).find("body")
    assert home is not None
    assert open_hub_cards(home, "http://127.0.0.1/") == 0  # every page is below the home page


def test_a_linked_heading_without_a_summary_is_no_card() -> None:
    doc = parse_html(
        "<html><body><main><a href='/services/pruning/'><h3>Pruning and shaping</h3>"
        "<span>More</span></a></main></body></html>"
    )
    body = doc.find("body")
    assert body is not None
    assert open_hub_cards(body, URL) == 0


def test_the_teaser_pruning_spares_an_opened_card_in_a_promo_box() -> None:
    doc = parse_html(
        "<html><body><main><div class='promo'><a href='/services/pruning/'>"
        "<div class='promo__content'><h3>Pruning</h3>"
        f"<p>{SERVICES['pruning']}</p></div></a></div>"
        "<div class='promo'><a href='/blog/pruning-day/'><p>Pruning day</p></a></div>"
        "</main></body></html>"
    )
    body = doc.find("body")
    assert body is not None
    assert open_hub_cards(body, URL) == 1
    assert drop_teasers(body) == 1  # the blog teaser's box goes, the hub's card stays
    assert SERVICES["pruning"] in "".join(body.itertext())


def test_an_opened_cards_picture_stays_a_linked_thumbnail() -> None:
    doc = parse_html(
        "<html><body><main><a href='/services/pruning/'><img src='/p.jpg' alt='A pruned tree'>"
        f"<h3>Pruning</h3><p>{SERVICES['pruning']}</p></a></main></body></html>"
    )
    body = doc.find("body")
    assert body is not None
    assert open_hub_cards(body, URL) == 1
    img = body.find(".//img")
    assert img is not None
    parent = img.getparent()
    assert parent is not None and parent.tag == "a"
    assert parent.get("href") == "/services/pruning/"
    heading = body.find(".//h3/a")
    assert heading is not None and heading.text == "Pruning"
