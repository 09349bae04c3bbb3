"""The page's whole text as its content, when trafilatura finds no main content. Pure functions.

trafilatura's last resort on a page where its extraction keeps fewer than 250 characters is
its baseline's "default strategy": the text of the whole ``<body>``, without footers,
asides, scripts and cookie banners (``BASIC_CLEAN_XPATH``), as one paragraph, one text run
a line (:func:`~webresearch.extract.traf_pass.is_whole_body_dump`). A shop's category grid
without prose (picture, name link, price, button a card), a chart of films, a team
schedule end there.

That text is no choice of content, so it is not aligned with the page's text runs like a
real extraction (:mod:`webresearch.extract.align`): it holds what the page walk does not
read (the labels of a ``<select>``'s options, hidden menus), and after such a stretch the
short runs of the cards (a price, "R", "2026") no longer continue the kept text exactly,
so they went unplaced — and below the aligned share trafilatura's own tree was rendered,
the whole page on one line, called the main content (review, session 15). Instead
:func:`keep_whole_body` keeps every text run outside what trafilatura's cleaning removed
(the same elements: :func:`~webresearch.extract.traf_pass.basic_cleaning_targets`); the
page is then rendered from its markup, its menus, banner and listing controls dropped
(``extract_html``), and said to be the whole page.

WCXB dev (webresearch alone, 756 pages): 18 pages (9 listings, 4 collections) end in that
last resort; 4 change (on the others the text was all placed before). Collection +0.0005 (a
shop's category page +0.023: its facet links, in the ground truth, now kept), listing −0.014
(3 pages down: a team schedule −0.58 whose ground truth holds the option labels of its team
drop-down, which the flattened text held and the markup never shows; a film chart −0.27 now
written as a list of cards from the markup, with its posters' alt texts, which the ground
truth leaves out, and its "2026", "1h 54m", "R" spans, side by side without space, read as
one word; −0.005), the other types and Zyte dev unchanged.
"""

from __future__ import annotations

from lxml import etree

from webresearch.extract.align import Segment
from webresearch.extract.traf_pass import basic_cleaning_targets

__all__ = ["keep_whole_body"]


def keep_whole_body(body: etree._Element, segments: list[Segment]) -> int:
    """Mark kept every segment of ``body`` outside the blocks trafilatura's cleaning
    removes (module docstring); the letters and digits kept."""
    cleaned: set[etree._Element] = set()
    for el in basic_cleaning_targets(body):
        if el not in cleaned:
            cleaned.update(el.iter())
    placed = 0
    for seg in segments:
        holder = seg.holder
        seg.kept = holder is not None and holder not in cleaned
        if seg.kept:
            placed += len(seg.norm)
    return placed
