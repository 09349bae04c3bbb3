"""The questions of an accordion, written into the buttons that open their answers: read as
text. Pure functions over lxml trees.

An FAQ set as an accordion writes each question into the button that opens its answer
(``<button aria-controls="faq-1"><h3>What is it?</h3></button>`` over ``<div
id="faq-1">…</div>``; Bootstrap's ``data-target="#faq-1"`` or ``data-bs-target``). A
``<button>`` is a control: its label is never text to read, neither for trafilatura nor
for our alignment and markdown writer ("Add to cart", "Menu"). The answers then come out
without their questions: a list of replies to nothing (a cloud service's FAQ of eight
answers, WCXB dev).

:func:`open_accordion_questions` renames each ``<button>`` a ``<div>`` (a ``<p>`` when no
heading holds its text: trafilatura reads a ``<div>``'s own text only on pages of little
paragraph text) that

* names the panel it opens (``aria-controls``, ``data-target``, ``data-bs-target``), and
  that panel exists, lies outside the button and holds prose: a text run of at least
  :data:`MIN_ANSWER_RUN` letters and digits (an answer's sentence; a menu of links, a
  tab's table of numbers or a video player does not count) — or, naming no panel that
  exists, holds its question as a heading (``<button><h3>Can I extend my rental?</h3>
  </button>``: the accordion header of WAI-ARIA's pattern, whose answers a script loads;
  WCXB dev service +0.0007, two pages up, none down) or inside a heading (``<h3><button
  aria-controls="radix-1">…?</button></h3>``: the pattern as WAI-ARIA's own example and
  Radix's ``Accordion.Header`` write it, the closed panel not rendered or left empty:
  WCXB dev product +0.0003, collection +0.0001, three pages up, none down);
  A panel the button *names* that exists needs no long run: the structure is unambiguous
  (Bootstrap's accordion, ``<button data-bs-target="#c1">How long does delivery take?
  </button>`` over ``<div id="c1"><div class="accordion-body">Orders arrive in 2 to 4
  working days.</div></div>``), so text of its own outside links, buttons and scripts of
  at least :data:`MIN_NAMED_ANSWER_CHARS` letters and digits, with no form field in the
  panel (a chat or search box a "Need help?" button opens), is an answer (new-user test,
  session 16: short answers came out with no question);
* holds a question: some text, at most :data:`MAX_QUESTION_CHARS` letters and digits,
  ending with a question mark, and no control of its own inside (a nested button, a form
  field). Accordions of titles ("Reduce storage spend", "Running Shoes Buying Guide")
  stay buttons: their ground truths leave the titles out (WCXB dev listing −0.0007,
  collection −0.0005 when they were read too);
* is not inside navigation, a page header or footer, a sidebar or a form (a mega menu's
  section buttons open panels of teaser text).

A question button that names no panel opens the one **right after it** in two widespread
patterns: the W3Schools accordion copied by many small sites (``<button
class="accordion">Can groups volunteer?</button><div class="panel"><p>Yes, …</p></div>``,
its script toggles the next sibling) and WAI-ARIA's accordion pattern as Squarespace writes
it (``<p role="heading" aria-level="3"><button aria-expanded="false">…?</button></p><div
role="region">…</div>``: the button alone in its heading, the panel after the heading).
Such a button is read as text too when the markup marks the two as an accordion's parts
(``aria-expanded``, a ``role="region"``, ``hidden`` or a class naming an accordion, a
panel or a question: :func:`_accordion_marks`) and its next element — or, for a button alone in its
wrapper (no other text, at most :data:`MAX_WRAPPER_LEVELS` levels up), the wrapper's next
element — holds prose by the test above: the answers came out without their questions
(WCXB dev: a shelter's volunteer FAQ of thirteen questions, a training program's FAQ).
WCXB dev service 0.8406 → 0.8415 (5 pages up, by up to +0.033, none down); article −0.0001
and product −0.0002 (5 pages, each −0.001 to −0.011: an FAQ's questions now come with
their answers, where those ground truths keep the answers alone); the other types and Zyte
dev unchanged.

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

__all__ = [
    "MAX_QUESTION_CHARS",
    "MAX_WRAPPER_LEVELS",
    "MIN_ANSWER_RUN",
    "MIN_NAMED_ANSWER_CHARS",
    "open_accordion_questions",
]

#: A question holds at most this many letters and digits.
MAX_QUESTION_CHARS = 300
#: An answer panel holds a text run (one text node) of at least this many letters and digits.
MIN_ANSWER_RUN = 80
#: A panel its button names (an unambiguous accordion) answers with at least this many
#: letters and digits outside links (a short answer: "Orders arrive in 2 to 4 days.").
MIN_NAMED_ANSWER_CHARS = 12
#: A button alone in its wrapper is looked up at most this many levels for the panel after it.
MAX_WRAPPER_LEVELS = 3
_TARGET_ATTRIBUTES = ("aria-controls", "data-target", "data-bs-target")
_HEADINGS = ("h2", "h3", "h4", "h5", "h6")
_CONTROLS = ("button", "input", "select", "textarea")
#: A question ends with a question mark (Latin, full-width, Arabic, Greek).
_QUESTION_END = re.compile("[?\uff1f\u061f\u037e]\\W*$")  # U+037E: Greek (NFC makes it ";")
#: What names an accordion's parts in the markup of the patterns above (W3Schools'
#: ``accordion``/``panel``, Bootstrap's ``collapse``, FAQ plugins' ``faq-question``/``answer``).
_ACCORDION_NAME = re.compile(r"accordion|faq|collaps|question|answer|panel|expand", re.I)
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
        if panel is not None and not "".join(panel.itertext()).strip():
            panel = None  # a closed panel a script fills (Radix renders it empty)
        if panel is None and not _names_panel(trigger):
            panel = _next_panel(trigger)  # the W3Schools and Squarespace accordions
            if panel is not None and not (_holds_prose(panel) and _accordion_marks(trigger, panel)):
                panel = None
        if panel is None:  # answers a script loads: a question set as a heading
            if not _heading_question(trigger):
                continue
        elif _inside(panel, trigger) or _inside(trigger, panel) or not _answers(panel):
            continue
        if in_boilerplate(trigger, body):
            continue
        trigger.tag = "div" if _in_heading(trigger) else "p"
        opened += 1
    return opened


def _triggers(body: etree._Element) -> list[etree._Element]:
    """The ``<button>`` elements under ``body`` holding no control, in document order: what
    ``.//button[not(.//button or .//input or .//select or .//textarea)]`` selects, read from
    the buttons alone (a page without any, a fifth of them, is one C-level walk; the XPath
    read every element)."""
    return [
        button
        for button in body.iterdescendants("button")
        if next(button.iterdescendants(*_CONTROLS), None) is None
    ]


def _panel(trigger: etree._Element, ids: dict[str, etree._Element]) -> etree._Element | None:
    """The element the trigger opens: the first id named by its target attributes."""
    for name in _TARGET_ATTRIBUTES:
        for ref in (trigger.get(name) or "").split():
            panel = ids.get(ref.removeprefix("#"))
            if panel is not None:
                return panel
    return None


def _heading_question(trigger: etree._Element) -> bool:
    """Whether the question is a heading: one inside the button, or the button inside one
    (WAI-ARIA's accordion pattern, Radix's ``Accordion.Header``: ``<h3><button>…</button>
    </h3>``)."""
    if next(trigger.iter(*_HEADINGS), None) is not None:
        return True
    parent = trigger.getparent()
    return parent is not None and parent.tag in _HEADINGS


def _in_heading(trigger: etree._Element) -> bool:
    """Whether the question is already read as a heading or paragraph: it holds a heading, or
    its parent is a heading, a paragraph or has the role ``heading``."""
    if next(trigger.iter(*_HEADINGS), None) is not None:
        return True
    parent = trigger.getparent()
    if parent is None:
        return False
    return parent.tag in ("p", "h1", *_HEADINGS) or parent.get("role") == "heading"


def _names_panel(trigger: etree._Element) -> bool:
    """Whether the trigger names a panel by a target attribute (one that may not exist)."""
    return any(trigger.get(name) for name in _TARGET_ATTRIBUTES)


def _next_panel(trigger: etree._Element) -> etree._Element | None:
    """The element right after the trigger, or after the wrapper the trigger is alone in (no
    other text, at most :data:`MAX_WRAPPER_LEVELS` levels up); ``None`` when there is none."""
    node = trigger
    own = "".join(trigger.itertext()).strip()
    for _ in range(MAX_WRAPPER_LEVELS + 1):
        after = node.getnext()
        while after is not None and not isinstance(after.tag, str):
            after = after.getnext()  # a comment between the button and its panel
        if after is not None:
            return after
        parent = node.getparent()
        if parent is None or parent.tag in ("body", "html"):
            return None
        if "".join(parent.itertext()).strip() != own:
            return None  # the wrapper says more than the question: not a header of one
        node = parent
    return None


def _accordion_marks(trigger: etree._Element, panel: etree._Element) -> bool:
    """Whether a button with no named panel and ``panel``, the element after it, are marked as
    an accordion's header and panel: the button states ``aria-expanded``, the panel is a
    ``role="region"`` or ``hidden``, a wrapper is a ``role="heading"``, or a class or id of the
    button, its wrappers (:data:`MAX_WRAPPER_LEVELS`) or the panel names an accordion's part
    (:data:`_ACCORDION_NAME`). A page's other buttons ending in "?" ("Need help?", "Enjoying
    this article?" before the next paragraph: review r-16b) are controls, not questions."""
    if trigger.get("aria-expanded") is not None or panel.get("hidden") is not None:
        return True
    if panel.get("role") == "region":
        return True
    marked: list[etree._Element] = [trigger, panel]
    node = trigger.getparent()
    for _ in range(MAX_WRAPPER_LEVELS):
        if node is None or node is panel.getparent():
            break
        if node.get("role") == "heading":
            return True
        marked.append(node)
        node = node.getparent()
    return any(
        _ACCORDION_NAME.search(f"{el.get('class') or ''} {el.get('id') or ''}") for el in marked
    )


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


def _answers(panel: etree._Element) -> bool:
    """Whether a panel the trigger names holds an answer: prose (:func:`_holds_prose`), or a
    short text of its own — at least :data:`MIN_NAMED_ANSWER_CHARS` letters and digits
    outside links, buttons and scripts — and no form field (module docstring)."""
    if _holds_prose(panel):
        return True
    if next(panel.iterdescendants(*_CONTROLS[1:]), None) is not None:
        return False  # a chat box, a search form: a tool the button opens
    size = 0
    for el in panel.iter():
        if not isinstance(el.tag, str):
            continue
        if el is not panel:
            size += len(letters_digits(el.tail or ""))
        if el.tag.lower() not in _NOT_PROSE and not _in_link(el, panel):
            size += len(letters_digits(el.text or ""))
    return size >= MIN_NAMED_ANSWER_CHARS


def _in_link(el: etree._Element, panel: etree._Element) -> bool:
    """True when ``el`` lies inside a link or a button below ``panel``."""
    node: etree._Element | None = el
    while node is not None and node is not panel:
        if isinstance(node.tag, str) and node.tag.lower() in _NOT_PROSE:
            return True
        node = node.getparent()
    return False


def _inside(el: etree._Element, container: etree._Element) -> bool:
    """True when ``el`` is ``container`` or lies inside it."""
    node: etree._Element | None = el
    while node is not None:
        if node is container:
            return True
        node = node.getparent()
    return False
