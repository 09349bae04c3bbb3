"""Blocks of the page kept with the main content although the extractor dropped them.
Pure functions over lxml trees.

trafilatura drops some blocks inside an article that a reader needs
(:func:`rescue_blocks`, between the first and the last text it kept):

* code blocks (a ``code-toolbar`` or ``widget`` class, a very short ``<pre>``) and data
  tables (a partly kept data table is kept whole, never row by row). A table whose text is
  mostly link text is a data table too when its first row names its columns (``<th>``
  cells) over rows of data cells: a list page's table of laureates or releases links every
  name to its page, and trafilatura drops it by link density (issue 13: a listing's items
  are its content); a menu laid out as a table has no column headers, a navigation box's
  first row is one title cell. WCXB dev: listing +0.008 (a "List of …" page 0.33 → 0.81),
  article +0.0001 (a moving-company list +0.03), no page down, other types and Zyte unchanged;
* headings whose following text was kept, and the page's own ``<h1>`` right before the
  first kept text — also inside a ``<header>`` that holds that first kept text (a service
  page's hero: "Like Slack but without any limits" over the kept lead sentence; the page
  banner holds no kept text). WCXB dev: one service page +0.004, one article page −0.001
  (also taking an ``<article>``'s own ``<header>`` brought back its title, which the
  ground truths leave out: 10 article pages down);
* a list introduced by a kept sentence ending with a colon ("For more information, see:"):
  its items are often all links, which trafilatura leaves out. WCXB dev: article +0.001
  (6 pages up, one 0.72 → 1.00; 4 down by ≤ 0.011: a "read more:" list of posts),
  documentation +0.003, service +0.0002, the other types unchanged;
* a grid of link cards (every child a link wrapping a title and a one-paragraph
  description) right under a section's heading: a docs site's overview tiles ("Sliver
  widgets" and a tile per widget), read as link text by trafilatura. WCXB dev
  documentation +0.002 (Flutter's widget catalog 0.80 → 0.92). Without the heading the
  rule took in marketing tiles on service and listing pages, which their ground truths
  keep on some pages and not on others (listing −0.001);
* such grids that *end* the article, right after its last kept text (and the headings
  between them): read in order after the last kept text, inside the ``<article>`` (or else
  ``<main>``) holding it, only while the text is a card grid's or a heading's right over
  one (:func:`_trailing_grids`; a grid after the article, a blog's "more posts", stays
  out). A docs overview page ending in "Build a checkout page — Use Checkout to …" tiles
  lost them all: WCXB dev documentation 0.9166 → 0.9253 (that page 0.55 → 1.00), service
  +0.0002 (one page 0.30 → 0.32), the other types and Zyte dev unchanged;
* a list of link cards (:func:`~webresearch.extract.link_cards.is_card_list`: every item one link and a heading — the link
  wraps it or sits in it — and a summary beside the heading: ``<li><a><h3>Title</h3>
  <p>summary</p></a></li>``) between the first and last kept text: trafilatura reads each
  item as link text and drops the list (review: route cards with short summaries were
  lost). A menu is a list of bare links, without headings or summaries, and stays out; a
  list whose every item is a link wrapping a heading alone (``<li><a href="#bio-1"><h3>
  Name</h3></a></li>``: a team's names that open biographies) is one too: a menu's links
  wrap no heading (review: the names were lost, or all but the last). Such lists of names
  alone (no number, no summary: a "Most popular" list's items are numbered) that end the
  article are read like the grids below;
* a short list of plain items (:func:`_is_plain_list`: no link, at most
  :data:`MAX_PLAIN_ITEMS` items of at most :data:`MAX_PLAIN_ITEM_CHARS` letters and digits)
  right between two kept blocks ("… the following things." — Passport, Tickets — "If
  anything is missing …"): on a page whose paragraphs sit directly in ``<body>``
  trafilatura finds no content container and recovers the loose text, in its precision
  mode paragraphs, tables and code but no lists (``recover_wild_text``), so the list
  between them is lost; inside ``<article>`` or ``<div class="content">`` it is kept. A
  menu is made of links and stays out.
"""

from __future__ import annotations

from collections.abc import Collection

from lxml import etree

from webresearch.extract.align import Segment, normalise
from webresearch.extract.link_cards import (
    MIN_GRID_CARDS,
    is_card_grid,
    is_card_list,
    is_name_list,
)

__all__ = [
    "MAX_LEAD_GAP_CHARS",
    "MAX_PLAIN_ITEMS",
    "MAX_PLAIN_ITEM_CHARS",
    "MIN_GRID_CARDS",
    "MIN_LINKED_ROWS",
    "PARTIAL_TABLE_SHARE",
    "in_boilerplate",
    "rescue_blocks",
    "within",
]

#: A data table with at least this share of its text kept is kept whole.
PARTIAL_TABLE_SHARE = 0.3
#: A table of links under column headers is a data table with at least this many data rows.
MIN_LINKED_ROWS = 3
#: The page's own ``<h1>`` right before the first kept text is kept when at most this many
#: letters and digits (a byline, a date) lie between them.
MAX_LEAD_GAP_CHARS = 200
#: A plain list between two kept blocks (:func:`_is_plain_list`) has at most this many
#: items …
MAX_PLAIN_ITEMS = 30
#: … each of at most this many letters and digits.
MAX_PLAIN_ITEM_CHARS = 200
_CONTROL_TAGS = ("a", "button", "input", "select")
_HEADING_TAGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_BOILERPLATE_TAGS = frozenset({"nav", "aside", "footer", "header", "form", "menu"})
_BOILERPLATE_ROLES = frozenset({"navigation", "banner", "contentinfo", "search", "complementary"})


def _tag(el: etree._Element) -> str:
    return el.tag.lower() if isinstance(el.tag, str) else ""


def in_boilerplate(el: etree._Element, stop: etree._Element) -> bool:
    """True when ``el`` lies in navigation, a page header or footer, a sidebar or a form
    (below ``stop``)."""
    node: etree._Element | None = el
    while node is not None and node is not stop:
        if (
            _tag(node) in _BOILERPLATE_TAGS
            or (node.get("role") or "").lower() in _BOILERPLATE_ROLES
        ):
            return True
        node = node.getparent()
    return False


def _is_data_table(table: etree._Element) -> bool:
    """A table worth rescuing: several rows and columns, no nested table, not mostly links
    — or, mostly links, under a row of column headers (:func:`_has_column_headers`)."""
    if table.find(".//table") is not None:
        return False
    rows = table.findall(".//tr")
    if (
        len(rows) < 2
        or max((len(r.findall("td")) + len(r.findall("th")) for r in rows), default=0) < 2
    ):
        return False
    text = normalise(table.text_content())
    links = sum(len(normalise(a.text_content())) for a in table.iter("a"))
    return bool(text) and (links < 0.5 * len(text) or _has_column_headers(rows))


def _has_column_headers(rows: list[etree._Element]) -> bool:
    """True when the first row names the columns (at least two cells, all ``<th>``) over at
    least :data:`MIN_LINKED_ROWS` rows of data cells: a list page's table of laureates, of
    cities or of releases, whose cells link each name to its page (module docstring). A menu
    laid out as a table has no column headers; a navigation box's first row is one title
    cell over rows of links. Nor is a table whose every data cell is one link and nothing
    else (headed "Guides", "Tools", "News" over columns of links): it lays out a site's
    navigation; a data table has cells of its own text (a year, a country, a count) beside
    the linked names (review r16b)."""
    head = [c for c in rows[0] if _tag(c) in ("td", "th")]
    if len(head) < 2 or any(_tag(c) != "th" for c in head):
        return False
    data = [r for r in rows[1:] if r.find("td") is not None]
    if len(data) < MIN_LINKED_ROWS:
        return False
    return any(_own_text(c) for r in data for c in r.findall("td"))


def _own_text(cell: etree._Element) -> bool:
    """True when ``cell`` holds text that is not one link's whole text."""
    text = normalise(cell.text_content())
    if not text:
        return False
    links = cell.findall(".//a")
    return len(links) != 1 or normalise(links[0].text_content()) != text


def rescue_blocks(
    body: etree._Element, segments: list[Segment], holders: list[etree._Element | None]
) -> list[etree._Element]:
    """Code blocks, data tables and headings between the first and last kept text that
    trafilatura dropped (a heading only when the text right after it was kept), and the
    grids of link cards that end the article (module docstring)."""
    kept = [i for i, s in enumerate(segments) if s.kept]
    if not kept:
        return []
    first, last = kept[0], kept[-1]
    index: dict[etree._Element, list[int]] = {}
    for i, holder in enumerate(holders):
        if holder is not None:
            index.setdefault(holder, []).append(i)
    rescued: list[etree._Element] = []
    taken: set[etree._Element] = set()  # the same, for ``within``'s lookups

    def _take(el: etree._Element) -> None:
        rescued.append(el)
        taken.add(el)

    lead = _leading_h1(body, segments, holders, first)
    if lead is not None:
        _take(lead)
    for el in body.iter("pre", "table", "ul", "ol", "div", "section", *_HEADING_TAGS):
        tag = el.tag  # one of the names asked for (lxml matches them exactly)
        if tag in ("div", "section") and (
            len(el) < MIN_GRID_CARDS  # most blocks: no grid, and no call for them
            or not (is_card_grid(el) and _after_heading(el))
        ):
            continue
        cards = tag in ("ul", "ol") and is_card_list(el)
        plain = (
            tag in ("ul", "ol")
            and not cards
            and el.getnext() is not None  # cheap first: a list between two blocks
            and _previous_element(el) is not None
            and _is_plain_list(el)
        )
        if tag in ("ul", "ol") and not cards and not plain and not _after_colon(el):
            continue
        if within(el, taken):
            continue
        inner = [i for sub in el.iter() for i in index.get(sub, ())]
        if tag in ("div", "section"):
            if _in_span(inner, first, last) and not in_boilerplate(el, body):
                _take(el)
            continue
        if cards:
            if _in_span(inner, first, last) and not in_boilerplate(el, body):
                _take(el)
            continue
        if tag in ("ul", "ol"):
            introduced = _introduced_list(el, inner, index, segments, first, last)
            if plain and not _after_colon(el):
                introduced = introduced and _followed_by_kept(el, index, segments)
            if introduced and not in_boilerplate(el, body):
                _take(el)
            continue
        kept_inner = sum(1 for i in inner if segments[i].kept)
        if tag == "table" and kept_inner and kept_inner < len(inner) and _is_data_table(el):
            if kept_inner >= PARTIAL_TABLE_SHARE * len(inner) and not in_boilerplate(el, body):
                _take(el)  # a data table is kept whole, never row by row
            continue
        if not inner or min(inner) <= first or max(inner) >= last:
            continue
        if kept_inner or in_boilerplate(el, body):
            continue
        if tag == "table" and not _is_data_table(el):
            continue
        if tag in _HEADING_TAGS and not segments[max(inner) + 1].kept:
            continue  # a heading is rescued only when the text it introduces was kept
        _take(el)
    return rescued + _trailing_grids(body, segments, holders, last, taken)


def _trailing_grids(
    body: etree._Element,
    segments: list[Segment],
    holders: list[etree._Element | None],
    last: int,
    rescued: set[etree._Element],
) -> list[etree._Element]:
    """Grids of link cards that end the article right after its last kept text, with the
    headings over them (module docstring): the text after the last kept one is read in order,
    inside the ``<article>`` (or ``<main>``) that holds it, while it is a card grid's or a
    heading's whose next text is a grid's."""
    holder = holders[last]
    container = _enclosing(holder, body, "article")
    if container is None:
        container = _enclosing(holder, body, "main")
    if container is None:
        return []
    grids = [  # and lists of link cards (a team page's names ending it)
        el
        for el in container.iter("div", "section", "ul", "ol")
        if (is_name_list(el) if el.tag in ("ul", "ol") else is_card_grid(el))
        and not in_boilerplate(el, container)
    ]
    if not grids:
        return []
    found: list[etree._Element] = []
    i = last + 1
    while i < len(segments):
        node = holders[i]
        if node is None or not within(node, [container]) or within(node, rescued):
            break
        grid = next((g for g in grids if within(node, [g])), None)
        if grid is not None:
            if grid not in found:
                found.append(grid)
            i += 1
            continue
        heading = _enclosing_heading(node, container)
        following = holders[i + 1] if i + 1 < len(segments) else None
        if heading is None or following is None or not within(following, grids):
            break
        found.append(heading)
        i += 1
    return found


def _in_span(inner: list[int], first: int, last: int) -> bool:
    """True when the segments ``inner`` lie between the first and the last kept one."""
    return bool(inner) and min(inner) > first and max(inner) < last


def _introduced_list(
    el: etree._Element,
    inner: list[int],
    index: dict[etree._Element, list[int]],
    segments: list[Segment],
    first: int,
    last: int,
) -> bool:
    """A list trafilatura dropped whole (its items are all links, say) right after a kept
    sentence that introduces it with a colon ("For more information, see:"): the sentence
    is incomplete without it. Only between the first and last kept text."""
    if not inner or min(inner) <= first or max(inner) >= last:
        return False
    if any(segments[i].kept for i in inner):
        return False
    previous = _previous_element(el)
    lead = (
        [i for sub in previous.iter() for i in index.get(sub, ())] if previous is not None else []
    )
    return bool(lead) and segments[lead[-1]].kept


def _is_plain_list(el: etree._Element) -> bool:
    """A short list of plain items: no link, at most :data:`MAX_PLAIN_ITEMS` ``<li>``
    children of at most :data:`MAX_PLAIN_ITEM_CHARS` letters and digits each, and text in
    every one."""
    if len(el) > 2 * MAX_PLAIN_ITEMS or next(el.iter(*_CONTROL_TAGS), None) is not None:
        return False  # cheap tests first: every list on the page comes here
    items = [c for c in el if isinstance(c.tag, str)]
    if not items or len(items) > MAX_PLAIN_ITEMS or any(_tag(c) != "li" for c in items):
        return False
    sizes = [len(normalise("".join(c.itertext()))) for c in items]
    return all(0 < size <= MAX_PLAIN_ITEM_CHARS for size in sizes)


def _followed_by_kept(
    el: etree._Element, index: dict[etree._Element, list[int]], segments: list[Segment]
) -> bool:
    """True when the first text of the element right after ``el`` (no text between) was
    kept."""
    following = el.getnext()
    while following is not None and not isinstance(following.tag, str):
        following = following.getnext()
    if following is None or (el.tail or "").strip():
        return False
    inner = [i for sub in following.iter() for i in index.get(sub, ())]
    return bool(inner) and segments[inner[0]].kept


def _previous_element(el: etree._Element) -> etree._Element | None:
    previous = el.getprevious()
    while previous is not None and not isinstance(previous.tag, str):
        previous = previous.getprevious()
    return previous


def _after_heading(el: etree._Element) -> bool:
    """True when the element right before ``el`` is a heading, or a wrapper holding only a
    heading (and its permalink): ``el`` is that section's body."""
    previous = _previous_element(el)
    if previous is None or (previous.tail or "").strip():
        return False
    if _tag(previous) in _HEADING_TAGS[1:]:
        return True
    headings = [h for h in previous.iter(*_HEADING_TAGS[1:]) if h is not previous]
    if len(headings) != 1:
        return False
    return normalise("".join(headings[0].itertext())) == normalise("".join(previous.itertext()))


def _after_colon(el: etree._Element) -> bool:
    """True when the element right before ``el`` (no text between) ends with a colon."""
    previous = _previous_element(el)
    if previous is None or (previous.tail or "").strip():
        return False
    return "".join(previous.itertext()).rstrip().endswith(":")


def _leading_h1(
    body: etree._Element,
    segments: list[Segment],
    holders: list[etree._Element | None],
    first: int,
) -> etree._Element | None:
    """The page's own ``<h1>`` right before the first kept text, when it was dropped.

    trafilatura often takes the ``<h1>`` for the title and drops it; on a page without
    ``<main>`` or ``<article>`` the heading rescue between the first and last kept text
    does not reach it. Only :data:`MAX_LEAD_GAP_CHARS` of other text may lie in between,
    and no ``<h1>`` may be kept already.
    """
    headings = set(body.iter("h1"))
    if not headings:
        return None
    inner = {el for h1 in headings for el in h1.iter()}
    if any(s.kept and h in inner for s, h in zip(segments, holders, strict=True)):
        return None  # the page's own heading is kept already
    gap = 0
    for i in range(first - 1, -1, -1):
        seg, holder = segments[i], holders[i]
        h1 = _enclosing(holder, body, "h1") if holder in inner else None
        if h1 is not None:
            return None if _in_page_chrome(h1, body, holders[first]) else h1
        gap += len(seg.norm)
        if gap > MAX_LEAD_GAP_CHARS:
            return None
    return None


def _in_page_chrome(h1: etree._Element, body: etree._Element, lead: etree._Element | None) -> bool:
    """Whether the ``<h1>`` lies in page chrome (:func:`in_boilerplate`), a ``<header>``
    counting only when it does not hold ``lead`` (the first kept text's element)."""
    node: etree._Element | None = h1
    while node is not None and node is not body:
        tag = _tag(node)
        if tag == "header":
            if lead is None or not within(lead, [node]):
                return True
        elif tag in _BOILERPLATE_TAGS or (node.get("role") or "").lower() in _BOILERPLATE_ROLES:
            return True
        node = node.getparent()
    return False


def _enclosing_heading(el: etree._Element, stop: etree._Element) -> etree._Element | None:
    """``el`` or its nearest ancestor below ``stop`` that is a heading (``h2``–``h6``)."""
    node: etree._Element | None = el
    while node is not None and node is not stop:
        if _tag(node) in _HEADING_TAGS[1:]:
            return node
        node = node.getparent()
    return None


def _enclosing(el: etree._Element | None, stop: etree._Element, tag: str) -> etree._Element | None:
    """``el`` or its nearest ancestor below ``stop`` with this tag, or ``None``."""
    while el is not None and el is not stop:
        if _tag(el) == tag:
            return el
        el = el.getparent()
    return None


def within(el: etree._Element, blocks: Collection[etree._Element]) -> bool:
    """True when ``el`` is one of ``blocks`` or inside one of them.

    Each of ``el``'s ancestors is looked up in ``blocks``: a caller that asks for many
    elements against many blocks passes a set (a list made this quadratic in the page's
    size: 8 s of a 2 MB page's 25 s).
    """
    if not blocks:
        return False
    node: etree._Element | None = el
    while node is not None:
        if node in blocks:
            return True
        node = node.getparent()
    return False
