"""The questions of an accordion, written into the buttons that open their answers: read as
text. Pure functions over lxml trees.

An FAQ set as an accordion writes each question into the button that opens its answer
(``<button aria-controls="faq-1"><h3>What is it?</h3></button>`` over ``<div
id="faq-1">…</div>``; Bootstrap's ``data-target="#faq-1"`` or ``data-bs-target``). A
``<button>`` is a control: its label is never text to read, neither for trafilatura nor
for our alignment and markdown writer ("Add to cart", "Menu"). The answers then come out
without their questions: a list of replies to nothing (a cloud service's FAQ of eight
answers, WCXB dev).

:func:`open_accordion_questions` renames ``<div>`` each ``<button>`` that

* names the panel it opens (``aria-controls``, ``data-target``, ``data-bs-target``), and
  that panel exists, lies outside the button and holds prose: a text run of at least
  :data:`MIN_ANSWER_RUN` letters and digits (an answer's sentence; a menu of links, a
  tab's table of numbers or a video player does not count) — or, naming no panel that
  exists, holds its question as a heading (``<button><h3>Can I extend my rental?</h3>
  </button>``: the accordion header of WAI-ARIA's pattern, whose answers a script loads;
  WCXB dev service +0.0007, two pages up, none down);
* holds a question: some text, at most :data:`MAX_QUESTION_CHARS` letters and digits,
  ending with a question mark, and no control of its own inside (a nested button, a form
  field). Accordions of titles ("Reduce storage spend", "Running Shoes Buying Guide")
  stay buttons: their ground truths leave the titles out (WCXB dev listing −0.0007,
  collection −0.0005 when they were read too);
* is not inside navigation, a page header or footer, a sidebar or a form (a mega menu's
  section buttons open panels of teaser text).

Then its text is the page's like any other: trafilatura keeps it with the answers, or not.
Run before the main content is found. WCXB dev service 0.8212 → 0.8218 (4 pages up by up
to +0.036; one down −0.009, and a collection and a product page −0.003: their ground
truths keep the answers and leave the questions out), documentation unchanged.
"""

from __future__ import annotations

import re

from lxml import etree

from webresearch.extract.align import letters_digits
from webresearch.extract.rescue import in_boilerplate

__all__ = ["MAX_QUESTION_CHARS", "MIN_ANSWER_RUN", "open_accordion_questions"]

#: A question holds at most this many letters and digits.
MAX_QUESTION_CHARS = 300
#: An answer panel holds a text run (one text node) of at least this many letters and digits.
MIN_ANSWER_RUN = 80
_TARGET_ATTRIBUTES = ("aria-controls", "data-target", "data-bs-target")
_HEADINGS = ("h2", "h3", "h4", "h5", "h6")
_CONTROLS = ("button", "input", "select", "textarea")
#: A question ends with a question mark (Latin, full-width, Arabic, Greek).
_QUESTION_END = re.compile(r"[?？؟;]\W*$")
_NOT_PROSE = frozenset({"script", "style", "button", "a", "template"})


def open_accordion_questions(body: etree._Element) -> int:
    """Rename ``<div>`` the accordion buttons that hold a question (module docstring), in
    place.

    Args:
        body: the page's ``<body>``.

    Returns:
        how many buttons were renamed (0, after one walk over the buttons, on a page without
        any).
    """
    triggers = _triggers(body)
    if not triggers:
        return 0
    ids: dict[str, etree._Element] | None = None
    opened = 0
    for trigger in triggers:
        text = "".join(trigger.itertext())
        size = len(letters_digits(text))
        if not 0 < size <= MAX_QUESTION_CHARS or not _QUESTION_END.search(text):
            continue
        if ids is None:
            ids = {el.get("id") or "": el for el in body.iter() if el.get("id") is not None}
        panel = _panel(trigger, ids)
        if panel is None:  # answers a script loads: a question set as a heading
            if next(trigger.iter(*_HEADINGS), None) is None:
                continue
        elif _inside(panel, trigger) or _inside(trigger, panel) or not _holds_prose(panel):
            continue
        if in_boilerplate(trigger, body):
            continue
        trigger.tag = "div"
        opened += 1
    return opened


def _triggers(body: etree._Element) -> list[etree._Element]:
    """The ``<button>`` elements under ``body`` naming a target (``aria-controls``,
    ``data-target``, ``data-bs-target``) or holding a heading, and holding no control, in
    document order: what ``.//button[@aria-controls or … or .//h2 or …][not(.//button or
    .//input or .//select or .//textarea)]`` selects, read from the buttons alone (a page
    without any, a fifth of them, is one C-level walk; the XPath read every element)."""
    found: list[etree._Element] = []
    for button in body.iterdescendants("button"):
        if not any(button.get(name) is not None for name in _TARGET_ATTRIBUTES) and (
            next(button.iterdescendants(*_HEADINGS), None) is None
        ):
            continue
        if next(button.iterdescendants(*_CONTROLS), None) is None:
            found.append(button)
    return found


def _panel(trigger: etree._Element, ids: dict[str, etree._Element]) -> etree._Element | None:
    """The element the trigger opens: the first id named by its target attributes."""
    for name in _TARGET_ATTRIBUTES:
        for ref in (trigger.get(name) or "").split():
            panel = ids.get(ref.removeprefix("#"))
            if panel is not None:
                return panel
    return None


def _holds_prose(panel: etree._Element) -> bool:
    """Whether a text node of ``panel`` (outside links, buttons and scripts) holds at least
    :data:`MIN_ANSWER_RUN` letters and digits."""
    for el in panel.iter():
        if not isinstance(el.tag, str):
            continue
        texts = [el.tail] if el is not panel else []
        if el.tag.lower() not in _NOT_PROSE:
            texts.append(el.text)
        for text in texts:
            if text and len(text) >= MIN_ANSWER_RUN and len(letters_digits(text)) >= MIN_ANSWER_RUN:
                return True
    return False


def _inside(el: etree._Element, container: etree._Element) -> bool:
    """True when ``el`` is ``container`` or lies inside it."""
    node: etree._Element | None = el
    while node is not None:
        if node is container:
            return True
        node = node.getparent()
    return False
