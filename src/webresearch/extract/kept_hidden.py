"""How much text a page hides reached the output: the ``hidden_chars_kept`` count. Pure functions.

:func:`~webresearch.extract.page_noise.hidden_verdicts` keeps some hidden blocks — closed tab,
accordion or disclosure panels a control opens (:mod:`webresearch.extract.collapsed_panels`),
a phone layout's block hidden on a desktop, a hidden block holding the page's title, and
every hidden block of an app shell whose visible page is empty (case 06). Their text is
read by the model although no reader of the page saw it unless they clicked (or never, when a
page hides instructions for the model in an app shell's shape), so the provenance counts it:
a caller can see that hidden text reached the output, and how much.

A closed ``<details>`` element's content (all but its ``<summary>``) is counted the same way:
a browser shows it only after a click (HTML §4.11.1), so a model reading it reads what the
page's visitors did not see (:func:`closed_details`).

The count is made on the tree that becomes the output (:func:`rendered_pieces`): every text
node (and image ``alt`` text) of a kept block still in the content tree when it is written as
markdown — the main content after pruning, the ``<main>`` landmark, or the whole page — is a
piece, counted when the output holds it (:func:`pieces_in_output`: a paragraph the markdown
tidying dropped is not). No piece is too short: a panel of ``<br>``-separated words, a
sentence split by a hidden letter (``Ignore<span hidden>q</span> previous``: the letter goes,
the rest is one text) or cut into ``<span>``s are counted letter by letter (review r-13a: a
whole line had to match the output, so any of these came with no note). Text a kept block
shares with the visible page is counted only where it is the block's own copy.

When the alignment failed and trafilatura's own tree is rendered, no element of the page is
in it: the kept blocks' text runs (:func:`hidden_runs`) found in the output are counted
instead. A run is the text of inline content — text nodes joined across inline elements
and line breaks (``<span>Ignore</span> <span>previ</span>`` is one run), cut at a block, a
link or an image (an image's ``alt`` text is a run of its own) — as letters and digits
(:func:`~webresearch.extract.align.normalise`), counted when at least :data:`MIN_RUN_CHARS`
long: a shorter one (a table cell, "Yes") would be found in any output by chance. 0 when no
hidden text was kept.
"""

from __future__ import annotations

import re

from lxml import etree

from webresearch.extract.align import normalise
from webresearch.extract.markdown import SKIPPED_TAGS
from webresearch.extract.scan_index import AttributeRow
from webresearch.extract.tree import outermost

__all__ = [
    "MIN_RUN_CHARS",
    "closed_details",
    "closed_details_marked_hidden",
    "drawn_invisibly",
    "faded_blocks",
    "hidden_runs",
    "pieces_in_output",
    "rendered_pieces",
]

#: The fewest letters and digits a hidden text run has to be counted (shorter ones recur).
MIN_RUN_CHARS = 8

#: Elements inside one line of text: a run goes on across them (HTML's phrasing content
#: without the ones that break the text as markdown writes it: links, images, line breaks).
_INLINE = frozenset(
    [
        "abbr",
        "b",
        "bdi",
        "br",
        "bdo",
        "cite",
        "code",
        "data",
        "del",
        "dfn",
        "em",
        "font",
        "i",
        "ins",
        "kbd",
        "label",
        "mark",
        "q",
        "s",
        "samp",
        "small",
        "span",
        "strike",
        "strong",
        "sub",
        "sup",
        "time",
        "tt",
        "u",
        "var",
        "wbr",
    ]
)
_CLOSED_DETAILS = etree.XPath(".//details[not(@open)]/*[not(self::summary)]")
#: The content of a closed ``<details>`` marked ``aria-hidden="true"`` (itself or inside it).
_MARKED_DETAILS = etree.XPath(
    ".//details[not(@open)]/*[not(self::summary)]/descendant-or-self::*[@aria-hidden='true']"
)


#: An inline style that makes a box's text invisible without removing it: zero opacity, a
#: zero (or 1px) font size, transparent text, a box scaled to nothing, a clip to nothing.
_FADED = re.compile(
    r"opacity\s*:\s*0*\.?0+\s*(?:;|!|$)|font-size\s*:\s*(?:0*\.?0+|1px)\s*(?:[a-z]+|%)?\s*(?:;|!|$)"
    r"|(?<!-)color\s*:\s*transparent|transform\s*:\s*scale\(\s*0*\.?0+\s*\)"
    r"|clip-path\s*:\s*inset\(\s*50%"
)
#: The same without ``opacity: 0``: text drawn so that no visitor sees it.
_DRAWN_INVISIBLY = re.compile(
    r"font-size\s*:\s*(?:0*\.?0+|1px)\s*(?:[a-z]+|%)?\s*(?:;|!|$)"
    r"|(?<!-)color\s*:\s*transparent|transform\s*:\s*scale\(\s*0*\.?0+\s*\)"
    r"|clip-path\s*:\s*inset\(\s*50%"
)


def faded_blocks(rows: list[AttributeRow]) -> list[etree._Element]:
    """The elements whose inline ``style`` (``rows``: :func:`~webresearch.extract.scan_index.read_attributes`)
    makes their text invisible but leaves it on the page — ``opacity: 0`` (a script's fade-in
    start: kept, as it is usually shown a moment later), ``font-size: 0``, ``color:
    transparent``, ``transform: scale(0)``, ``clip-path: inset(50%)``: their text is counted
    as hidden text kept (review n-12b: an injection in an ``opacity:0`` block came with no
    note)."""
    return [row[0] for row in rows if row[3] and _FADED.search(row[3].lower())]


def drawn_invisibly(rows: list[AttributeRow]) -> list[etree._Element]:
    """The :func:`faded_blocks` no visitor ever sees: a zero (or 1px) font size, transparent
    text, a box scaled or clipped to nothing — not ``opacity: 0`` alone, a script's fade-in
    start (Webflow's ``style="opacity:0;transform:translate3d(0,40px,0)"``) shown a moment
    later, which is counted with the closed panels and content scripts show later (review,
    session 16: a fade-in section was called "text drawn invisibly")."""
    return [row[0] for row in rows if row[3] and _DRAWN_INVISIBLY.search(row[3].lower())]


def closed_details(body: etree._Element) -> list[etree._Element]:
    """The content of every ``<details>`` under ``body`` that is not ``open``: its children
    but the ``<summary>`` (text directly inside ``<details>`` is not read). A page without
    ``<details>`` (most) is read by one C-level walk, not the XPath."""
    if next(body.iter("details"), None) is None:
        return []
    return list(_CLOSED_DETAILS(body))


def closed_details_marked_hidden(body: etree._Element) -> list[etree._Element]:
    """The outermost elements of a closed ``<details>``'s content (not its ``<summary>``)
    marked ``aria-hidden="true"`` that hold text: a disclosure widget's answer whose script
    mirrors the closed state in ``aria-hidden`` (Astro's collapsible list: ``<details
    aria-expanded="false"><summary><h4>What is …?</h4></summary><div class="content"
    aria-hidden="true"><p>…</p></div></details>``). A click shows it like any ``<details>``
    content (HTML §4.11.1), but trafilatura deletes every ``aria-hidden="true"`` element
    (``OVERALL_DISCARD_XPATH``): an FAQ of such answers lost them all, and then its
    questions too (headings without text after them). Passed to trafilatura's view as shown
    (:mod:`webresearch.extract.traf_input`); counted as hidden text kept, as closed
    ``<details>`` content is. WCXB dev service −0.0008: two pages of one site, a CDN page's
    FAQ back (0.83 → 0.96), a firewall page's FAQ now kept where its ground truth stops
    before it, at the pricing table (0.78 → 0.58); the other types and Zyte dev unchanged.
    A page without ``<details>`` (most) has none: one C-level walk finds that, not the XPath."""
    if next(body.iter("details"), None) is None:
        return []
    marked = [el for el in _MARKED_DETAILS(body) if "".join(el.itertext()).strip()]
    return outermost(marked)


def rendered_pieces(root: etree._Element, blocks: list[etree._Element]) -> list[str]:
    """The text of ``blocks`` (the hidden blocks kept, from :func:`outermost`) that is in
    ``root``, the tree about to be written as markdown: each text node and image ``alt``
    text as letters and digits, lower-case, in document order, none too short to count;
    the text of scripts, buttons and the like (never written) left out. When ``root`` lies
    inside a block, all of ``root``'s text."""
    chosen = set(blocks)
    if root in chosen or any(a in chosen for a in root.iterancestors()):
        return _pieces(root)
    pieces: list[str] = []
    for block in blocks:
        if any(a is root for a in block.iterancestors()):  # still in the rendered tree
            pieces.extend(_pieces(block))
    return pieces


def _pieces(block: etree._Element) -> list[str]:
    pieces: list[str] = []
    walker = etree.iterwalk(block, events=("start", "end"))
    for event, el in walker:
        tag = el.tag.lower() if isinstance(el.tag, str) else ""
        if event == "start":
            if tag == "img" and el.get("alt"):
                pieces.append(normalise(el.get("alt") or ""))  # ![alt](src): the model reads it
            if tag and tag in SKIPPED_TAGS and tag != "math":  # as element_to_markdown
                if tag != "button":  # a button's images are written
                    walker.skip_subtree()
                continue
            if tag and el.text:
                pieces.append(normalise(el.text))
        elif el is not block and el.tail:
            pieces.append(normalise(el.tail))
    return [p for p in pieces if p]


def pieces_in_output(pieces: list[str], output: str) -> int:
    """Letters and digits of the ``pieces`` (from :func:`rendered_pieces` or
    :func:`hidden_runs`) found in ``output`` (the markdown or text made from the page),
    looked for in order from where the previous one was found; 0 when there are none."""
    if not pieces:
        return 0
    text = normalise(output)
    found = pos = 0
    for piece in pieces:
        at = text.find(piece, pos)
        if at < 0:
            at = text.find(piece)  # out of order (a table's cells), or left out
        if at >= 0:
            found += len(piece)
            pos = at + len(piece)
    return found


def hidden_runs(blocks: list[etree._Element]) -> list[str]:
    """The text runs of ``blocks`` (the hidden blocks kept; module docstring), as letters and
    digits, lower-case, each of at least :data:`MIN_RUN_CHARS`; for an output made from
    trafilatura's own tree."""
    runs: list[str] = []
    current: list[str] = []

    def cut() -> None:
        run = normalise("".join(current))
        if len(run) >= MIN_RUN_CHARS:
            runs.append(run)
        current.clear()

    for block in outermost(blocks):
        for event, el in etree.iterwalk(block, events=("start", "end")):
            tag = el.tag if isinstance(el.tag, str) else ""
            inline = tag.lower() in _INLINE
            if event == "start":
                if not inline:
                    cut()
                if tag.lower() == "img" and el.get("alt"):
                    current.append(el.get("alt") or "")  # ![alt](src): the model reads it
                    cut()
                if tag and el.text:
                    current.append(el.text)
                continue
            if not inline:
                cut()
            if el is not block and el.tail:
                current.append(el.tail)
        cut()
    return runs
