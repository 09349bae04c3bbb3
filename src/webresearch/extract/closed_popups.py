"""Closed popups of links: the menu a collapsed ``aria-haspopup`` control opens. Pure
functions over lxml trees.

WAI-ARIA 1.2: a control with ``aria-haspopup`` (``true``/``menu``, ``listbox``, ``tree``,
``grid``, ``dialog``) opens a popup; ``aria-expanded="false"`` says the popup is closed, and
``aria-controls`` names it by ``id``. As served, such a popup is not on screen: a reader
sees its button ("Shop by category ▾", "My eBay ▾"), not the dozens of links behind it.
Those popups rarely carry a role of their own (eBay's header flyouts are plain
``<div class="gh-flyout__dialog">``, Mailchimp's mega-menu panels plain ``<section>``), so
:func:`~webresearch.extract.page_noise.popup_menus` does not see them, and when
trafilatura or the second opinion keeps the page header, a whole category tree comes out
as the first thousand words of a product page.

A closed popup is left out when it holds at least
:data:`~webresearch.extract.page_noise.MIN_MENU_LINKS` links whose text makes at least
:data:`~webresearch.extract.page_noise.MIN_MENU_LINK_SHARE` of its letters and digits (a
menu: ``aria-haspopup`` ``true`` or ``menu``) or
:data:`~webresearch.extract.page_noise.MIN_POPUP_LINK_SHARE` (any other popup: a dialog of
prose, a size guide, a listbox of options stay) — the thresholds of ``popup_menus``. A
disclosure widget (an accordion's or a tab's button: ``aria-expanded`` without
``aria-haspopup``) is not a popup and its panel — often a product's description or
specifications — is never touched.

The controls are found in the served markup (a substring search for ``aria-haspopup``,
written in lower case as pages do, then the tags holding it read alone: most pages have none and cost no walk of the tree); their
popups through the page's attribute index (:mod:`~webresearch.extract.scan_index`).

WCXB dev: of the 51 pages with a collapsed ``aria-haspopup`` control, one output changes
(an eBay product page loses its 63-word category flyout: 0.330 → 0.336); a Mailchimp service
page's panels are already out. About 0.2 ms on a page with controls, a substring search on
the others.
"""

from __future__ import annotations

import html as html_lib
import re

from lxml import etree

from webresearch.extract.page_noise import (
    MIN_MENU_LINK_SHARE,
    MIN_POPUP_LINK_SHARE,
    is_link_menu,
)
from webresearch.extract.scan_index import PageAttributes, read_attributes

__all__ = ["closed_popups", "popup_controls"]

#: ``aria-haspopup`` values that name a menu (WAI-ARIA 1.2: ``true`` means ``menu``).
_MENU_VALUES = frozenset({"true", "menu"})
#: The other values that name a popup.
_POPUP_VALUES = frozenset({"listbox", "tree", "grid", "dialog"})
_MARK = "aria-haspopup"
_ATTRIBUTE = re.compile(r"""([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?""")


def popup_controls(markup: str) -> dict[str, float]:
    """The popups that collapsed controls in ``markup`` name, as ``{id: link share}``: the
    share of link text that makes the popup a menu of links (module docstring).

    Args:
        markup: the served page (HTML text, any size).

    Returns:
        one entry per ``id`` named by the ``aria-controls`` of a start tag holding
        ``aria-haspopup`` (a menu or popup value) and ``aria-expanded="false"``; empty
        when the page has none.
    """
    shares: dict[str, float] = {}
    at = markup.find(_MARK)
    while at >= 0:
        start = markup.rfind("<", 0, at)
        end = markup.find(">", at)
        if start < 0 or end < 0:
            break
        attrs: dict[str, str] = {}
        for m in _ATTRIBUTE.finditer(markup, start + 1, end):
            value = m.group(2) if m.group(2) is not None else m.group(3) or m.group(4) or ""
            attrs.setdefault(m.group(1).lower(), html_lib.unescape(value))
        _add_control(shares, attrs)
        at = markup.find(_MARK, end)
    return shares


def closed_popups(
    root: etree._Element, markup: str | None, attributes: PageAttributes | None = None
) -> list[etree._Element]:
    """The closed popups of links under ``root`` (module docstring), outermost only, in
    document order; nothing is removed yet (pass them to
    :func:`~webresearch.extract.page_noise.remove_elements`).

    Args:
        root: the page's ``<body>``, before pruning.
        markup: the served page, where the controls are looked for; ``None`` when ``root``
            is not the served page (a frameset's ``<noframes>``): the tree is searched.
        attributes: ``root``'s attributes read once for several scans
            (:mod:`~webresearch.extract.scan_index`); read from the tree when needed and
            ``None``.

    Returns:
        the popup elements to leave out; empty when the page has no collapsed popup control.
    """
    if markup is not None:
        if _MARK not in markup:
            return []
        shares = popup_controls(markup)
    else:
        shares = {}
        for control in root.iterfind(".//*[@aria-haspopup]"):
            _add_control(shares, {k.lower(): v for k, v in control.items()})
    if not shares:
        return []
    if attributes is None or not attributes.describes(root):
        attributes = read_attributes(root)
    found: list[etree._Element] = []
    chosen: set[etree._Element] = set()
    for el, _, ident, _, _, _, _ in attributes.rows:
        share = shares.get(ident) if ident else None
        if share is None or (chosen and any(a in chosen for a in el.iterancestors())):
            continue
        if is_link_menu(el, share):
            found.append(el)
            chosen.add(el)
    return found


def _add_control(shares: dict[str, float], attrs: dict[str, str]) -> None:
    """Record the popups a control (its attributes, names lowercased) opens, if it is
    collapsed; the lower link share wins when two controls name the same popup."""
    if attrs.get("aria-expanded", "").strip().lower() != "false":
        return
    value = attrs.get(_MARK, "").strip().lower()
    if value in _MENU_VALUES:
        share = MIN_MENU_LINK_SHARE
    elif value in _POPUP_VALUES:
        share = MIN_POPUP_LINK_SHARE
    else:
        return
    for ref in attrs.get("aria-controls", "").split():
        shares[ref] = min(share, shares.get(ref, share))
