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

from lxml import etree

from webresearch.extract.align import normalise

__all__ = ["MIN_RUN_CHARS", "closed_details", "hidden_runs", "runs_in_output"]

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
    for block in blocks:
        if any(a in chosen for a in block.iterancestors()):
            continue  # read with the block holding it
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
