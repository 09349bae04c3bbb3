"""A list of links to document files is content (review n-17b).

trafilatura's link density test deletes a list whose text is all links: navigation and
related stories. A list of the reports, minutes and datasets an article refers to is also
all links, and losing it left its "Documents" heading alone; such a list links files, not
pages, and stays (:func:`webresearch.extract.link_lists.list_of_content`).
"""

from __future__ import annotations

from webresearch.extract.html import extract_html

ARTICLE = (
    "<html><head><title>Dam</title></head><body><article><h1>The dam repair</h1>"
    "<p>The water board agreed on Monday to repair the old dam above the village before the "
    "spring floods, after two years of reports about cracks in its northern wall.</p>"
    "<p>The work will close the footpath over the dam for six weeks; the ferry will run "
    "every half hour while it is closed, paid for by the board.</p>"
    "{list}<p>The board meets again in April to choose a contractor.</p>"
    "</article></body></html>"
)


def test_a_list_of_document_files_under_a_heading_stays() -> None:
    files = (
        '<h2>Papers</h2><ul><li><a href="/files/survey.pdf">Survey of the wall (PDF)</a></li>'
        '<li><a href="/files/costs.xlsx">Cost estimate (spreadsheet)</a></li></ul>'
    )
    markdown = extract_html(ARTICLE.format(list=files), "https://board.example/news/dam").markdown
    assert "[Survey of the wall (PDF)](https://board.example/files/survey.pdf)" in markdown
    assert "[Cost estimate (spreadsheet)](https://board.example/files/costs.xlsx)" in markdown


def test_a_list_of_links_to_pages_is_still_judged_by_its_links() -> None:
    pages = (
        '<h2>Related</h2><ul><li><a href="/news/ferry">Ferry times change</a></li>'
        '<li><a href="/news/floods">Spring floods expected</a></li></ul>'
    )
    markdown = extract_html(ARTICLE.format(list=pages), "https://board.example/news/dam").markdown
    assert "Ferry times change" not in markdown
    assert "The board meets again in April" in markdown
