"""Which elements a CSS framework's utility classes hide from a desktop reader. Pure functions.

Without the style sheets, a page's ``class`` attributes still say what a browser shows when
they are the display utilities of a widespread framework, whose meaning is fixed by the
framework and not by the site:

* **Bootstrap** 4–5 (``getbootstrap.com/docs/5.3/utilities/display``): ``d-none`` hides,
  ``d-{bp}-none`` hides from breakpoint ``bp`` up, ``d-{bp}-block`` (``flex``, ``inline``…)
  shows again from ``bp`` up; breakpoints sm 576, md 768, lg 992, xl 1200, xxl 1400 px;
* **Tailwind CSS** (``tailwindcss.com/docs/display``): ``hidden`` hides, ``{bp}:hidden`` hides
  from ``bp`` up, ``{bp}:block`` (``flex``, ``grid``…) shows again; breakpoints sm 640, md 768,
  lg 1024, xl 1280, 2xl 1536 px. Other variants (``hover:``, ``group-open:``, ``max-lg:``,
  arbitrary ``min-[…]:``) depend on state and are not read. A bare ``hidden`` is also a
  class name of sites without Tailwind (a forum's preloaded post, shown by a script), so
  Tailwind's classes are read only on a page that uses its breakpoint prefixes
  (:func:`uses_tailwind`);
* frameworks whose classes hide a block **in one range of widths** only (each range its own
  class, so no cascade between them): **Bootstrap 3** (``getbootstrap.com/docs/3.4/css``,
  responsive utilities) and **WPBakery** (``vc_`` prefix) ``hidden-xs`` (< 768 px), ``-sm``
  (768–991), ``-md`` (992–1199), ``-lg`` (≥ 1200); **Elementor** ``elementor-hidden-mobile``
  (< 768), ``-tablet`` (768–1024), ``-laptop`` (1025–1366), ``-desktop`` (≥ 1025),
  ``-widescreen`` (≥ 2400); **Bulma** ``is-hidden-mobile`` (< 769), ``-tablet`` (≥ 769),
  ``-tablet-only`` (769–1023), ``-touch`` (< 1024), ``-desktop`` (≥ 1024), ``-desktop-only``
  (1024–1215), ``-widescreen`` (≥ 1216), ``-widescreen-only`` (1216–1407), ``-fullhd``
  (≥ 1408). A site builder writes a block once per screen size with these (a WordPress
  page's two columns of prose, one ``vc_hidden-md vc_hidden-sm vc_hidden-xs``, the other
  ``vc_hidden-lg …``): read as the desktop reader sees it, the prose comes once;
* **Webflow** (its ``webflow.css``): ``w-condition-invisible`` is an element the site's CMS
  conditions left out of this page; ``w-form-done`` and ``w-form-fail`` are a form's
  messages after it was sent.

The reader is a desktop browser :data:`DESKTOP_PX` wide. The utility with the largest
breakpoint at or below that width decides (the frameworks order their rules so); at the
same breakpoint, showing wins. A page whose layout shows a block on phones and another copy
on desktops (the same text twice in the markup) is read once, as a desktop reader sees it.
"""

from __future__ import annotations

import re

from lxml import etree

__all__ = [
    "DESKTOP_PX",
    "NEVER_SHOWN",
    "hidden_on_desktop",
    "never_shown",
    "shown_on_another_screen",
    "uses_tailwind",
]

#: The width of the reader's window, in CSS pixels (a common laptop screen).
DESKTOP_PX = 1280
#: Classes of elements that are not shown to a reader whatever the window (Webflow).
NEVER_SHOWN = frozenset({"w-condition-invisible", "w-form-done", "w-form-fail"})

_BOOTSTRAP = {"": 0, "sm": 576, "md": 768, "lg": 992, "xl": 1200, "xxl": 1400}
_TAILWIND = {"": 0, "sm": 640, "md": 768, "lg": 1024, "xl": 1280, "2xl": 1536}
_INF = 1 << 30
_BS3 = {"xs": (0, 768), "sm": (768, 992), "md": (992, 1200), "lg": (1200, _INF)}
#: class -> [first, last + 1) CSS pixels of window in which it hides its element
_RANGES: dict[str, tuple[int, int]] = {
    **{f"hidden-{bp}": span for bp, span in _BS3.items()},
    **{f"vc_hidden-{bp}": span for bp, span in _BS3.items()},
    "elementor-hidden-mobile": (0, 768),
    "elementor-hidden-tablet": (768, 1025),
    "elementor-hidden-laptop": (1025, 1367),
    "elementor-hidden-desktop": (1025, _INF),
    "elementor-hidden-widescreen": (2400, _INF),
    "is-hidden-mobile": (0, 769),
    "is-hidden-tablet": (769, _INF),
    "is-hidden-tablet-only": (769, 1024),
    "is-hidden-touch": (0, 1024),
    "is-hidden-desktop": (1024, _INF),
    "is-hidden-desktop-only": (1024, 1216),
    "is-hidden-widescreen": (1216, _INF),
    "is-hidden-widescreen-only": (1216, 1408),
    "is-hidden-fullhd": (1408, _INF),
}
_SHOWN = (
    "block|flex|inline|inline-block|inline-flex|grid|inline-grid|table|table-row|table-cell|"
    "contents|flow-root|list-item"
)
_BOOTSTRAP_CLASS = re.compile(rf"d-(?:(sm|md|lg|xl|xxl)-)?(none|{_SHOWN})")
_TAILWIND_CLASS = re.compile(rf"(?:(sm|md|lg|xl|2xl):)?(hidden|{_SHOWN})")
_BREAKPOINTS = ("sm:", "md:", "lg:", "xl:")


def uses_tailwind(doc: etree._Element) -> bool:
    """True when an element of ``doc``'s body has a Tailwind breakpoint class (``md:flex``):
    what ``//body//*[contains(@class, 'sm:') or …]`` finds, read by a walk that stops at
    the first (with the page's elements held, tree.py, faster than the XPath)."""
    for body in doc.iter("body"):
        for el in body.iterdescendants(etree.Element):
            klass = el.get("class")
            if klass and any(point in klass for point in _BREAKPOINTS):
                return True
    return False


def never_shown(class_attr: str) -> bool:
    """True when ``class_attr`` (an element's ``class`` value) names a :data:`NEVER_SHOWN`
    class."""
    return any(name in NEVER_SHOWN for name in class_attr.split())


def hidden_on_desktop(class_attr: str, tailwind: bool = True) -> bool:
    """True when the display utilities in ``class_attr`` hide the element in a window
    :data:`DESKTOP_PX` wide (module docstring), or it is :func:`never_shown`.

    Args:
        class_attr: the element's ``class`` attribute (any whitespace between names).
        tailwind: read Tailwind's classes too (the page :func:`uses_tailwind`).

    Returns:
        ``False`` for an element without display utilities (its style sheet decides, and
        the default is to show it).
    """
    return _hidden_at(class_attr, tailwind, DESKTOP_PX)


def shown_on_another_screen(class_attr: str, tailwind: bool = True) -> bool:
    """True when the display utilities in ``class_attr`` hide the element on a desktop but
    show it in a narrower or wider window (``d-lg-none``: a phone's copy of a block; ``d-none
    d-xxl-block``): some reader sees it. ``False`` for one hidden at every width (``d-none``,
    Tailwind's bare ``hidden``) and for one not hidden on a desktop."""
    if not hidden_on_desktop(class_attr, tailwind):
        return False
    widths = {0}
    for name in class_attr.split():
        found = _breakpoint_display(name, tailwind)
        if found is not None:
            widths.add(found[0])
        span = _RANGES.get(name)
        if span is not None:
            widths.update(edge for edge in span if edge < _INF)
    return any(not _hidden_at(class_attr, tailwind, width) for width in widths)


def _hidden_at(class_attr: str, tailwind: bool, window: int) -> bool:
    """Whether the display utilities in ``class_attr`` hide the element in a window
    ``window`` CSS pixels wide (or it is :func:`never_shown`).

    A class list that holds none of ``hidden``, ``-none`` and ``w-`` hides at no width and
    is answered without reading its names (most class lists of a page): every class that
    hides holds one of them — the :data:`NEVER_SHOWN` names start with ``w-``, the
    :data:`_RANGES` names hold ``hidden``, Bootstrap's hiding ``d-…-none`` ends in
    ``-none`` and Tailwind's ``hidden``/``{bp}:hidden`` is ``hidden`` — and without one
    ``hidden`` stays ``False``."""
    if "hidden" not in class_attr and "-none" not in class_attr and "w-" not in class_attr:
        return False
    best = -1
    hidden = False
    for name in class_attr.split():
        if name in NEVER_SHOWN:
            return True
        span = _RANGES.get(name)
        if span is not None and span[0] <= window < span[1]:
            return True  # these frameworks hide with !important, whatever else says
        found = _breakpoint_display(name, tailwind)
        if found is None:
            continue
        width, hides = found
        if width > window:
            continue
        if width > best:
            best, hidden = width, hides
        elif width == best and not hides:
            hidden = False  # the same breakpoint says both: showing wins
    return hidden


def _breakpoint_display(name: str, tailwind: bool) -> tuple[int, bool] | None:
    """``(breakpoint in px, hides)`` of one display utility class, or ``None``."""
    if name.startswith("d-"):
        match = _BOOTSTRAP_CLASS.fullmatch(name)
        if match:
            return _BOOTSTRAP[match.group(1) or ""], match.group(2) == "none"
        return None
    match = _TAILWIND_CLASS.fullmatch(name) if tailwind else None
    if match:
        return _TAILWIND[match.group(1) or ""], match.group(2) == "hidden"
    return None
