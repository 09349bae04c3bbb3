"""A listing's sort and filter controls and its result count, found for removal. Pure functions.

A shop's category page or a search page puts a toolbar over its grid of items: the number of
items ("31 products", "Showing 1–16 of 29 results", "1–30 of 83 products"), the sort control
("Sort", "Sort by:", "Sort: Best Match"), the filter toggles ("Filters", "Filter & Sort",
"Sort and Filter"), the layout switch ("View:"). They are the page's controls, not its items,
and an article extractor keeps them as short lines above the items (issue 13: a collection's
filter and sort chrome). Ground truths of such pages leave them out.

:func:`listing_controls` lists the elements whose whole text is one of those labels (a
full match, whitespace collapsed, case ignored):

* **result counts**: a number of items or results, with "Showing" or a range; a count of
  one page of many ("Showing 4 of 36 products", "1–30 of 83 products"; not "2 of 2") stays:
  it tells the reader the page holds part of the items (review, session 17; ground truths
  leave it out);
* **sort and filter labels**: "Sort by", "Sort by: Featured" (at most
  :data:`MAX_CHOICE_WORDS` words after the colon), "Filter & Sort", "Sort and Filter",
  "Refine by", "Clear all filters", "Show filters"; the one-word labels ("Sort", "Filters",
  "View:") only on a control: the element or one of its three nearest ancestors is a
  button, a label, a link or a form, or names a sort, filter or facet block in its class
  or id;
* **a card's action buttons**: "Quick view", "Quick Shop 5 colors", "Add to cart", "Add to
  wishlist", "Choose options", "Save for later"; "Compare" and "+ Wishlist" only on a
  control.

* **a grid's "more" control**: "See more", "Load more", "View more", "Show more results",
  and a bare "View all", "See all", "Shop all" (:data:`_MORE`; "See all integrations" names
  what it opens and is left) on a control (a button, a link: to the next page, the
  section's own page or a script that fetches the next cards) with a card grid near it: an
  ancestor at most :data:`MAX_GRID_DEPTH` levels up holds at least :data:`MIN_GRID_CARDS`
  siblings of one tag and class, each with a link. It fetches more of the items; it is not
  one of them. WCXB dev: of the 30 such lines we wrote, one is in its ground truth (a
  review page's "See more"). Collection 0.7414 → 0.7416 (4 pages up, to +0.003), listing
  +0.0001 (3 up: a news front page's 12 "See More" +0.004), service 2 up, article 1 up,
  product one up and one down (−0.001, that review page); Zyte dev unchanged. A "Read
  more" is left alone (a testimonial's, a teaser's link stands in some ground truths).

* **a filter's drop-down names**: the ``<label>`` of a ``<select>`` (it holds it, or names
  it by ``for``) inside a block whose class or id names a sort, filter, facet or refine
  block (:data:`MAX_FILTER_DEPTH` ancestors up): "Material", "Brand". The drop-down and
  its options are never written (markdown.py skips form fields): its name alone, over the
  items, reads as a stray word (review, session 15: "Material" above a shop's grid of
  teapots). A checkbox's label stays: it is a choice the reader sees (WCXB dev: a shop's
  facets "Apple, Beats, Sony…" are in the ground truth, −0.033 on that page without them).
  A ``<label>`` holding its ``<select>`` goes wherever it is: the two are one control, and
  the label alone was left ("Sort by" on a line of its own in a shop's toolbar: review n-17).

* **a sort bar of links**: the nearest block around a link whose query re-sorts the list
  (``?sort=``, ``&orderby=``; at most :data:`MAX_BAR_DEPTH` levels up) when its text
  outside its links is a sort label and every link in it sorts
  (``<span>Sort by</span> <a href="?sort=new">Newest</a> …``, or "Sort by" over a list of
  such links): the label and its options go together. Without them the label or the
  options were left alone on a line (new-user test, session 17: an orphan "Sort by" over a
  listing). A block with any other link, more than :data:`MAX_BAR_LINKS` links (a bar offers
  a handful of orders), or more words than a label, stays; so does a label with a single
  sort link, a phrase ("Sort by [year]" as a help page's example, review r-18a). A label's
  first words are read after an icon drawn before them (``<span><i class="icon"></i>
  Sort by</span>``).

A heading is read only for the combined labels ("## Sort and Filter", "Refine by"): a page
about template filters or a product named "Filter" keeps its heading "## Filters".
Nothing inside ``<pre>``, ``<code>``, ``<table>``, nothing holding ``<code>`` (an API's
``Filter`` class), nothing with words right before or after it in its parent (a sentence's
word): only an element holding the label alone is listed.

A bare count ("81 results"), a card's action and a heading label count only on a control
(a button, a link, a form, a sort/filter block: review r-14 found a player's "312 matches",
a numbered step "Add to cart" and a docs heading "Filter by" removed).

Removed after the main content is chosen, with the hidden blocks (``extract_html``). WCXB
dev: collection 0.7252 → 0.7264 with the toolbar labels (12 pages up, to +0.022; 3 down by at
most 0.002, whose ground truths keep the count "81,539 results"), → 0.7286 with the card
actions (4 pages up: a shop's 43 "Quick view View Options" +0.12; one down −0.023: a
headphone grid whose swatch pictures now pass the image filter), product +0.0001 (one page
up), listing one page −0.0003, other types and Zyte unchanged. The scan reads the own text of the candidate elements (lxml's tag filter)
and the whole text only of those starting like a label: median 0.6 ms a page.
"""

from __future__ import annotations

import re

from lxml import etree

from webresearch.extract.link_lists import same_site, site_of
from webresearch.extract.tree import outermost

__all__ = [
    "MAX_BAR_DEPTH", "MAX_BAR_LINKS", "MAX_CHOICE_WORDS", "MAX_FILTER_DEPTH", "MAX_GRID_DEPTH",
    "MIN_BAR_LINKS", "MIN_GRID_CARDS", "listing_controls",
]  # fmt: skip

#: "Sort by: Price, low to high": at most this many words name the chosen order.
MAX_CHOICE_WORDS = 5
#: A form field's label is a filter's when a block this many ancestors up or nearer names a
#: sort, filter or facet block (``<div class="filters"><div class="group"><label>``).
MAX_FILTER_DEPTH = 5
#: A "Load more" control extends a card grid held by an ancestor this many levels up or nearer.
MAX_GRID_DEPTH = 8
#: A card grid: at least this many siblings of one tag and class, each with a link.
MIN_GRID_CARDS = 4
#: A sort bar is the block around its sort links at most this many levels up.
MAX_BAR_DEPTH = 3
#: A sort bar offers at least this many orders as links (one is a phrase: "Sort by [year]").
MIN_BAR_LINKS = 2
#: A sort bar offers a handful of orders: a block with more links is a listing, not a bar.
MAX_BAR_LINKS = 12
#: Labels are short: an element's text is read only up to this many characters.
_MAX_LABEL_CHARS = 60

_NOUNS = r"(?:results?|products?|items?|styles?|matches|listings?|articles?)"
_NUMBER = r"\d[\d,.]*"
_RANGE = rf"(?:{_NUMBER}\s*(?:-|–|—|to)\s*)?{_NUMBER}(?:\s*(?:of|out of)\s*{_NUMBER})?"
_COUNT = re.compile(
    rf"(?:showing|displaying|viewing)\s*{_RANGE}(?:\s*{_NOUNS})?(?:\s+found)?\.?|"
    rf"{_RANGE}\s*{_NOUNS}(?:\s+found)?\.?",
    re.I,
)
_SORT = re.compile(
    rf"sort(?:\s+by)?\s*:\s*(?:[^\W\d]|[-&',/])+(?:\s+\S+){{0,{MAX_CHOICE_WORDS - 1}}}|"
    r"sort\s+by\s*:?|(?:filter|refine)\s+by\s*:?|(?:show|hide|clear|clear all|reset)\s+filters?",
    re.I,
)
#: One word that is a control only on a control ("Sort" on a button; a page about a
#: product or a function named "Filter" says the word in its text).
_BARE = re.compile(r"(?:sort|filters?|view)\s*:?|compare|\+?\s*wish\s*list|favou?rite", re.I)
_FILTER_BLOCK = re.compile(r"sort|filter|facet|refine", re.I)
_CONTROL_TAGS = frozenset({"button", "label", "a", "summary", "legend", "form", "select"})
_CONTROL_NAME = re.compile(r"sort|filter|facet|refine|toolbar|btn|button|action|cart|count", re.I)
_ACTION_WORDS = (
    r"(?:quick\s*(?:view|shop|add|look)|add\s+to\s+(?:cart|bag|basket|wish\s*list|favou?rites|compare)|"
    r"(?:view|choose|select)\s+options|save\s+for\s+later)"
)
#: A card's action buttons ("Quick view", "Add to cart", "Quick Shop 5 colors").
_ACTION = re.compile(rf"{_ACTION_WORDS}(?:\s+{_ACTION_WORDS})*(?:\s+\d+\s+colou?rs?)?", re.I)
#: A grid's "more" control ("Load more", "See more", "Show more results ›").
_MORE = re.compile(
    r"(?:see|view|shop)\s+all\s*(?:[›»→>+]|\.\.\.|…)?|"
    r"(?:see|load|view|show)\s+more(?:\s+(?:results|products|items|articles|stories|posts|news"
    r"|reviews|videos|listings))?\s*(?:[›»→>+]|\.\.\.|…)?",
    re.I,
)
#: The labels a heading may hold ("## Filters", "## Sort and Filter").
_HEADING_LABEL = re.compile(
    r"(?:filter|refine)\s+by|(?:sort|filter)\s*(?:&|and|\+|/)\s*(?:sort|filter)s?", re.I
)
_COMBINED = re.compile(r"(?:sort|filter)\s*(?:&|and|\+|/)\s*(?:sort|filter)s?\s*:?", re.I)
#: A count of one page of many ("1–16 of 29", "12 of 40"): kept, it says the page is partial.
_OUT_OF = re.compile(r"\d\s*(?:of|out of)\s*\d", re.I)
_CANDIDATE_TAGS = (
    "p", "span", "div", "label", "button", "a", "strong", "b", "legend", "summary", "li",
    "h2", "h3", "h4", "h5", "h6",
)  # fmt: skip
#: The first characters a label may start with (a cheap test of its own text before the whole text is read).
_STARTS = (
    "sort", "filter", "refine", "view", "show", "hide", "clear", "reset", "display",
    "quick", "add", "choose", "select", "save", "compare", "+", "wish", "favo", "see", "load",
)  # fmt: skip
_HEADINGS = frozenset({"h2", "h3", "h4", "h5", "h6"})
#: Elements an icon is drawn with, before a label's words.
_ICONS = frozenset({"i", "svg", "img", "span", "em"})
#: A link that re-sorts a listing: its query names a sort or an order (``?sort=price``,
#: ``&orderby=date``, ``?sort_by=newest``).
_SORTS = re.compile(r"[?&;](?:[\w-]*[_-])?(?:sort|order)(?:[_-]?by)?[\w-]*=", re.I)
_VERBATIM = frozenset({"pre", "code", "table", "kbd", "samp"})
_PAGE_BLOCKS = frozenset({"body", "main", "article", "section", "header", "footer", "form"})


def listing_controls(root: etree._Element, site: str = "") -> list[etree._Element]:
    """The listing's control labels and result counts under ``root`` (module docstring),
    outermost first; nothing is removed yet (pass them to ``remove_elements``).

    Args:
        root: the page's ``<body>`` (or any subtree).
        site: the page's own site (:func:`~webresearch.extract.link_lists.site_of` of its
            address; ``""``: unknown): a link to another site does not re-sort this page's
            list, so a block of them is no sort bar (:func:`_sort_bars`).

    Returns:
        the elements holding nothing but such a label, none inside another.
    """
    found: list[etree._Element] = []
    for el in root.iter(*_CANDIDATE_TAGS):
        text = _own_head(el)  # a label's first words are its innermost element's own text
        if not text or len(text) > _MAX_LABEL_CHARS * 2:
            continue
        head = text.lstrip()[:7].lower()
        if not head or not (head[0].isdigit() or head.startswith(_STARTS)):
            continue
        label = _label(el)
        if label is None:
            continue
        kind = _kind(label, el.tag in _HEADINGS)
        if kind == "more" and not _beside_cards(el):
            continue  # "See more" under an article's photo: no grid it extends
        if kind is None and (el.tag in _HEADINGS or not _BARE.fullmatch(label)):
            continue
        if kind != "plain" and not _in_control(el):
            continue  # "312 matches" in a career record, "Add to cart" as a step of a list
        if _in_running_text(el) or el.find(".//code") is not None:
            continue  # "instances of `Filter` can be added": a word of a sentence
        if not any(anc.tag in _VERBATIM for anc in el.iterancestors()):
            found.append(el)
    bars, phrases = _sort_bars(root, site)
    found = [el for el in found if not phrases.intersection(el.iterancestors())]
    return outermost(found + _filter_field_labels(root) + bars)


def _own_head(el: etree._Element) -> str | None:
    """The element's own first text: its ``text``, or, when an icon comes first (an empty
    ``<i>``, ``<svg>``, ``<img>``: ``<span><i class="icon"></i> Sort by</span>``), the
    text right after the icon."""
    text: str | None = el.text
    if (text and text.strip()) or not len(el):
        return text
    first = el[0]
    if (
        first.tag in _ICONS
        and not (first.text or "").strip()
        and not any(
            (c.text or "").strip() or (c.tail or "").strip() for c in first.iterdescendants()
        )
    ):
        tail: str | None = first.tail
        return tail
    return text


def _sort_bars(
    root: etree._Element, site: str = ""
) -> tuple[list[etree._Element], set[etree._Element]]:
    """Sort bars written as links: the nearest block around a sort link (at most
    :data:`MAX_BAR_DEPTH` levels up) whose text outside its links is a sort label, and
    whose links, :data:`MIN_BAR_LINKS` to :data:`MAX_BAR_LINKS` of them, all re-sort the
    list — their URL's query names a sort or an order
    (``<div><span>Sort by</span> <a href="?sort=new">Newest</a> …</div>``,
    ``<div>Sort by <ul><li><a href="?orderby=price">Price</a>…</ul></div>``). The label
    and the sort links are the listing's controls, not its items; a block with any other
    link, or with more words than a label, is left.

    A link to another site than ``site`` re-sorts no list of this page: an API's reference
    page writing "Sort by: [price](https://api.example/v1/items?sort=price), …" in its
    prose is text (new-user test n-18); a block holding one is a phrase, left whole.

    A block with a sort label and a single sort link is a phrase ("Sort by
    [year]": a help page's example in a list, review r-18a) and is left whole: it is
    returned second, and its label is not listed either.

    Each block is judged once (a block around many links is not walked again for each):
    the work is linear in the size of the page (review r-18a: a forum's 3,000 thread links
    with ``&order=desc`` once took 13 s)."""
    found: list[etree._Element] = []
    phrases: set[etree._Element] = set()
    verdicts: dict[etree._Element, str] = {}  # "up": look further up, "bar", "phrase", "no"
    for link in root.iter("a"):
        if not _SORTS.search(link.get("href") or ""):
            continue
        node = link.getparent()
        for _ in range(MAX_BAR_DEPTH):
            if node is None or not isinstance(node.tag, str) or node.tag in _PAGE_BLOCKS:
                break
            verdict = verdicts.get(node)
            if verdict is None:
                verdict = verdicts[node] = _bar_verdict(node, site)
                if verdict == "bar":
                    found.append(node)
                elif verdict == "phrase":
                    phrases.add(node)
            if verdict != "up":
                break
            node = node.getparent()
    return found, phrases


def _bar_verdict(node: etree._Element, site: str = "") -> str:
    """``"up"`` when ``node``'s text outside its links is empty (the bar, if any, is further
    up), ``"bar"`` for a sort bar, ``"phrase"`` for a sort label with one sort link or
    with links to another site than ``site``, ``"no"`` otherwise (:func:`_sort_bars`)."""
    label = _outside_links(node)
    if label is None:
        return "no"  # more words than a label: text, not a control
    if not label:
        return "up"
    if not _SORT.fullmatch(label):
        return "no"
    links, other_site = 0, False
    for a in node.iter("a"):
        links += 1
        href = a.get("href") or ""
        if links > MAX_BAR_LINKS or not _SORTS.search(href):
            return "no"  # a link that does not sort, or more links than a bar has options
        host = site_of(href)
        if site and host and not same_site(host, site):
            other_site = True  # another site's list: an API's sort parameter in a help page
    if _in_running_text(node) or any(anc.tag in _VERBATIM for anc in node.iterancestors()):
        return "no"
    return "bar" if links >= MIN_BAR_LINKS and not other_site else "phrase"


def _outside_links(el: etree._Element) -> str | None:
    """The text of ``el`` outside its links, whitespace collapsed and separators (``|``,
    ``·``, ``/``, ``,``) stripped; ``None`` when longer than a label."""
    parts: list[str] = []
    walker = etree.iterwalk(el, events=("start", "end"))
    for event, node in walker:
        if event == "start":
            if node.tag == "a":
                walker.skip_subtree()
            elif node.text:
                parts.append(node.text)
        elif node is not el and node.tail:
            parts.append(node.tail)
        if sum(len(p) for p in parts) > _MAX_LABEL_CHARS * 2:
            return None
    label = " ".join(" ".join(parts).split()).strip(" |·•/,-")
    return label if len(label) <= _MAX_LABEL_CHARS else None


def _filter_field_labels(root: etree._Element) -> list[etree._Element]:
    """The labels of drop-downs inside a sort, filter or facet block (module docstring)."""
    found: list[etree._Element] = []
    menus: set[str] | None = None  # the ids of the <select>s, read once a label names one
    for el in root.iter("label"):
        named = el.get("for")
        if named is not None and menus is None:
            menus = {m.get("id") or "" for m in root.iter("select")}
        names_menu = named is not None and named in (menus or set())
        if not names_menu and el.find(".//select") is None:
            continue  # a checkbox's, a text box's label, or some text set in a <label>
        if _in_running_text(el):
            continue
        if not names_menu and _own_label(el):
            found.append(el)  # it holds its drop-down: the two go together, anywhere
            continue
        if _label(el) is None:
            continue
        node = el.getparent()
        for _ in range(MAX_FILTER_DEPTH):
            if node is None or not isinstance(node.tag, str):
                break
            if _FILTER_BLOCK.search((node.get("class") or "") + " " + (node.get("id") or "")):
                found.append(el)
                break
            node = node.getparent()
    return found


def _own_label(el: etree._Element) -> bool:
    """Whether the text of the ``<label>`` ``el`` outside its ``<select>``s is a label's:
    some letters, at most :data:`_MAX_LABEL_CHARS` characters."""
    parts: list[str] = []
    walker = etree.iterwalk(el, events=("start", "end"))
    for event, node in walker:
        if event == "start":
            if node.tag == "select":
                walker.skip_subtree()  # its options' texts are not the label's
            elif node.text:
                parts.append(node.text)
        elif node is not el and node.tail:
            parts.append(node.tail)
    text = " ".join(" ".join(parts).split())
    return 0 < len(text) <= _MAX_LABEL_CHARS and any(c.isalpha() for c in text)


def _in_running_text(el: etree._Element) -> bool:
    """True when words stand right before or after ``el`` in its parent."""
    previous, parent = el.getprevious(), el.getparent()
    if previous is not None:
        before = previous.tail or ""
    else:
        before = (parent.text if parent is not None else None) or ""
    return any(c.isalnum() for c in before + (el.tail or ""))


def _in_control(el: etree._Element) -> bool:
    """True when ``el`` or one of its three nearest ancestors is a control (a button, a
    label, a link, a form, ``role=button``) or names a sort, filter, facet, button, action,
    cart or count block in its class or id."""
    node: etree._Element | None = el
    for _ in range(4):
        if node is None or not isinstance(node.tag, str):
            return False
        if node.tag in _CONTROL_TAGS:
            return True
        if _CONTROL_NAME.search((node.get("class") or "") + " " + (node.get("id") or "")):
            return True
        if (node.get("role") or "").lower() in ("button", "toolbar", "search"):
            return True
        node = node.getparent()
    return False


def _label(el: etree._Element) -> str | None:
    """The element's whole text, whitespace-collapsed, or ``None`` when longer than a label."""
    parts: list[str] = []
    size = 0
    for piece in el.itertext():
        parts.append(piece)
        size += len(piece)
        if size > _MAX_LABEL_CHARS:
            return None
    return " ".join(" ".join(parts).split())


def _kind(label: str, heading: bool) -> str | None:
    """``"plain"`` when ``label`` is a control on any element (a "Showing 16 results"
    count, a sort or filter label), ``"on-control"`` when it is one only on a control
    (a bare "81 results", a card's "Add to cart", a heading "Sort and filter": review r-14,
    a player's "312 matches" and a docs section "## Filter by" are text), else ``None``."""
    if heading:
        return "on-control" if _HEADING_LABEL.fullmatch(label.rstrip(":").strip()) else None
    lower = label[:4].lower()
    if (label[:1].isdigit() or lower in ("show", "disp", "view")) and _COUNT.fullmatch(label):
        if _OUT_OF.search(label) and _partial(label):
            return None  # "Showing 4 of 36 products": the page holds part of the items
        return "plain" if lower in ("show", "disp", "view") else "on-control"
    if _SORT.fullmatch(label) or _COMBINED.fullmatch(label):
        return "plain"
    if _MORE.fullmatch(label):
        return "more"
    return "on-control" if _ACTION.fullmatch(label) else None


def _partial(label: str) -> bool:
    """Whether a count "… N of M" shows fewer items than the total (not "2 of 2")."""
    numbers = [n.replace(",", "").replace(".", "") for n in re.findall(_NUMBER, label)]
    return len(numbers) >= 2 and int(numbers[-2]) < int(numbers[-1])


def _beside_cards(el: etree._Element) -> bool:
    """True when an ancestor of ``el`` at most :data:`MAX_GRID_DEPTH` levels up holds a card
    grid: :data:`MIN_GRID_CARDS` siblings of one tag and class, each with a link."""
    node = el.getparent()
    for _ in range(MAX_GRID_DEPTH):
        if node is None or not isinstance(node.tag, str):
            return False
        for parent in node.iter():
            counts: dict[tuple[str, str], int] = {}
            for child in parent:
                if not isinstance(child.tag, str):
                    continue
                if child.tag != "a" and child.find(".//a") is None:
                    continue
                key = (child.tag, child.get("class") or "")
                counts[key] = counts.get(key, 0) + 1
                if counts[key] >= MIN_GRID_CARDS:
                    return True
        node = node.getparent()
    return False
