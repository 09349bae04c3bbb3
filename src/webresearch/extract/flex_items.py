"""A space between the items of a flex or grid container that the markup writes without one.
Pure functions over lxml trees.

A shop card's meta row is often ``<div class="meta"><span class="price">€129.00</span><span
class="stars">★★★★☆</span><span>(214)</span></div>`` with ``.meta{display:flex;gap:8px}``:
the browser lays each child out as a box of its own (CSS Flexible Box Layout §4: the
children of a flex container are blockified flex items; CSS Grid Layout §6.1 likewise), so
the reader sees "€129.00 ★★★★☆ (214)", while the text of the markup, with no whitespace
between the tags, reads "€129.00★★★★☆(214)" (review, session 17). Text inside one inline
element run is left as it is: ``<b>H</b><i>ello</i>`` is one word on the screen, and so are
two spans side by side in a paragraph.

A container is a flex or grid one when its own ``style`` declares ``display: flex``,
``inline-flex``, ``grid`` or ``inline-grid``, when it carries a framework's utility class for
it (Tailwind ``flex``/``inline-flex``/``grid``/``inline-grid``, Bootstrap ``d-flex``/
``d-inline-flex``/``d-grid``), or a class that a rule of the page's ``<style>`` whose
selector ends in that class alone declares so (:func:`flex_classes`). Between two of its
element children with text, where the first's tail holds no whitespace and neither text
already has a space at the seam, a space is written as the first one's tail; only phrasing
children (``<span>``, ``<a>``, ``<b>``…) are read, the markdown writes blocks apart already. Not between
two single letters: a heading animated letter by letter puts each letter in a flex item of
its own, and the word must stay one.
"""

from __future__ import annotations

import re

from lxml import etree

from webresearch.extract.page_sheets import PageSheets

__all__ = ["FLEX_UTILITIES", "MAX_SHEET_CHARS", "flex_classes", "space_flex_items"]

#: Frameworks' utility classes that make an element a flex or grid container.
FLEX_UTILITIES = frozenset(
    {"flex", "inline-flex", "grid", "inline-grid", "d-flex", "d-inline-flex", "d-grid"}
)
#: The most ``<style>`` text read for flex classes (characters).
MAX_SHEET_CHARS = 500_000

#: The phrasing elements (HTML Standard, "phrasing content") whose text the markdown runs
#: together with their neighbours' when nothing separates them.
_PHRASING = frozenset(
    {"a", "abbr", "b", "bdi", "bdo", "big", "cite", "code", "data", "del", "dfn", "em", "font",
     "i", "ins", "kbd", "label", "mark", "nobr", "q", "s", "samp", "small", "span", "strike",
     "strong", "sub", "sup", "time", "tt", "u", "var"}
)  # fmt: skip
_FLEX_DISPLAY = re.compile(r"display\s*:\s*(?:inline-)?(?:flex|grid)\b")
#: The last compound of a selector when it is one class alone (``.card .meta`` → ``meta``).
_LAST_CLASS = re.compile(r"(?:^|[\s>+~])\.(-?[_a-zA-Z][\w-]*)\s*$")


def flex_classes(sheets: PageSheets) -> frozenset[str]:
    """The classes that rules of the page's ``<style>`` sheets (``sheets``: read once,
    :func:`~webresearch.extract.page_sheets.read_sheets`) make flex or grid containers
    (module docstring), at most :data:`MAX_SHEET_CHARS` of them read."""
    found: set[str] = set()
    for sheet, limit in sheets.capped(MAX_SHEET_CHARS):
        lower = sheet.lower
        if lower.find("flex", 0, limit) < 0 and lower.find("grid", 0, limit) < 0:
            continue
        places = [m.start() for m in _FLEX_DISPLAY.finditer(sheet.blanked_lower, 0, limit)]
        for rule in sheet.holding(places, limit):
            for selector in rule.selector.split(","):
                last = _LAST_CLASS.search(selector)
                if last is not None and ":" not in selector:
                    found.add(last.group(1))
    return frozenset(found)


def space_flex_items(root: etree._Element, classes: frozenset[str]) -> None:
    """Write a space between the adjacent items of every flex or grid container under
    ``root`` (the part of the page written) that the markup joins without one, in place;
    ``classes``: :func:`flex_classes`."""
    names = FLEX_UTILITIES | classes
    for el in root.iter(etree.Element):
        klass, style = el.get("class"), el.get("style")
        styled = (
            style is not None
            and "display" in style
            and ("flex" in style or "grid" in style)
            and _FLEX_DISPLAY.search(style.lower()) is not None
        )
        if styled or (
            klass
            and (classes or "flex" in klass or "grid" in klass)  # a substring test first
            and not names.isdisjoint(klass.split())
        ):
            _space_children(el)


def _space_children(container: etree._Element) -> None:
    previous: etree._Element | None = None
    before = ""  # the text of ``previous``
    for child in container:
        if not isinstance(child.tag, str):
            continue
        if child.tag not in _PHRASING:
            previous = None  # a block: the markdown writes it apart already
            continue
        text = "".join(child.itertext())
        if not text.strip():
            if child.tail and child.tail.strip():
                previous = None  # text between: the next pair is not two items side by side
            continue
        if previous is not None and _glued(previous, before, text):
            previous.tail = " "
        previous, before = child, text
        if child.tail and child.tail.strip():
            previous = None


def _glued(previous: etree._Element, before: str, after: str) -> bool:
    """Whether two items' texts meet with no whitespace, and are not two single letters."""
    if previous.tail or before[-1:].isspace() or after[:1].isspace():
        return False
    return not (len(before.strip()) == 1 and len(after.strip()) == 1)
