"""A list page's table of links under column headers is content (rescue.py)."""

from __future__ import annotations

from webresearch.extract.html import extract_html

URL = "https://example.org/wiki/List_of_lighthouse_keepers"

INTRO = "".join(
    f"<p>Paragraph {i} tells how the coastal service appointed its keepers, which stations "
    f"they served and how the records of each posting were kept over the decades.</p>"
    for i in range(4)
)
OUTRO = "".join(
    f"<p>Closing paragraph {i} explains where the service archive keeps the letters of "
    f"appointment and how a reader may ask to see them in person.</p>"
    for i in range(4)
)


#: an encyclopedia's page declares itself an article: trafilatura alone reads it (html.py)
LD = '{"@context": "https://schema.org", "@type": "Article", "name": "List of lighthouse keepers"}'


def _row(year: int) -> str:
    return (
        f"<tr><td>{1900 + year}</td>"
        f"<td><a href='/wiki/Keeper_{year}a'>Alma Quarry {year}</a></td>"
        f"<td><a href='/wiki/Keeper_{year}b'>Bertil Sund {year}</a></td>"
        f"<td><a href='/wiki/Station_{year}'>North Skerry station {year}</a></td></tr>"
    )


def _page(table: str) -> str:
    return (
        "<!DOCTYPE html><html><head><title>List of lighthouse keepers</title>"
        f"<script type='application/ld+json'>{LD}</script></head><body>"
        "<nav><a href='/'>Home</a> <a href='/random'>Random page</a></nav>"
        f"<main><h1>List of lighthouse keepers</h1>{INTRO}<h2>Keepers by year</h2>{table}"
        f"{OUTRO}</main><footer><p>Text is available under a licence.</p></footer></body></html>"
    )


def test_a_table_of_links_under_column_headers_is_kept() -> None:
    table = (
        "<table class='sortable'><tbody><tr><th>Year</th><th>Head keeper</th>"
        "<th>Assistant</th><th>Station</th></tr>" + "".join(_row(y) for y in range(1, 26))
    ) + "</tbody></table>"
    markdown = extract_html(_page(table), URL).markdown
    assert "Closing paragraph 3" in markdown
    assert "| Year | Head keeper | Assistant | Station |" in markdown
    assert "Alma Quarry 1" in markdown and "North Skerry station 25" in markdown


def test_a_table_of_links_without_column_headers_stays_out() -> None:
    # a navigation box: one title cell over rows of links
    rows = "".join(
        f"<tr><td><a href='/wiki/T{i}'>Topic {i}</a></td><td><a href='/wiki/U{i}'>Other {i}</a>"
        f"</td></tr>"
        for i in range(40)
    )
    table = f"<table><tr><th colspan='2'>Lighthouses</th></tr>{rows}</table>"
    markdown = extract_html(_page(table), URL).markdown
    assert "Closing paragraph 3" in markdown
    assert "Topic 14" not in markdown


def test_a_table_whose_every_cell_is_one_link_stays_out() -> None:
    """Headed columns of links and nothing else lay out a site's navigation (review r16b)."""
    rows = "".join(
        f"<tr><td><a href='/maps/{i}'>Coast map {i}</a></td>"
        f"<td><a href='/apps/{i}'>Signal app {i}</a></td>"
        f"<td><a href='/news/{i}'>Keeper news {i}</a></td></tr>"
        for i in range(6)
    )
    table = f"<table><tr><th>Maps</th><th>Apps</th><th>News</th></tr>{rows}</table>"
    markdown = extract_html(_page(table), URL).markdown
    assert "Closing paragraph 3" in markdown
    assert "Signal app 3" not in markdown
