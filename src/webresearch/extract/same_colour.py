"""Text written in the colour of its own background (white on white): kept, and counted as
hidden text kept. Pure functions over lxml trees.

A page may hide text from its visitors by painting it in the colour behind it —
``<p style="color:#fff;background:#fff">`` — while a model reading the page's text reads it
(review n-14, fault 5: an instruction written white on white came with no note). Like the
other ways of making text invisible while leaving it on the page (``opacity: 0``,
``font-size: 0``, ``color: transparent``: :func:`~webresearch.extract.kept_hidden.faded_blocks`),
such an element is kept as it is and its text is counted in ``hidden_chars_kept`` (the
``note:`` line): the same colour may be a design slip, a hover state read out of context, or
a block whose picture background the colour was meant for, so nothing is dropped on it.

Only what can be told without computing the page's styles counts, so a reader's contrast is
never guessed (:func:`same_colour_blocks`):

* the element's own ``style`` sets ``color`` and ``background`` / ``background-color`` to
  the same opaque colour;
* a rule of the page's ``<style>`` whose selector is one class alone (no pseudo-class: a
  ``:hover`` state is not the page as shown) sets both to the same colour
  (:func:`same_colour_classes`; media queries are not told apart);
* the element's own ``style`` sets ``color``, and the nearest ancestor whose ``style`` sets
  a background sets it to that colour, with no ``class`` or ``id`` on the element or on any
  element between (a stylesheet could paint another background there: the ancestor must be
  a clear one).

A page that declares no background at all is drawn on the browser's default canvas, white
(CSS Color Module Level 4 §6.2, ``Canvas``: the initial background of a page in the light
colour scheme); white text there is white on white (a reviewer's page: keywords in
``color:#fff`` on a page with no background). The page declares none when it links no
stylesheet (whose rules cannot be read here), its ``<style>`` text names no ``background``
and no ``color-scheme`` (a dark scheme paints the canvas dark), and no ``<meta
name="color-scheme">`` is present; :func:`same_colour_classes` then returns
:data:`BLANK_PAGE` with the one-class rules that set ``color`` to white, and an element
whose own ``style`` or such a class sets white text counts unless an ancestor sets a
background in its ``style`` or a ``bgcolor`` or ``background`` attribute (white text on a
dark table cell, on a picture: visible). On such a page a ``<font color="white">`` counts
likewise (the attribute is the element's text colour: HTML's legacy ``font`` element), and
text counts as white when each of its RGB channels is at least :data:`NEAR_WHITE`
(``#fefefe``, ``#f8f8f8``): its contrast with white is at most 1.07:1 (WCAG 2's contrast
ratio; 3:1 is the least it asks of large text), nobody reads it on the white canvas, while
``#f0f0f0`` (1.14:1) and below are left alone (review n-17: ``#fefefe`` keywords were not
counted). Near-white counts only against the white canvas, never for two colours a page
sets.

A background is a colour alone (``background: #fff``); one with a picture or a gradient
(``background: #fff url(sky.jpg)``) is no plain colour, and ``transparent``, a colour with
an alpha below 1, ``inherit`` or ``currentcolor`` are never compared. Colours are compared
as RGB: ``#fff``, ``#ffffff``, ``#FFFFFFFF``, ``rgb(255, 255, 255)``, ``rgb(255 255 255 /
1)``, ``hsl(0, 0%, 100%)`` (CSS Color Module Level 4 §7.1's conversion to RGB, rounded) and
``white`` are one colour; another name is compared as written.
"""

from __future__ import annotations

import re

from lxml import etree

from webresearch.extract.page_sheets import PageSheets, Sheet, read_sheets
from webresearch.extract.scan_index import AttributeRow

__all__ = [
    "BLANK_PAGE",
    "MAX_SHEET_CHARS",
    "NEAR_WHITE",
    "same_colour_blocks",
    "same_colour_classes",
]

#: Returned among the class names by :func:`same_colour_classes` when the page declares no
#: background (module docstring): a string no ``class`` attribute splits into.
BLANK_PAGE = " blank page"
#: The default canvas of a page in the light colour scheme.
_WHITE = "#ffffff"

#: Text whose every RGB channel is at least this is white on the white canvas (docstring).
NEAR_WHITE = 0xF8

#: The most ``<style>`` text read for same-colour classes (characters).
MAX_SHEET_CHARS = 500_000

#: One declaration: its property and value (``!important`` dropped later).
#: A background picture or gradient set apart from the colour.
_PICTURE = re.compile(r"background-image\s*:\s*(?!none\b|initial\b)[^;\s]", re.I)
_DECLARATION = re.compile(r"(?:^|;)\s*(color|background|background-color)\s*:\s*([^;]+)")
_HEX = re.compile(r"#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})")
_RGB = re.compile(
    r"rgba?\(\s*(\d{1,3})\s*[, ]\s*(\d{1,3})\s*[, ]\s*(\d{1,3})\s*(?:[,/]\s*([\d.]+%?)\s*)?\)"
)
_HSL = re.compile(
    r"hsla?\(\s*(-?[\d.]+)(?:deg)?\s*[, ]\s*([\d.]+)%\s*[, ]\s*([\d.]+)%\s*"
    r"(?:[,/]\s*([\d.]+%?)\s*)?\)"
)
#: A selector that is one class alone (``.note``), nothing before or after.
_ONE_CLASS = re.compile(r"\s*\.(-?[_a-zA-Z][\w-]*)\s*")
#: The CSS basic colour keywords (CSS Color Module Level 4 §6.1), as hex.
_NAMED = {
    "white": "#ffffff", "black": "#000000", "silver": "#c0c0c0", "gray": "#808080",
    "grey": "#808080", "red": "#ff0000", "maroon": "#800000", "yellow": "#ffff00",
    "olive": "#808000", "lime": "#00ff00", "green": "#008000", "aqua": "#00ffff",
    "cyan": "#00ffff", "teal": "#008080", "blue": "#0000ff", "navy": "#000080",
    "fuchsia": "#ff00ff", "magenta": "#ff00ff", "purple": "#800080",
}  # fmt: skip
#: Values that name no colour of their own (never compared).
_NOT_A_COLOUR = frozenset(
    {"transparent", "inherit", "initial", "unset", "revert", "currentcolor", "none"}
)


def _colour(value: str) -> str | None:
    """``value`` (lower case) as ``#rrggbb`` when it is one opaque colour, else ``None``; a
    name not in :data:`_NAMED` as written."""
    value = value.replace("!important", "").strip()
    if (
        not value
        or value in _NOT_A_COLOUR
        or (" " in value and not value.startswith(("rgb", "hsl")))
    ):
        return None  # a keyword, or several values (a picture, a gradient, a position)
    if (hex_match := _HEX.fullmatch(value)) is not None:
        digits = hex_match.group(1)
        if len(digits) in (3, 4):
            digits = "".join(d * 2 for d in digits)
        if len(digits) == 8 and digits[6:] != "ff":
            return None  # see-through
        return "#" + digits[:6]
    if (rgb := _RGB.fullmatch(value)) is not None:
        alpha = rgb.group(4)
        if alpha is not None and alpha not in ("1", "1.0", "100%"):
            return None
        channels = [int(rgb.group(i)) for i in (1, 2, 3)]
        if max(channels) > 255:
            return None
        return "#" + "".join(f"{c:02x}" for c in channels)
    if (hsl := _HSL.fullmatch(value)) is not None:
        alpha = hsl.group(4)
        if alpha is not None and alpha not in ("1", "1.0", "100%"):
            return None
        try:
            hue, sat, light = (float(hsl.group(i)) for i in (1, 2, 3))
        except ValueError:
            return None  # "1.2.3"
        return "#" + "".join(f"{c:02x}" for c in _hsl_rgb(hue, min(sat, 100), min(light, 100)))
    if value.isalpha():
        return _NAMED.get(value, value)
    return None


def _hsl_rgb(hue: float, sat: float, light: float) -> tuple[int, int, int]:
    """An HSL colour (degrees, percentages) as RGB channels 0-255 (CSS Color Module Level 4
    §7.1, ``hslToRgb``)."""
    s, lum = sat / 100, light / 100

    def channel(n: int) -> int:
        k = (n + hue / 30) % 12
        value = lum - s * min(lum, 1 - lum) * max(-1, min(k - 3, 9 - k, 1))
        return max(0, min(255, round(value * 255)))

    return channel(0), channel(8), channel(4)


def _near_white(colour: str | None) -> bool:
    """Whether ``colour`` (``#rrggbb``) has every channel at least :data:`NEAR_WHITE`."""
    if colour is None or len(colour) != 7 or not colour.startswith("#"):
        return False
    return all(int(colour[i : i + 2], 16) >= NEAR_WHITE for i in (1, 3, 5))


def _colours(block: str) -> tuple[str | None, str | None]:
    """The text colour and the plain background colour a declaration block sets (the last
    of each wins; a background with more than a colour is ``None``)."""
    text: str | None = None
    background: str | None = None
    for prop, value in _DECLARATION.findall(block.lower()):
        if prop == "color":
            text = _colour(value)
        else:
            background = _colour(value)
    if _PICTURE.search(block):
        background = None  # text on a picture painted over the colour (review r-15)
    return text, background


def _declares_background(doc: etree._Element, read: list[tuple[Sheet, int]]) -> bool:
    """Whether the page may paint a background or a dark canvas (module docstring): a linked
    stylesheet, ``background`` or ``color-scheme`` in the ``read`` part of its ``<style>``
    text, a colour-scheme ``<meta>``."""
    if any(
        sheet.lower.find("background", 0, limit) >= 0
        or sheet.lower.find("color-scheme", 0, limit) >= 0
        for sheet, limit in read
    ):
        return True
    head = doc.find("head")  # most pages link their stylesheet there: no walk of the body
    return any(_links_styles(root) for root in ((doc,) if head is None else (head, doc)))


def _links_styles(root: etree._Element) -> bool:
    """Whether ``root`` holds a ``<link rel="stylesheet">`` or a colour-scheme ``<meta>``."""
    for link in root.iter("link", "meta"):
        if "stylesheet" in (link.get("rel") or "").lower():
            return True
        if (link.get("name") or "").lower() == "color-scheme":
            return True
    return False


def _white_classes(read: list[tuple[Sheet, int]]) -> set[str]:
    """The classes (lower case) of one-class rules of the ``read`` part of the sheets that
    set the text white."""
    found: set[str] = set()
    for sheet, limit in read:
        for rule in sheet.holding(_found(sheet.blanked_lower, "color", limit), limit):
            if not rule.nested and _near_white(_colours(rule.block.lower())[0]):
                names = [_ONE_CLASS.fullmatch(s) for s in rule.selector.lower().split(",")]
                if all(names):
                    found.update(m.group(1) for m in names if m is not None)
    return found


def _found(text: str, word: str, limit: int) -> list[int]:
    """Where ``word`` is in the first ``limit`` characters of ``text``, in order."""
    places: list[int] = []
    at = text.find(word, 0, limit)
    while at >= 0:
        places.append(at)
        at = text.find(word, at + len(word), limit)
    return places


def _same(block: str) -> bool:
    text, background = _colours(block)
    return text is not None and text == background


def same_colour_classes(doc: etree._Element, sheets: PageSheets | None = None) -> frozenset[str]:
    """The class names the page's ``<style>`` elements paint in the colour of their own
    background: a rule whose every selector is one class alone and whose block sets both
    to the same colour (module docstring). Read before the page's styles are dropped; at
    most :data:`MAX_SHEET_CHARS` of them. ``sheets``: the page's sheets when the caller
    has read them (``None``: read here)."""
    found: set[str] = set()
    if sheets is None:
        sheets = read_sheets(doc.iter("style"))
    read = sheets.capped(MAX_SHEET_CHARS)
    for sheet, limit in read:
        for rule in sheet.holding(_found(sheet.blanked_lower, "background", limit), limit):
            if not rule.nested and _same(rule.block.lower()):
                names = [_ONE_CLASS.fullmatch(s) for s in rule.selector.split(",")]
                if all(names):
                    found.update(m.group(1) for m in names if m is not None)
    if sum(limit for _, limit in read) < MAX_SHEET_CHARS and not _declares_background(doc, read):
        found.add(BLANK_PAGE)  # the white canvas
        found.update(_white_classes(read))
    return frozenset(found)


def same_colour_blocks(rows: list[AttributeRow], classes: frozenset[str]) -> list[etree._Element]:
    """The elements whose text is painted in the colour of their background (module
    docstring), in document order.

    Args:
        rows: the page's attribute rows (:func:`~webresearch.extract.scan_index.read_attributes`);
            with no ``classes``, its rows with a ``style`` are enough (``PageAttributes.styled``):
            an element without one is then never found.
        classes: the class names its stylesheet paints so (:func:`same_colour_classes`).
    """
    found: list[etree._Element] = []
    blank = BLANK_PAGE in classes
    for el, klass, ident, style, *_ in rows:
        if (
            classes
            and klass
            and not classes.isdisjoint(klass.split())
            and (not blank or _own_or_clear_background(el, style) == _WHITE)
        ):
            found.append(el)
            continue
        written = el.get("color") if blank and el.tag == "font" else None
        if (
            written is not None
            and _near_white(_colour(written.lower()))
            and _clear_background(el, True) == _WHITE
        ):
            found.append(el)  # <font color="white"> on the white canvas
            continue
        if not style or "color" not in style.lower():
            continue
        text, background = _colours(style)
        if text is None:
            continue
        lower = style.lower()
        if background is None and "background" not in lower and (blank or not (klass or ident)):
            background = _clear_background(el, blank)
        if text == background or (blank and background == _WHITE and _near_white(text)):
            found.append(el)
    return found


def _own_or_clear_background(el: etree._Element, style: str | None) -> str | None:
    """On a page that declares no background: the background ``el``'s own ``style`` paints,
    else :func:`_clear_background`'s."""
    if style and "background" in style.lower():
        return _colours(style)[1]
    return _clear_background(el, True)


def _clear_background(el: etree._Element, blank: bool = False) -> str | None:
    """The plain background colour of the nearest ancestor of ``el`` whose ``style`` sets a
    background, when no element between has a ``class`` or an ``id``; else ``None``. On a
    page that declares no background (``blank``) classes paint none: the nearest ancestor
    with a background in its ``style`` or a ``bgcolor`` or ``background`` attribute decides,
    and with none the default white canvas."""
    for ancestor in el.iterancestors():
        style = (ancestor.get("style") or "").lower()
        if "background" in style:
            return _colours(style)[1]
        if blank:
            if ancestor.get("background") is not None:
                return None  # a picture
            if (colour := ancestor.get("bgcolor")) is not None:
                return _colour(colour.lower())
            continue
        if ancestor.get("class") or ancestor.get("id") or ancestor.tag in ("body", "html"):
            return None
    return _WHITE if blank else None
