"""Copies of a block that the page's own style sheet hides at a desktop width. Pure functions
over lxml trees.

Site builders render a page once per screen size and let a media query pick the copy a
reader sees: Framer writes each block three times (``<div class="ssr-variant hidden-1rq27kw
hidden-12t0irv">``…) with ``@media (min-width: 1200px) {.hidden-1rq27kw {display:
none!important}}`` in a ``<style>`` of the page, and other builders do the same with their
own class names. The class names are the site's, so
:mod:`~webresearch.extract.utility_classes` (the frameworks' fixed names) does not read them,
and the extractor kept every copy: the article, its call to action and its footer came out
three times (a WCXB dev article: 2,700 words of content, 5,500 more of copies).

:func:`desktop_hidden_classes` reads the page's ``<style>`` elements for rules whose selector
is a list of plain class selectors (``.a``, ``.a, .b``) and that set ``display: none``
inside an ``@media`` rule with a width condition that holds in a window
:data:`~webresearch.extract.utility_classes.DESKTOP_PX` wide (``min-width``, ``max-width``
in ``px``/``em``/``rem``, ``width >= …`` ranges, ``screen``/``all``): a copy for another
screen, not one a click or a script shows. A later rule that holds at that width and shows
the class again (``display: block``) wins, as in the cascade; a class hidden by a rule
outside any media query (``.hidden {display: none}``, which scripts toggle) is not read, nor
a query of any other feature (``print``, ``orientation``, ``hover``, ``not …``).

:func:`responsive_copies` lists the outermost elements carrying such a class — removed before
the main content is chosen, since a desktop reader never sees them — unless they hold most of
the page's text (characters: :data:`MAX_HIDDEN_SHARE`: then the sheet is not read as a browser would and
nothing is removed). Declarations and ``@media`` are read as sheets write them, in lower case.

WCXB dev: article 0355 0.50 → 0.99 (a Framer page's three copies), listing +0.003 (an IMDb
chart's phone-only "Use app" label), product −0.005 (a shop's photo, printed once per screen
size, is now one picture and kept as the product's photo: the ground truth has no alt
text); the other pages of every type and Zyte dev unchanged. About 1 ms a page with
media rules, tens of ms on a megabyte of inline CSS.
"""

from __future__ import annotations

import re

from lxml import etree

from webresearch.extract.page_sheets import PageSheets, Sheet, read_sheets
from webresearch.extract.utility_classes import DESKTOP_PX

__all__ = ["MAX_HIDDEN_SHARE", "desktop_hidden_classes", "responsive_copies"]

#: Copies holding more than this share of the page's letters and digits are not removed.
MAX_HIDDEN_SHARE = 0.75

_TEXT_LENGTH = etree.XPath("string-length(.)")  # characters of the text under an element
_CLASS_LIST = re.compile(r"\s*\.(?:[-\w]|\\.)+(?:\s*,\s*\.(?:[-\w]|\\.)+)*\s*")
_CLASS = re.compile(r"\.((?:[-\w]|\\.)+)")
# lower case only, no look-behind: 30x faster on a sheet of a megabyte (sheets are written so)
_DISPLAY = re.compile(r"display\s*:\s*([-\w]+)")
#: The prelude of an ``@media`` rule.
_MEDIA = re.compile(r"@media\b")
_FEATURE = re.compile(r"\(\s*([^()]*?)\s*\)")
_MIN_MAX = re.compile(r"(min|max)-width\s*:\s*([\d.]+)\s*(px|em|rem)")
_RANGE = re.compile(r"width\s*(<=|>=|<|>)\s*([\d.]+)\s*(px|em|rem)")
_MEDIA_TYPE = re.compile(r"(?:only\s+)?(screen|all)")


def desktop_hidden_classes(doc: etree._Element, sheets: PageSheets | None = None) -> frozenset[str]:
    """The class names the ``<style>`` elements of ``doc`` hide at a desktop width inside a
    width media query (module docstring); empty for a page without such rules.

    Only the ``display`` declarations are read (a regular-expression search, then the rule
    around each one), so a sheet of thousands of rules costs a few of them. ``sheets``:
    the page's sheets when the caller has read them (``None``: read here)."""
    verdicts: dict[str, tuple[bool, bool]] = {}  # class -> (hidden, by a width query)
    for sheet in (read_sheets(doc.iter("style")) if sheets is None else sheets).sheets:
        if "@media" in sheet.text and "none" in sheet.text:
            _read_sheet(sheet, verdicts)
    return frozenset(
        name for name, (hidden, responsive) in verdicts.items() if hidden and responsive
    )


def responsive_copies(doc: etree._Element, classes: frozenset[str]) -> list[etree._Element]:
    """The outermost elements under the body of ``doc`` (the body excluded) with a class of
    ``classes``, in document order; empty when there are none or when they hold more than
    :data:`MAX_HIDDEN_SHARE` of the body's characters (XPath ``string-length``, in C)."""
    body = doc.find("body")
    if not classes or body is None:
        return []
    matched = [
        el
        for el in body.iter(etree.Element)
        if (names := el.get("class")) and not classes.isdisjoint(names.split())
    ]
    inside = set(matched)
    found = [el for el in matched if el is not body and inside.isdisjoint(el.iterancestors())]
    if not found:
        return []
    hidden = sum(_TEXT_LENGTH(el) for el in found)
    if hidden > MAX_HIDDEN_SHARE * _TEXT_LENGTH(body):
        return []
    return found


def _read_sheet(sheet: Sheet, verdicts: dict[str, tuple[bool, bool]]) -> None:
    """Read the ``display`` declarations of one sheet, in order, into ``verdicts``."""
    text = sheet.blanked
    for declaration in _DISPLAY.finditer(text):
        before = text[declaration.start() - 1 : declaration.start()]
        if before == "-" or before.isalnum() or before == "_":
            continue  # another property: "-webkit-display", "text-display"
        rule = sheet.rule_at(declaration.start())
        if rule is None or not _CLASS_LIST.fullmatch(rule.head):
            continue  # not inside a rule's block, or not a list of classes
        media = False
        if rule.context and rule.flat_parent and _MEDIA.match(rule.context[-1]):
            if not _query_holds(rule.context[-1][len("@media") :]):
                continue  # a query that does not hold at the desktop width
            media = True
        hidden = declaration.group(1).lower() == "none"
        for name in _CLASS.findall(rule.head):
            name = name.replace("\\", "")
            if hidden or name in verdicts:
                verdicts[name] = (hidden, media)


def _query_holds(queries: str) -> bool:
    """Whether a media query list holds in a desktop window, read only when each feature is a
    width condition and the media type is ``screen``/``all`` (otherwise ``False``)."""
    for query in queries.lower().split(","):
        features = _FEATURE.findall(query)
        rest = _FEATURE.sub(" ", query).replace(" and ", " ").strip()
        if rest and not _MEDIA_TYPE.fullmatch(rest):
            continue
        if features and all(_width_holds(f) for f in features):
            return True
    return False


def _width_holds(feature: str) -> bool:
    """Whether one width feature (``min-width: 1200px``, ``width < 810px``) holds at
    :data:`DESKTOP_PX`; ``False`` for any other feature."""
    match = _MIN_MAX.fullmatch(feature)
    if match:
        px = _px(match.group(2), match.group(3))
        return px <= DESKTOP_PX if match.group(1) == "min" else px >= DESKTOP_PX
    match = _RANGE.fullmatch(feature)
    if match:
        px = _px(match.group(2), match.group(3))
        op = match.group(1)
        return {
            "<": px > DESKTOP_PX,
            "<=": px >= DESKTOP_PX,
            ">": px < DESKTOP_PX,
            ">=": px <= DESKTOP_PX,
        }[op]
    return False


def _px(number: str, unit: str) -> float:
    """A length in CSS pixels (``em`` and ``rem``: 16 px, the default font size)."""
    return float(number) * (1 if unit == "px" else 16)
