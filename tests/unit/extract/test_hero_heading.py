"""A service page's hero: its <h1> inside the <header> that also holds the lead sentence
trafilatura kept is kept too (rescue.py, the page's own <h1>)."""

from __future__ import annotations

from webresearch.extract.html import extract_html

PAGE = (
    "<html><head><title>Harbour Chat</title></head><body>"
    "<header class='hero'><nav><a href='/'>Home</a> <a href='/pricing'>Pricing</a></nav>"
    "<div class='header-content'><h1>Team chat without a message limit</h1>"
    "<p>Harbour Chat keeps every message your team ever sent, searchable from the first "
    "day, on the free plan as on the paid one, for teams of any size.</p></div></header>"
    "<section><h2>Why teams move to Harbour Chat</h2>"
    "<p>Channels, threads and calls work as in the tools your team knows already, so "
    "nobody needs a training day before the switch.</p>"
    "<p>Your history moves with you: an import brings over years of channels in an "
    "afternoon, with files and reactions in place.</p></section>"
    "<footer><p>Harbour Software</p></footer></body></html>"
)


def test_the_hero_heading_in_the_header_holding_the_lead_is_kept() -> None:
    markdown = extract_html(PAGE, "https://chat.example/").markdown
    assert "keeps every message your team ever sent" in markdown
    assert "Team chat without a message limit" in markdown
    assert "Pricing" not in markdown
