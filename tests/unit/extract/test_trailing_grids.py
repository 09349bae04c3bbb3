"""Grids of link cards that end a documentation article are kept (extract/rescue.py), on small
pages of our own: a guide whose last section is a set of tiles, each a link wrapping a title
and a one-line description, lost them all (trafilatura reads each tile as link text)."""

from __future__ import annotations

from webresearch.extract.html import extract_html

URL = "https://docs.lockkeeper.example.org/locks/choose"

PROSE = (
    "<p>Lock keepers choose a gate design from the height of the fall, the traffic on the "
    "canal and the water the summit pound can spare in a dry summer month.</p>"
    + "".join(
        f"<p>Rule {i}: the keeper weighs the cost of the gate against the boats it will pass in "
        f"a season, the depth of the sill and the men the lock can call on in a flood.</p>"
        for i in range(5)
    )
    + "<p>This guide helps you understand which gate fits your lock, and where to read more "
    "about the mitre gates, the guillotine gates and the sector gates of the network.</p>"
)


def tiles(names: list[str]) -> str:
    return (
        "<div class='CardGroup'><span></span><div class='CardGroup-cards'>"
        + "".join(
            f"<div class='Card'><a href='/locks/{n.lower().replace(' ', '-')}'>"
            f"<div class='Card-title'><span>{n}</span></div>"
            f"<span class='Card-body'><p>How the {n.lower()} is built, opened and kept.</p></span>"
            "</a></div>"
            for n in names
        )
        + "</div></div>"
    )


def page(article_end: str, after_article: str = "") -> str:
    return (
        "<!DOCTYPE html><html><head><title>Choose a gate</title></head><body>"
        "<header><nav><a href='/'>Home</a> <a href='/locks'>Locks</a></nav></header>"
        f"<main><article><h1>Choose a gate</h1>{PROSE}{article_end}</article>{after_article}"
        "</main><footer><p>Canal docs</p></footer></body></html>"
    )


def test_card_grids_that_end_the_article_are_kept_with_their_heading() -> None:
    html = page(
        tiles(["Mitre gate", "Guillotine gate", "Sector gate", "Radial gate"])
        + "<h2>Explore the pound gates</h2>"
        + tiles(["Stop plank", "Flood gate", "Paddle gear"])
    )
    out = extract_html(html, URL).markdown
    assert "water the summit pound can spare" in out
    for name in ("Mitre gate", "Radial gate", "Stop plank", "Paddle gear"):
        assert f"How the {name.lower()} is built, opened and kept." in out, name
    assert "## Explore the pound gates" in out


def test_a_card_grid_outside_the_article_stays_out() -> None:
    html = page("", "<h2>More from the canal blog</h2>" + tiles(["Winter", "Spring", "Summer"]))
    out = extract_html(html, URL).markdown
    assert "water the summit pound can spare" in out
    assert "How the winter is built" not in out
