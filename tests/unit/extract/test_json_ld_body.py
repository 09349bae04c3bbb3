"""The JSON-LD that holds an article's text stays for trafilatura's baseline rescue."""

from __future__ import annotations

import json

from webresearch.extract.page_noise import drop_inert
from webresearch.extract.parse import parse_html
from webresearch.extract.traf_pass import extraction_pass

FIRST = (
    "The harbour town of Lessing rebuilt its old tide mill this spring, and the miller now "
    "grinds rye for three bakeries on the quay every morning before the boats leave."
)
SECOND = (
    "Engineers had warned that the sluice gates would not survive another winter storm, so "
    "the council paid for oak gates cut by hand in the same shape as the originals."
)


def ld_script(data: dict[str, str]) -> str:
    return f'<script type="application/ld+json">{json.dumps(data)}</script>'


ARTICLE_LD = ld_script(
    {"@type": "NewsArticle", "headline": "Tide mill", "articleBody": f"{FIRST} {SECOND}"}
)
PAGE = (
    "<html><head><title>Tide mill grinds again</title>"
    + ld_script({"@type": "Organization", "name": "Coast News"})
    + "<script>var slots = 3;</script></head><body>"
    "<nav><ul><li><a href='/a'>Weather</a></li><li><a href='/b'>Ferries</a></li>"
    "<li><a href='/c'>Markets</a></li></ul></nav><p>Trending: ferry timetable changes</p>"
    # a block trafilatura discards by its class: its main extractor keeps nothing here
    f"<div class='story-embed'><h1>Tide mill grinds again</h1><div>{FIRST}</div>"
    f"<div>{SECOND}</div></div>"
    "<div class='bottom'>Sign up for the Coast News morning letter</div>"
    f"<script>track('view');</script>{ARTICLE_LD}</body></html>"
)


def test_only_the_json_ld_holding_the_article_text_stays() -> None:
    doc = parse_html(PAGE)
    drop_inert(doc)
    scripts = doc.findall(".//script")
    assert len(scripts) == 1
    assert "articleBody" in (scripts[0].text or "")


def test_trafilatura_takes_the_article_from_it_not_the_whole_page() -> None:
    doc = parse_html(PAGE)
    drop_inert(doc)
    result = extraction_pass(doc, True, False)
    assert result is not None
    text = " ".join(" ".join(result.body.itertext()).split())
    assert FIRST in text and SECOND in text
    assert "Weather" not in text
    assert "Trending" not in text
