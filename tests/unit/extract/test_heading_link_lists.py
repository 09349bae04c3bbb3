"""A list whose every item is a link wrapping a heading alone (a team's names that open
biographies, or link to each member's page) is kept whole, between the article's texts or
ending it (extract/rescue.py, review), on pages of our own."""

from __future__ import annotations

import pytest

from webresearch.extract.html import extract_html

URL = "https://bakery.example.org/team"
NAMES = ["Alice Moreau", "Bruno Keller", "Chiara Rossi", "Dmitri Ivanov"]
LEAD = (
    "<p>Our small bakery has been making bread by hand since the early days of the village "
    "market, and the people below bake, sell and deliver it every morning.</p>"
)
AFTER = (
    "<p>Every one of them trained with our head baker for a year before working the ovens "
    "alone; write to us if you would like to join the team next season.</p>"
)


def team_page(target: str, after: str) -> str:
    items = "".join(
        f"<li><a href='{target}{i}'><h3>{name}</h3></a></li>" for i, name in enumerate(NAMES)
    )
    return (
        "<html><head><title>Team</title></head><body><header><nav><a href='/'>Home</a>"
        f"<a href='/shop'>Shop</a></nav></header><main><h1>Our team</h1>{LEAD}"
        f"<ul class='team'>{items}</ul>{after}</main><footer>© Bakery</footer></body></html>"
    )


@pytest.mark.parametrize("target", ["#bio-", "/people/"])
@pytest.mark.parametrize("after", [AFTER, ""])
def test_every_name_of_a_list_of_linked_headings_is_kept(target: str, after: str) -> None:
    markdown = extract_html(team_page(target, after), URL).markdown
    for name in NAMES:
        assert f"### {name}" in markdown or f"### [{name}]" in markdown
    assert "Home" not in markdown  # the menu stays out
