"""How much text a page hides reached the output: the ``hidden_chars_kept`` count. Pure functions.

:func:`~webresearch.extract.page_noise.hidden_verdicts` keeps some hidden blocks — closed tab,
accordion or disclosure panels a control opens (:mod:`webresearch.extract.collapsed_panels`),
a phone layout's block hidden on a desktop, a hidden block holding the page's title, and
every hidden block of an app shell whose visible page is empty (case 06). Their text is
read by the model although no reader of the page saw it unless they clicked (or never, when a
page hides instructions for the model in an app shell's shape), so the provenance counts it:
a caller can see that hidden text reached the output, and how much.

The count is made on the output itself: a kept block's text runs (its text nodes, as letters
and digits, :func:`~webresearch.extract.align.normalise`) of at least :data:`MIN_RUN_CHARS`
found in the output's letters and digits are counted; the main-content extraction may still
have left the block out (a tab panel outside the article). Shorter runs (a table cell,
"Yes") are not counted: one would be found in any output by chance; a run the page also
shows elsewhere is (the output cannot tell the copies apart). 0 when no hidden text was kept.
"""

from __future__ import annotations

from lxml import etree

from webresearch.extract.align import normalise

__all__ = ["MIN_RUN_CHARS", "hidden_runs", "runs_in_output"]

#: The fewest letters and digits a hidden text run has to be counted (shorter ones recur).
MIN_RUN_CHARS = 8


def hidden_runs(blocks: list[etree._Element]) -> list[str]:
    """The text runs of ``blocks`` (the hidden blocks kept), as letters and digits, lower-case,
    each of at least :data:`MIN_RUN_CHARS`; read before the page is pruned."""
    runs: list[str] = []
    for block in blocks:
        for piece in block.itertext():
            run = normalise(piece)
            if len(run) >= MIN_RUN_CHARS:
                runs.append(run)
    return runs


def runs_in_output(runs: list[str], output: str) -> int:
    """Letters and digits of the ``runs`` (from :func:`hidden_runs`) found in ``output`` (the
    markdown or text made from the page); 0 when there are none."""
    if not runs:
        return 0
    text = normalise(output)
    return sum(len(run) for run in runs if run in text)
