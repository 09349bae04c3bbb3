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
_SHOWN = (
    "block|flex|inline|inline-block|inline-flex|grid|inline-grid|table|table-row|table-cell|"
    "contents|flow-root|list-item"
)
_BOOTSTRAP_CLASS = re.compile(rf"d-(?:(sm|md|lg|xl|xxl)-)?(none|{_SHOWN})")
_TAILWIND_CLASS = re.compile(rf"(?:(sm|md|lg|xl|2xl):)?(hidden|{_SHOWN})")
_TAILWIND_PAGE = etree.XPath(
    "boolean(//body//*[contains(@class, 'sm:') or contains(@class, 'md:')"
    " or contains(@class, 'lg:') or contains(@class, 'xl:')])"
)


def uses_tailwind(doc: etree._Element) -> bool:
    """True when an element of ``doc``'s body has a Tailwind breakpoint class (``md:flex``)."""
    return bool(_TAILWIND_PAGE(doc))


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
    return any(not _hidden_at(class_attr, tailwind, width) for width in widths)


def _hidden_at(class_attr: str, tailwind: bool, window: int) -> bool:
    """Whether the display utilities in ``class_attr`` hide the element in a window
    ``window`` CSS pixels wide (or it is :func:`never_shown`)."""
    best = -1
    hidden = False
    for name in class_attr.split():
        if name in NEVER_SHOWN:
            return True
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
