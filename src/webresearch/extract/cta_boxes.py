"""Call-to-action boxes inside or after an article ("Ready to grow? — Book a demo
[Get started]"): not the article. Pure functions over an lxml tree.

A site drops a promotion for its own product into every article it publishes: a box with a
heading, a line or two of pitch and a button ("Work out anywhere, anytime — Ready for your
first workout? [7-day free trial]", "Start managing your finances for free … [Get started
free]"). Trafilatura keeps its heading and pitch (the button's label is link text and often
goes), so the pitch reads as part of the article. The evidence is the box's shape, not its
words: :func:`cta_boxes` finds

* a **button**: a ``<button>``, or a link drawn as one — ``role="button"``, or a class name
  that says so (``btn``, ``button``, ``cta``: Bootstrap's ``.btn``, WordPress's
  ``wp-block-button__link``, a theme's ``demo-cta-button``) — with a short label
  (at most :data:`MAX_LABEL_WORDS` words: "Get a demo", "Start a free trial");
* the box around it: the button and its ancestors while they hold at most
  :data:`MAX_BOX_WORDS` words, less than a fifth of the page's text and at most two images
  (:func:`~webresearch.extract.signup.small_box`), never ``<body>``, ``<main>``,
  ``<article>`` or an element holding the page's ``<h1>``: in an article written as one
  flat run of headings and paragraphs, a button beside a paragraph is its own box and has
  no heading — it stays;
* a **heading** (``<h2>``–``<h6>``) in the box, before the button: the box is a titled
  component of its own, not a sentence of the article with a link;
* not an **item of a list**: when two or more boxes of one kind (same tag and first class
  name) carry different headings, they are a listicle's entries ("## 1. Tool X — short
  summary — [Visit site]") and all stay; the same box printed twice (the pitch repeated
  between sections) goes in both places.

The caller removes the boxes only on a page that declares an article (schema.org or
``og:type``), from content that is an article's text
(:func:`~webresearch.extract.article_end.is_article_text`), and only those that follow a
paragraph of prose there (:func:`after_prose`): a service page's sections, a course
listing's "Ready to start building your future?" and a shop category's hero ("A humble
all-rounder … [Shop now]") have the same shape and are those pages' content.

Source of the rule: the WCXB dev article pages, where such boxes follow or interrupt the
article (a documentation tool's "Want to create great documentation? … [Download]", a
college's "Need more help?" box, a social-media platform's "Ready to fuel your CX …?" demo
box, a baker's sourdough workshop box) and their text is not in the ground truth. WCXB dev
(webresearch): article 0.9581 → 0.9583 (11 pages up, by up to +0.024; one down, −0.008: a
hosting company's box its truth keeps), the other page types unchanged. Without the
declared-article gate 30 service pages lost their slides and sections (service −0.013);
with the prose gates but no declared-article gate a course listing and a shop category
lost their heads (listing −0.0013, collection −0.0005).
"""

from __future__ import annotations

import re
from collections import defaultdict

from lxml import etree

from webresearch.extract.signup import small_box

__all__ = ["MAX_BOX_WORDS", "MAX_LABEL_WORDS", "PROSE_WORDS", "after_prose", "cta_boxes"]

#: A call-to-action box holds at most this many words (heading, pitch, a short list, button).
MAX_BOX_WORDS = 80
#: A button's label holds at most this many words ("Start a free 14-day trial").
MAX_LABEL_WORDS = 6
#: A ``<p>`` of at least this many words is a paragraph of prose (as in article_end.py).
PROSE_WORDS = 8

_BUTTON_CLASS = re.compile(r"btn|button|cta", re.IGNORECASE)
_HEADINGS = ("h2", "h3", "h4", "h5", "h6")


def cta_boxes(root: etree._Element, page_chars: int) -> list[etree._Element]:
    """The call-to-action boxes under ``root`` (module docstring), outermost only, in
    document order; nothing is removed (pass them to
    :func:`~webresearch.extract.page_noise.remove_elements`). ``page_chars``: letters and
    digits of the page's text (:func:`~webresearch.extract.align.page_text_size`)."""
    verdicts: dict[etree._Element, bool] = {}
    boxes: list[tuple[etree._Element, str]] = []
    for button in root.iter("a", "button"):
        if not _is_button(button) or any(button in b.iter() for b, _ in boxes):
            continue
        box = small_box(button, page_chars, MAX_BOX_WORDS, verdicts)
        if box is None or box is button or box.find(".//h1") is not None:
            continue
        heading = _heading_before(box, button)
        if heading is None:
            continue
        boxes = [(b, t) for b, t in boxes if box not in b.iterancestors()]
        boxes.append((box, heading))
    return _not_items(boxes)


def _is_button(el: etree._Element) -> bool:
    """A ``<button>`` or a link drawn as one, with a short label (module docstring)."""
    drawn = el.get("role") == "button" or _BUTTON_CLASS.search(el.get("class") or "")
    if el.tag == "a" and not drawn:
        return False
    label = " ".join(el.itertext()).split() or (el.get("aria-label") or "").split()
    return 0 < len(label) <= MAX_LABEL_WORDS


def _heading_before(box: etree._Element, button: etree._Element) -> str | None:
    """The text of the first heading in ``box`` that comes before ``button``, or ``None``."""
    for el in box.iter(*_HEADINGS, button.tag):
        if el is button:
            return None
        if el.tag in _HEADINGS and button not in el.iter():
            text = " ".join(" ".join(el.itertext()).split())
            if text:
                return text
    return None


def _not_items(boxes: list[tuple[etree._Element, str]]) -> list[etree._Element]:
    """``boxes`` without the entries of a list: kinds of box seen with different headings."""
    headings: dict[tuple[str, str], set[str]] = defaultdict(set)
    for box, heading in boxes:
        headings[_kind(box)].add(heading.casefold())
    return [box for box, _ in boxes if len(headings[_kind(box)]) < 2]


def _kind(el: etree._Element) -> tuple[str, str]:
    classes = (el.get("class") or "").split()
    return str(el.tag), classes[0] if classes else ""


def after_prose(root: etree._Element, boxes: list[etree._Element]) -> list[etree._Element]:
    """The ``boxes`` still under ``root`` that follow a paragraph of prose (a ``<p>`` of at
    least :data:`PROSE_WORDS` words outside every box) in document order: a call to action
    interrupts or ends an article, it never opens the content — a shop category's or a
    course listing's head (its name, an intro, "Shop now") does, and stays."""
    wanted = set(boxes)
    found: list[etree._Element] = []
    prose = False
    walk = root.iter()
    for el in walk:
        if el in wanted:
            if prose:
                found.append(el)
            for _ in el.iterdescendants():  # skip the box's own paragraphs
                next(walk, None)
        elif el.tag == "p" and len(" ".join(el.itertext()).split()) >= PROSE_WORDS:
            prose = True
    return found
