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
zero size or opacity, a ``clip``). A page region (``<section>``, ``<header>``, ``<aside>``
…) or a box holding a heading is left to trafilatura's choice: on a WCXB dev service page
a hero banner ``<section style="overflow: hidden">`` came back (0.975 → 0.972) — its
ground truth, as most, leaves the banner out —, while the callouts hold no heading.
Run before the main content is chosen, on the attribute rows the page scans share
(:mod:`~webresearch.extract.scan_index`): only rows with a ``style`` are looked at, about
0.03 ms a page (median).

WCXB dev (session 10): documentation +0.0094 (HashiCorp's resource reference 0.975 →
0.984: three "Warning"/"Tip" boxes back); no other page of any type, nor of Zyte dev,
changed.
"""

from __future__ import annotations

import re

from lxml import etree

from webresearch.extract.scan_index import PageAttributes, read_attributes

__all__ = ["unhide_overflow_styles"]

#: One ``overflow``/``overflow-x``/``overflow-y`` declaration whose value is ``hidden``
#: (with ``!important`` or not), the ``;`` after it included.
_OVERFLOW_HIDDEN = re.compile(
    r"(?:^|(?<=;))\s*overflow(?:-[xy])?\s*:\s*hidden\s*(?:!\s*important\s*)?(?:;|$)", re.I
)
#: What else in a style hides the element or moves it off the screen: ``visibility``,
#: ``display: none``, zero opacity or size, a far negative offset, a clip (the
#: "visually hidden" idiom sets ``overflow: hidden`` with a 1px or 0 size and a clip).
_STILL_HIDDEN = re.compile(
    r"hidden|display\s*:\s*none|opacity\s*:\s*0*\.?0*\s*(?:;|!|$)"
    r"|(?:^|[;\s])(?:max-)?(?:height|width)\s*:\s*[01](?:px)?\s*(?:;|!|$)|-\d{3,}px|\bclip\b",
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
    for row in attributes.rows:
        style = row[3]
        if not style or "hidden" not in style:
            continue
        el = row[0]
        rest = _OVERFLOW_HIDDEN.sub("", style)
        if rest == style or _STILL_HIDDEN.search(rest) or el.tag in _REGIONS or _HEADINGS(el):
            continue
        el.set("style", rest.strip())
        changed += 1
    return changed
