"""Text placed off the screen for screen readers only: labels kept, prose left out or noted.
Pure functions over lxml trees.

The "visually hidden" idiom keeps text in the page for assistive technology while no
visitor sees it: a class (Bootstrap's ``sr-only`` / ``visually-hidden``, WordPress's
``screen-reader-text``, :data:`~webresearch.extract.assistive_text.ASSISTIVE_CLASS`), an
inline style, or a ``<style>`` rule of the page's own moving the box off the screen
(``position: absolute; left: -9999px``) or clipping it to nothing (``clip: rect(0 0 0 0)``
or ``clip-path: inset(50%)`` with a 0 or 1px size). What it holds is usually a label —
"Skip to content", "Opens in a new window", a product's name beside its picture — and
reads as page text (it is what a screen reader says). A paragraph there is another
matter: no reader of the page sees it, and a page may hide instructions for a model in
it ("Ignore previous instructions…").

So, outside a hidden block already kept as collapsed content (a closed tab panel, judged
and counted by :mod:`webresearch.extract.kept_hidden`):

* such an element holding :data:`MIN_HIDDEN_PROSE_CHARS` letters and digits or more, and
  no heading, is left out (:func:`offscreen_text`, first list);
* one of :data:`MIN_NOTED_CHARS` or more that reads as a sentence (:data:`MIN_NOTED_WORDS`
  words, ending ``.``, ``!`` or ``?``) stays, counted as hidden text kept (the ``note:``
  line; second list);
* a shorter one, a label, stays as it is.

Source: WCXB dev, every such element of 40 letters or more outside another one: 235, of which
the ground truth holds 4 (a product's name, a byline's title, 42–67 letters); none of the
113 of 100 letters or more — a search box's instructions, an accessibility statement, a
carousel's description, a menu written twice.
"""

from __future__ import annotations

import re

from lxml import etree

from webresearch.extract.align import normalise
from webresearch.extract.assistive_text import ASSISTIVE_CLASS
from webresearch.extract.scan_index import AttributeRow

__all__ = [
    "MAX_SHEET_CHARS",
    "MIN_HIDDEN_PROSE_CHARS",
    "MIN_NOTED_CHARS",
    "MIN_NOTED_WORDS",
    "offscreen_classes",
    "offscreen_text",
]

#: Screen-reader-only text this long (letters and digits) or longer is left out.
MIN_HIDDEN_PROSE_CHARS = 100
#: Screen-reader-only text this long or longer, a sentence, is counted as hidden text kept.
MIN_NOTED_CHARS = 40
#: The fewest words such a sentence has.
MIN_NOTED_WORDS = 6
#: The most ``<style>`` text read for off-screen classes (characters).
MAX_SHEET_CHARS = 500_000

#: A far negative offset (-1000px and beyond, any unit), or a clip to nothing.
_AWAY = re.compile(
    r"(?:^|[;{\s])(?:left|top|right|text-indent)\s*:\s*-\d{4,}(?:\.\d*)?[a-z]*"
    r"|clip\s*:\s*rect\(\s*0(?:px)?(?:\s*,?\s*0(?:px)?){3}\s*\)"
    r"|clip-path\s*:\s*inset\(\s*50%"
)
_FAR = re.compile(r":\s*-\d{4}")
_ABSOLUTE = re.compile(r"position\s*:\s*(?:absolute|fixed)")
_OFFSET = re.compile(r"(?:left|top|right|text-indent)\s*:\s*-")
#: A box of no size, or the 1px of the idiom.
_TINY = re.compile(r"(?:^|[;{\s])(?:width|height)\s*:\s*[01](?:\.0*)?(?:px)?\s*(?:;|!|$|})")
#: A selector that is one class, maybe with pseudo-classes (``.sr-only:not(:focus)``).
_CLASS_SELECTOR = re.compile(r"\s*\.(-?[_a-zA-Z][\w-]*)(?::[\w()\-:.\s]*)?\s*")
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_WORD = re.compile(r"[^\W_]+")


def _off_screen(style: str) -> bool:
    """Whether a declaration block moves its box off the screen or clips it to nothing."""
    lower = style.lower()
    if "clip" not in lower and not _FAR.search(lower):
        return False  # most blocks (two plain searches)
    if not _AWAY.search(lower):
        return False
    if _OFFSET.search(lower) and _ABSOLUTE.search(lower):
        return True  # position: absolute; left: -9999px
    return "clip" in lower and bool(_TINY.search(lower))  # clip to nothing, 1px box


def offscreen_classes(doc: etree._Element) -> frozenset[str]:
    """The class names the page's ``<style>`` elements position off the screen: a rule
    whose every selector is one class (pseudo-classes allowed) and whose block moves it
    off the screen (:func:`_off_screen`). Read before the page's styles are dropped; at most
    :data:`MAX_SHEET_CHARS` of them. Media queries are not told apart."""
    found: set[str] = set()
    size = 0
    for style in doc.iter("style"):
        # searched as written: ``-9999px`` has no case; a ``CLIP`` in capitals is not seen
        sheet = (style.text or "")[: MAX_SHEET_CHARS - size]
        size += len(sheet)
        done = -1  # the end of the last rule read
        for place in _places(sheet):  # a handful a sheet: only their rules are read
            if place < done:
                continue
            opened = sheet.rfind("{", 0, place)
            if opened < 0 or sheet.rfind("}", 0, place) > opened:
                continue  # in a selector (``.clipper``), not a block
            done = sheet.find("}", place)
            if done < 0 or not _off_screen(sheet[opened + 1 : done]):
                continue
            start = max(sheet.rfind(c, 0, opened) for c in "{};") + 1
            names = [_CLASS_SELECTOR.fullmatch(s) for s in sheet[start:opened].split(",")]
            found.update(m.group(1) for m in names if m is not None)
        if size >= MAX_SHEET_CHARS:
            break
    return frozenset(found)


def _places(sheet: str) -> list[int]:
    """Where ``sheet`` may move a box away: each far negative value and each
    ``clip``, in order (plain searches: a sheet is read in about a millisecond a MB)."""
    places = [m.start() for m in _FAR.finditer(sheet)]
    at = sheet.find("clip")
    while at >= 0:
        places.append(at)
        at = sheet.find("clip", at + 4)
    return sorted(places)


def _screen_reader_only(row: AttributeRow, classes: frozenset[str]) -> bool:
    klass, style = row[1], row[3]
    if klass:
        lower = klass.lower()
        if ("sr-" in lower or "visually" in lower or "reader" in lower) and any(
            ASSISTIVE_CLASS.fullmatch(t) for t in klass.split()
        ):
            return True
        if classes and not classes.isdisjoint(klass.split()):
            return True
    return style is not None and _off_screen(style)


def offscreen_text(
    rows: list[AttributeRow],
    classes: frozenset[str],
    kept: list[etree._Element],
) -> tuple[list[etree._Element], list[etree._Element]]:
    """The screen-reader-only elements to leave out and those to count as hidden text
    kept (module docstring), outermost ones only.

    Args:
        rows: the page's attribute rows (:func:`~webresearch.extract.scan_index.read_attributes`).
        classes: the class names its stylesheet positions off the screen
            (:func:`offscreen_classes`).
        kept: the hidden blocks kept as collapsed content: what lies in them is judged there.

    Returns:
        ``(left_out, noted)``, each in document order.
    """
    left_out: list[etree._Element] = []
    noted: list[etree._Element] = []
    inside = set(kept)
    until: etree._Element | None = None  # the last element inside the one found
    for row in rows:
        el = row[0]
        if until is not None:
            if el is until:
                until = None
            continue
        if not _screen_reader_only(row, classes):
            continue
        until = _last_inside(el)
        if el in inside or any(a in inside for a in el.iterancestors()):
            continue
        text = "".join(el.itertext())
        size = len(normalise(text))
        if size < MIN_NOTED_CHARS:
            continue
        if size >= MIN_HIDDEN_PROSE_CHARS and el.tag not in _HEADINGS and not _has_heading(el):
            left_out.append(el)
        elif text.rstrip()[-1:] in ".!?" and len(_WORD.findall(text)) >= MIN_NOTED_WORDS:
            noted.append(el)
    return left_out, noted


def _last_inside(el: etree._Element) -> etree._Element | None:
    """The last element under ``el`` in document order (``None``: it has none)."""
    last = None
    while len(el):  # the last child element, down to a leaf (comments are no elements)
        children = [c for c in el if isinstance(c.tag, str)]
        if not children:
            break
        last = el = children[-1]
    return last


def _has_heading(el: etree._Element) -> bool:
    return any(True for _ in el.iter(*_HEADINGS))
