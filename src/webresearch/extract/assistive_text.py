"""Hidden blocks written for screen readers only. Pure functions over lxml trees.

A hidden block of prose a control opens is kept as collapsed content — a closed tab or
accordion panel a click shows (:func:`~webresearch.extract.page_noise.hidden_blocks`). A
hidden block whose every letter sits inside screen-reader-only elements is no such panel: the text was
written for assistive technology (the "visually hidden" pattern: Bootstrap's ``sr-only`` /
``visually-hidden``, WordPress's ``screen-reader-text``, GOV.UK's ``govuk-visually-hidden``),
and hiding its container too (``d-none``, ``hidden``) says no click will ever show it. A
commerce platform's product card carries such a block for every item: "Product Name /
Product Details: X is available in 5 different options. The current selected option Sky
Blue is priced at 219.99 USD. / Product Link: /luggage/x.html?…" — three times the words
a reader sees on the card.

WCXB dev: of the 329 pages using such classes, one output changes — a collection page of
luggage (Salesforce Commerce product tiles: ``<dl class="d-none">`` of ``sr-only`` name,
details and link) 0.513 → 0.605; the check runs only on a hidden block about to be kept as
collapsed content.
"""

from __future__ import annotations

import re

from lxml import etree

__all__ = ["ASSISTIVE_CLASS", "only_assistive_text"]

#: A letter or a digit (what :func:`~webresearch.extract.align.page_text_size` counts).
_LETTER = re.compile(r"[^\W_]")

#: A class token naming text shown to screen readers only (whole token, any case).
ASSISTIVE_CLASS = re.compile(
    r"(?:[\w-]*-)?(?:sr-only|sr-text|visually-?hidden|screen-?reader-(?:text|only))",
    re.I,
)


def only_assistive_text(el: etree._Element, chars: int) -> bool:
    """True when ``el`` has text (``chars`` letters and digits, as
    :func:`~webresearch.extract.align.page_text_size` counts them) and all of it lies
    inside elements whose class names screen-reader-only text (:data:`ASSISTIVE_CLASS`);
    ``el`` itself may carry such a class too. The walk stops at the first letter outside
    them: a panel of prose costs a few steps, whatever its size.

    Args:
        el: a hidden block of the page.
        chars: its letters and digits.
    """
    if not chars:
        return False
    if _assistive(el):
        return True
    walker = etree.iterwalk(el, events=("start", "end"))
    for event, sub in walker:
        if event == "start":
            if not isinstance(sub.tag, str):
                continue  # a comment's text is no text; its tail is read at its end
            if sub is not el and _assistive(sub):
                walker.skip_subtree()  # all of it is for screen readers; its tail is not
            elif sub.text and _LETTER.search(sub.text):
                return False
        elif sub is not el and sub.tail and _LETTER.search(sub.tail):
            return False
    return True


def _assistive(el: etree._Element) -> bool:
    klass = el.get("class")
    return bool(klass) and any(ASSISTIVE_CLASS.fullmatch(t) for t in klass.split())
