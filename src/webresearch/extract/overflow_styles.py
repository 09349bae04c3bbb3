"""Boxes styled ``overflow: hidden`` are shown, not hidden, to trafilatura. Pure functions.

trafilatura's tree cleaning (``xpaths.DISCARD_XPATH``) deletes every element whose ``style``
attribute matches ``hidden`` anywhere — meant for ``visibility: hidden``, it also deletes
the boxes a stylesheet only clips: ``overflow: hidden`` (and ``overflow-x``/``overflow-y``)
says how content wider than the box is cut, and the box and its text are on screen. Design
systems set it inline on callouts and cards; HashiCorp's documentation writes every
"Warning"/"Tip"/"Note" box as ``<span class="inline-alert_content" style="overflow:hidden">``,
so trafilatura dropped the page's warnings and kept the text around them (CSS Overflow
Module Level 3, §2: ``hidden`` clips the content; a clipped box is visible).

:func:`unhide_overflow_styles` rewrites, in place, the ``style`` of each element whose
only ``hidden`` is the value of an ``overflow``, ``overflow-x`` or ``overflow-y``
declaration: those declarations are left out of it (no step of ours reads them). A style
that also says ``display: none``, ``visibility: hidden`` or ``content-visibility: hidden``
keeps every declaration (the element is hidden), and so does a style that moves it off
the screen or shrinks it to nothing (the "visually hidden" idiom: a far negative offset,
zero size or opacity, a ``clip``; in any case). A page region (``<section>``,
``<header>``, ``<aside>`` …) or a box holding a heading is left to trafilatura's choice: on a WCXB dev service page
a hero banner ``<section style="overflow: hidden">`` came back (0.975 → 0.972) — its
ground truth, as most, leaves the banner out —, while the callouts hold no heading.
Run before the main content is chosen, on the attribute rows the page scans share
(:mod:`~webresearch.extract.scan_index`): only rows with a ``style`` are looked at, about
0.03 ms a page (median).

:func:`hides_box` says when a style keeps a box's text off the screen (``overflow: hidden``
with a zero height, ``display: none`` … in any case, with spaces or ``!important``);
:func:`~webresearch.extract.page_noise.hidden_blocks` takes such a box as a hidden block, as one styled ``display: none``: trafilatura deletes it from its copy only
when its style holds a lower-case ``hidden``, and the text of the chosen main element was
written from our tree, so a zero-height box within the article came back (review 10: beside
a visible ``overflow: hidden`` box). WCXB and Zyte dev: no page changes.

WCXB dev (session 10): documentation +0.0094 (HashiCorp's resource reference 0.975 →
0.984: three "Warning"/"Tip" boxes back); no other page of any type, nor of Zyte dev,
changed.
"""

from __future__ import annotations

import re

from lxml import etree

from webresearch.extract.scan_index import PageAttributes, read_attributes

__all__ = ["hides_box", "unhide_overflow_styles"]

#: One ``overflow``/``overflow-x``/``overflow-y`` declaration whose value is ``hidden``
#: (with ``!important`` or not), the ``;`` after it included.
_OVERFLOW_HIDDEN = re.compile(
    r"(?:^|(?<=;))\s*overflow(?:-[xy])?\s*:\s*hidden\s*(?:!\s*important\s*)?(?:;|$)", re.I
)
#: What else in a style may hide the element or move it off the screen: ``hidden`` in any
#: other declaration, ``display: none``, zero opacity or size, a far negative offset, a
#: clip (the "visually hidden" idiom sets ``overflow: hidden`` with a 1px or 0 size and a
#: clip). Broad on purpose: a box it matches is left to trafilatura.
_STILL_HIDDEN = re.compile(
    r"hidden|display\s*:\s*none|opacity\s*:\s*0*\.?0*\s*(?:;|!|$)"
    r"|(?:^|[;\s])(?:max-)?(?:height|width)\s*:\s*[01](?:px)?\s*(?:;|!|$)|-\d{3,}px|\bclip\b",
    re.I,
)
#: A zero length: ``0``, ``0.0``, ``.0``, ``0px``, ``0em``, ``0%`` …
_ZERO = r"[-+]?0*\.?0+(?:[a-z]+|%)?"
#: The end of a declaration: an optional ``!important``, then ``;`` or the end.
_END = r"\s*(?:!\s*important\s*)?(?:;|$)"
#: A zero ``font-size`` declaration.
_ZERO_FONT = re.compile(rf"(?:^|;)\s*font-size\s*:\s*{_ZERO}{_END}", re.I)
#: What every style :func:`hides_box` accepts holds.
_MAYBE_HIDING = re.compile(r"none|hidden|collapse|clip|-\d{4}")
#: Declarations that hide a box's text whatever else the style says.
_NO_TEXT = re.compile(
    r"(?:^|;)\s*(?:display\s*:\s*none|(?:content-)?visibility\s*:\s*(?:hidden|collapse)"
    rf"|(?:left|top|text-indent)\s*:\s*-\d{{4,}}(?:\.\d+)?px){_END}",
    re.I,
)
#: An animation's start state: a script or a transition opens the box (an accordion
#: animating its height).
_ANIMATED = re.compile(r"transform|transition|animation|will-change", re.I)
_CLIPS = re.compile(r"(?:^|;)\s*overflow(?:-[xy])?\s*:\s*(?:hidden|clip)" + _END, re.I)
#: A box of no size (or the 1px of the "visually hidden" idiom), or clipped to nothing.
_NO_SIZE = re.compile(
    rf"(?:^|;)\s*(?:(?:max-)?(?:height|width)\s*:\s*(?:{_ZERO}|1px){_END}"
    r"|clip\s*:\s*rect\(\s*0(?:px)?(?:\s*,?\s*0(?:px)?){3}\s*\)"
    r"|clip-path\s*:\s*inset\(\s*50%)",
    re.I,
)


#: Page regions: trafilatura's deletion of one (a hero banner) is left alone; only boxes
#: within the text (a callout, a card) are shown.
_REGIONS = frozenset({"section", "header", "footer", "nav", "aside", "main", "article", "body"})
_HEADINGS = etree.XPath("boolean(.//h1 | .//h2 | .//h3 | .//h4 | .//h5 | .//h6)")


def unhide_overflow_styles(root: etree._Element, attributes: PageAttributes | None = None) -> int:
    """Drop the ``overflow: hidden`` declarations of styles that hide nothing else (module
    docstring), in place.

    Args:
        root: a parsed page's ``<body>`` (or any element of it).
        attributes: ``root``'s attributes read once for several scans
            (:mod:`~webresearch.extract.scan_index`: only ``style`` is read, no walk of its
            own); read from the tree when ``None`` or read from another root. Their
            ``style`` values are not updated: the scans reading them test ``display`` and
            ``visibility`` only.

    Returns:
        how many ``style`` attributes were rewritten.
    """
    if attributes is None or not attributes.describes(root):
        attributes = read_attributes(root)
    changed = 0
    for row in attributes.styled:  # the rows with a style, in document order
        style = row[3]
        if not style or "hidden" not in style.lower():
            continue
        el = row[0]
        rest = _OVERFLOW_HIDDEN.sub("", style)
        if (
            rest == style
            or _STILL_HIDDEN.search(rest)
            or hides_box(style)
            or el.tag in _REGIONS
            or _HEADINGS(el)
        ):
            continue
        el.set("style", rest.strip())
        changed += 1
    return changed


def hides_box(style: str, el: etree._Element | None = None) -> bool:
    """Whether an inline ``style`` keeps the element's text off the screen, in any case,
    with spaces or ``!important``: ``display: none``, ``visibility: hidden``/``collapse``,
    ``content-visibility: hidden``, a far negative offset (``left``, ``top`` or
    ``text-indent`` of -1000px or less), or ``overflow: hidden``/``clip`` with a zero (or
    1px) ``height``, ``width`` or their ``max-`` forms, or a clip to nothing (CSS Overflow 3
    §2: the clipped content is not drawn), unless a transition, transform or animation
    opens it (an accordion). A zero height alone hides nothing: the content overflows the
    box and is drawn. Not read as hiding, measured on WCXB dev: zero ``opacity`` (the
    start state of a script's fade-in: a hero banner, lazy images — three product and
    service pages lost text, −0.06) and a zero ``font-size`` on a box with child elements (a
    container's whitespace fix, its children sized by the stylesheet). A zero ``font-size`` on
    ``el`` holding text and no child element (none to size it again) hides it (review 11).

    Used for :func:`~webresearch.extract.page_noise.hidden_blocks` (such a box is a hidden
    block, as one styled ``display: none``) and for :func:`unhide_overflow_styles` (its
    ``overflow`` declaration stays).
    """
    lower = style.lower()
    bare_text = el is not None and not len(el) and bool((el.text or "").strip())
    if bare_text and "font-size" in lower and _ZERO_FONT.search(style):
        return True
    if not _MAYBE_HIDING.search(lower):
        return False  # most styles (one search, about 1 µs)
    if _NO_TEXT.search(style):
        return True
    return (
        bool(_CLIPS.search(style)) and bool(_NO_SIZE.search(style)) and not _ANIMATED.search(style)
    )
