"""Kept text in a hidden block moved to its visible copy (extract/visible_copies.py), on
small pages of our own."""

from __future__ import annotations

from lxml import etree

from webresearch.extract.align import text_segments
from webresearch.extract.html import extract_html
from webresearch.extract.visible_copies import keep_visible_copies

URL = "https://coast.example.org/concerts/"

EVENTS = [
    ("Harbour Hall", "Tide Songs", "Lisbon"),
    ("Granary Stage", "Winter Reeds", "Porto"),
    ("Old Mill Theatre", "Salt and Iron", "Faro"),
    ("Lantern Club", "Night Ferries", "Braga"),
    ("Quayside Rooms", "Copper Bells", "Coimbra"),
    ("Kiln House", "Paper Boats", "Evora"),
]


def _event(venue: str, show: str, city: str, heading: bool) -> str:
    """One schema.org Event card: the venue's visible heading (a link alone) and its hidden
    ``name`` in the Place for the machines."""
    slug = show.lower().replace(" ", "-")
    visible = (
        f'<h3><a href="/venues/{city.lower()}/" itemprop="url"><span>{venue}</span></a></h3>'
        if heading
        else ""
    )
    return (
        '<div class="col" itemscope itemtype="http://schema.org/Event">'
        f"{visible}"
        f'<p><a itemprop="url" href="/shows/{slug}/"><span>{show}</span></a></p>'
        "<p>Mar 6–Apr 18, 2026</p>"
        '<p itemprop="location" itemscope itemtype="http://schema.org/Place">'
        f'<span hidden itemprop="name">{venue}</span>'
        f'<span itemprop="address">{city}</span></p></div>'
    )


def _listing(heading: bool) -> str:
    """A listing page of a site built with ASP.NET WebForms (all of it inside a ``<form>``)."""
    cards = "".join(_event(*event, heading=heading) for event in EVENTS)
    return (
        "<!DOCTYPE html><html><head><title>Concerts this month</title></head><body>"
        "<header><nav><a href='/'>Home</a> <a href='/shows'>Shows</a></nav></header>"
        "<form id='aspnetForm' method='post'><div class='content'>"
        "<h1>Concerts this month</h1><p>A hand-picked list of concerts along the coast, "
        "from small club nights to opening galas in the old theatres.</p>"
        f"{cards}</div></form><footer><p>© 2026 Coast Listings</p></footer></body></html>"
    )


def test_a_hidden_microdata_name_gives_way_to_its_visible_heading() -> None:
    markdown = extract_html(_listing(heading=True), URL).markdown
    for venue, show, city in EVENTS:
        assert f"### [{venue}](https://coast.example.org/venues/{city.lower()}/)" in markdown
        assert markdown.count(venue) == 1  # the visible copy, once
        assert show in markdown and city in markdown
    assert markdown.index("Harbour Hall") < markdown.index("Tide Songs")


def test_a_hidden_name_without_a_visible_copy_is_left_out_as_before() -> None:
    markdown = extract_html(_listing(heading=False), URL).markdown
    assert "Tide Songs" in markdown and "Lisbon" in markdown
    assert not any(venue in markdown for venue, _, _ in EVENTS)


def test_only_a_copy_close_to_the_hidden_block_is_taken() -> None:
    body = etree.fromstring(
        "<body><div><p>Kiln House</p>"  # four levels above the hidden span: too far
        "<div><div><p><span>Paper Boats</span></p>"
        "<p><span hidden='' itemprop='name'>Kiln House</span></p></div></div></div></body>"
    )
    segments = list(text_segments(body))
    hidden = [el for el in body.iter("span") if el.get("hidden") is not None]
    for seg in segments[1:]:
        seg.kept = True
    assert keep_visible_copies(segments, hidden) == 0
    assert [seg.kept for seg in segments] == [False, True, True]
    assert keep_visible_copies(segments, hidden, levels=4) == len("kilnhouse")
    assert [seg.kept for seg in segments] == [True, True, False]


def test_an_already_kept_visible_copy_is_not_taken_twice() -> None:
    body = etree.fromstring(
        "<body><div><h3>Kiln House</h3>"
        "<p><span hidden='' itemprop='name'>Kiln House</span></p></div></body>"
    )
    segments = list(text_segments(body))
    hidden = list(body.iter("span"))
    for seg in segments:
        seg.kept = True
    assert keep_visible_copies(segments, hidden) == 0
    assert [seg.kept for seg in segments] == [True, True]


def test_a_hidden_copy_that_is_no_microdata_property_stays_as_it_was() -> None:
    body = etree.fromstring(
        "<body><div><div class='title'>Filters</div>"  # a label's responsive copy
        "<div class='title' style='display:none'>Filters</div></div></body>"
    )
    segments = list(text_segments(body))
    segments[1].kept = True
    hidden = [el for el in body.iter("div") if el.get("style")]
    assert keep_visible_copies(segments, hidden) == 0
    assert [seg.kept for seg in segments] == [False, True]


def _offer_page(visible_first: bool, hiding: str) -> str:
    """An article with a schema.org Offer whose description is repeated, hidden, for the
    machines; the visible copy has inline markup (three text nodes, a link among them)."""
    visible = (
        "<p>Delivery: <b>free of charge</b> within <a href='/shipping'>three working days</a>"
        " to any address on the mainland.</p>"
    )
    hidden = (
        f"<div {hiding}><p itemprop='description'>Delivery: free of charge within three "
        "working days to any address on the mainland.</p></div>"
    )
    offer = visible + hidden if visible_first else hidden + visible
    return (
        "<html><head><title>Garden bench</title></head><body><main><article>"
        "<h1>Garden bench</h1><p>A bench of oiled larch for two people, built to stand "
        "outside all year and to be moved by one person.</p>"
        f"<div itemscope itemtype='https://schema.org/Offer'>{offer}</div>"
        "<p>Every bench is made to order in our workshop and inspected before it ships, "
        "so allow a week before it leaves us.</p></article></main></body></html>"
    )


def test_a_visible_copy_with_inline_markup_is_kept_in_place_of_the_hidden_one() -> None:
    for visible_first in (True, False):
        for hiding in ("style='display:none'", "hidden"):
            markdown = extract_html(_offer_page(visible_first, hiding), URL).markdown
            assert markdown.count("three working days") == 1, (visible_first, hiding)
            assert (
                "Delivery: **free of charge** within "
                "[three working days](https://coast.example.org/shipping)"
            ) in markdown


def test_a_hidden_copy_with_inline_markup_matches_a_plain_visible_one() -> None:
    body = etree.fromstring(
        "<body><div><p>Ships in two days</p>"
        "<div hidden=''><p itemprop='description'>Ships in <b>two</b> days</p></div>"
        "</div></body>"
    )
    segments = list(text_segments(body))
    hidden = [el for el in body.iter("div") if el.get("hidden") is not None]
    for seg in segments[1:]:
        seg.kept = True
    assert keep_visible_copies(segments, hidden) == len("shipsintwodays")
    assert [seg.kept for seg in segments] == [True, False, False, False]


def test_a_visible_run_must_start_and_end_with_whole_text_nodes() -> None:
    body = etree.fromstring(
        "<body><div><p>Our Kiln House<b>s</b> and rooms</p>"  # "kilnhouse" inside a node
        "<p><span hidden='' itemprop='name'>Kiln House</span></p></div></body>"
    )
    segments = list(text_segments(body))
    hidden = [el for el in body.iter("span") if el.get("hidden") is not None]
    segments[-1].kept = True
    assert keep_visible_copies(segments, hidden) == 0
    assert [seg.kept for seg in segments] == [False, False, False, True]
