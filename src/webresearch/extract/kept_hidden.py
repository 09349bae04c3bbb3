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

The count is made on the output itself: a kept block's text runs found in the output's
letters and digits are counted; the main-content extraction may still have left the block
out (a tab panel outside the article). A run is the text of one line of inline content —
text nodes joined across inline elements (``<span>Ignore</span> <span>previ</span>`` is one
run, so splitting a text into tags does not hide it from the count), cut at a block, a link,
a line break or an image (an image's ``alt`` text is a run of its own) — as letters and digits (:func:`~webresearch.extract.align.normalise`),
counted when at least :data:`MIN_RUN_CHARS` long. Shorter runs (a table cell, "Yes") are
not counted: one would be found in any output by chance; a run the page also shows
elsewhere is (the output cannot tell the copies apart). 0 when no hidden text was kept.
"""

from __future__ import annotations

import re

from lxml import etree

from webresearch.extract.align import normalise
from webresearch.extract.scan_index import AttributeRow

__all__ = ["MIN_RUN_CHARS", "closed_details", "faded_blocks", "hidden_runs", "runs_in_output"]

#: The fewest letters and digits a hidden text run has to be counted (shorter ones recur).
MIN_RUN_CHARS = 8

#: Elements inside one line of text: a run goes on across them (HTML's phrasing content
#: without the ones that break the text as markdown writes it: links, images, line breaks).
_INLINE = frozenset(
    [
        "abbr",
        "b",
        "bdi",
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
    ]
)
_CLOSED_DETAILS = etree.XPath(".//details[not(@open)]/*[not(self::summary)]")


#: An inline style that makes a box's text invisible without removing it: zero opacity, a
#: zero (or 1px) font size, transparent text, a box scaled to nothing, a clip to nothing.
_FADED = re.compile(
    r"opacity\s*:\s*0*\.?0+\s*(?:;|!|$)|font-size\s*:\s*(?:0*\.?0+|1px)\s*(?:[a-z]+|%)?\s*(?:;|!|$)"
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


def closed_details(body: etree._Element) -> list[etree._Element]:
    """The content of every ``<details>`` under ``body`` that is not ``open``: its children
    but the ``<summary>`` (text directly inside ``<details>`` is not read)."""
    return list(_CLOSED_DETAILS(body))


def hidden_runs(blocks: list[etree._Element]) -> list[str]:
    """The text runs of ``blocks`` (the hidden blocks kept; module docstring), as letters and
    digits, lower-case, each of at least :data:`MIN_RUN_CHARS`; read before the page is
    pruned."""
    runs: list[str] = []
    current: list[str] = []

    def cut() -> None:
        run = normalise("".join(current))
        if len(run) >= MIN_RUN_CHARS:
            runs.append(run)
        current.clear()

    chosen = set(blocks)
    read: set[etree._Element] = set()
    for block in blocks:
        if block in read or any(a in chosen for a in block.iterancestors()):
            continue  # read once, with the block holding it
        read.add(block)
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


def runs_in_output(runs: list[str], output: str) -> int:
    """Letters and digits of the ``runs`` (from :func:`hidden_runs`) found in ``output`` (the
    markdown or text made from the page); 0 when there are none."""
    if not runs:
        return 0
    text = normalise(output)
    return sum(len(run) for run in runs if run in text)
