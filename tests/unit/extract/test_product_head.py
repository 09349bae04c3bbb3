"""A product's head: price, rating and a picker's options under its <h1> are content."""

from __future__ import annotations

import pytest

from webresearch.extract.html import extract_html

LD = (
    '<script type="application/ld+json">{"@context": "https://schema.org", "@type": "Product",'
    ' "name": "Copper Kettle K2", "offers": {"@type": "Offer", "price": "64.50",'
    ' "priceCurrency": "GBP"}}</script>'
)
HEAD = (
    "<h1>Copper Kettle K2</h1>"
    "<div class='price'>£64.50 <s>£79.00</s></div>"
    "<div class='rating'>4.7 out of 5 stars (812 reviews)</div>"
    "<p class='description'>A hand-hammered copper kettle with a beech handle that boils a "
    "litre and a half on gas, electric or induction hobs and whistles when it is ready.</p>"
    "<div class='volume'>Volume: <button>1.0 l</button><button>1.5 l</button>"
    "<button disabled>2.0 l (sold out)</button></div>"
    "<button class='buy'>Add to basket</button>"
    "<table><tr><th>Weight</th><td>1.2 kg</td></tr><tr><th>Material</th><td>Copper</td></tr>"
    "</table>"
)
HEADER = "<header><a href='/'>Home</a> <a href='/basket'>Basket</a></header>"


def page(body: str, head: str = "") -> str:
    return f"<html><head><title>Copper Kettle K2</title>{head}</head><body>{body}</body></html>"


@pytest.mark.parametrize("wrap", ["{}", "<div class='product'>{}</div>", "<main>{}</main>"])
def test_price_rating_and_options_under_the_h1_are_kept(wrap: str) -> None:
    body = HEADER + wrap.format(HEAD) + "<footer>Kettle Co. Ltd</footer>"
    markdown = extract_html(page(body), "https://kettles.example/k2").markdown
    for text in ("£64.50", "£79.00", "4.7 out of 5 stars (812 reviews)", "hand-hammered"):
        assert text in markdown
    assert "Volume: 1.0 l 1.5 l 2.0 l (sold out)" in markdown
    for chrome in ("Add to basket", "Basket", "Kettle Co. Ltd"):
        assert chrome not in markdown


def test_a_declared_price_is_not_repeated_when_the_page_shows_it() -> None:
    markdown = extract_html(page(HEAD, LD), "https://kettles.example/k2").markdown
    assert "£64.50" in markdown
    assert "4.7 out of 5 stars" in markdown
    assert "Price: 64.50 GBP" not in markdown


def test_short_lines_under_an_article_heading_without_a_price_stay_out() -> None:
    article = (
        "<h1>Why copper kettles tarnish</h1><div class='meta'>Share</div>"
        "<div class='tags'>Kitchen</div>"
        + "".join(
            f"<p>Reason {i}: copper reacts with the oxygen and the moisture in a kitchen's air, "
            f"and a thin brown layer forms on the kettle within a few weeks of use.</p>"
            for i in range(4)
        )
    )
    markdown = extract_html(page(article), "https://kettles.example/blog/tarnish").markdown
    assert "Reason 3" in markdown
    assert "Share" not in markdown
    assert "Kitchen" not in markdown.replace("kitchen's", "")


def test_prices_in_an_article_body_pull_in_no_byline() -> None:
    """An article about prices shows them below its first paragraph, not under its name."""
    article = (
        "<h1>What a kettle repair costs</h1><div class='byline'>By Ann Lee</div>"
        "<div class='date'>Updated May 2</div>"
        "<p>A repair shop charges by the part and by the hour, and a kettle's thermostat is "
        "the part that fails first in most of the models we looked at this year.</p>"
        "<div>Thermostat: <span>£12-£18</span></div><div>Labour: <span>£20</span></div>"
        + "".join(
            f"<p>Point {i}: ask for the old part back, and compare the quote with the price "
            f"of a new kettle before you agree to any repair at all.</p>"
            for i in range(3)
        )
    )
    markdown = extract_html(page(article), "https://kettles.example/blog/repair").markdown
    assert "Point 2" in markdown
    assert "Ann Lee" not in markdown
    assert "Updated May 2" not in markdown
