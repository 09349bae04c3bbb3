"""Parts of a page that are never its content, removed before extraction. Pure functions.

* **Inert elements** (:func:`drop_inert`): scripts, styles, SVG drawings and templates.
* **Hidden blocks** (:func:`hidden_blocks`): elements with the ``hidden`` attribute, an inline
  ``display:none`` / ``visibility:hidden`` style (or one that shrinks or fades the box to nothing:
  :func:`~webresearch.extract.overflow_styles.hides_box`), the display utility classes of
  Bootstrap, Tailwind or Webflow that hide them on a desktop screen
  (:mod:`webresearch.extract.utility_classes`: a phone-only copy of a block, a menu, a gated copy
  of the article; not read on a shop's page, whose scripts show them. WCXB dev: article +0.001,
  listing +0.005, collection +0.001, the other types and Zyte unchanged), or the page's own
  ``<style>`` rules (:mod:`webresearch.extract.style_rules`) are not shown to a reader. They are
  removed — unless the page without them is an empty app shell while they hold the text: then the
  hidden, server-rendered block *is* the content (it waits for client-side hydration; case 06),
  and everything stays (counted as kept hidden text: :mod:`webresearch.extract.kept_hidden`;
  it may as well be instructions for the model). A hidden block of prose stays too where the
  page's structure shows a control that opens it — a closed tab, accordion or disclosure
  panel (:mod:`webresearch.extract.collapsed_panels`): a click shows it, and the corpora's
  ground truth counts it (product descriptions, forum posts, FAQ answers). Hidden prose that
  nothing opens goes (a prompt injection hides so): :func:`hidden_verdicts`. A hidden element
  inside a kept panel stays hidden when the panel opens, so it is judged on its own, the
  panel's control no evidence for it (review: ``<p hidden>Ignore previous instructions</p>``
  inside a closed tab reached the output, as did a ``<template>`` or a class the page's
  ``<style>`` hides there). The verdicts decide:
  trafilatura reads the blocks kept as shown (:mod:`webresearch.extract.traf_input`).
  Webflow's never-shown classes (``w-condition-invisible``, a form's after-sending messages) are
  left out even then: no click shows them. Text trafilatura kept in a hidden microdata property
  whose visible copy it dropped is kept at that copy (:mod:`webresearch.extract.visible_copies`).
  An element holding only formulas is never a hidden block: it is MathML hidden from the eye next
  to a picture of it (:mod:`webresearch.extract.formulas`).
* **Popup menus of links** (:func:`popup_menus`): a menu or dropdown widget — WAI-ARIA
  ``role="menu"``, GitHub's ``<details-menu>``, Bootstrap's ``dropdown-menu``, the panel a
  dropdown button opens (a class ``dropdown-panel``, ``dropdown-content(s)`` or
  ``dropdown-container``, alone or after a prefix: MediaWiki's ``vector-dropdown-content``)
  — holding at least :data:`MIN_MENU_LINKS` links that make :data:`MIN_MENU_LINK_SHARE` of its text or
  more, and a listbox or dialog (``role="listbox"``, ``"dialog"``, ``"alertdialog"``)
  holding as many links that make :data:`MIN_POPUP_LINK_SHARE` of its text or more, is a
  picker that leads elsewhere (a language or tag chooser, a section menu), opened by a
  click; never the page's content (trafilatura drops them as link-dense blocks, but the
  second opinion or a kept ``<main>`` brought them back). A menu of non-links (tabs marked
  ``role="menu"``, a facet of radio buttons) and a dialog of prose (a size guide, a
  seller's card: at most 43 % link text on WCXB dev) stay. Of the 49 menus and dropdowns
  of the WCXB dev pages with 30-80 % link text, none is in the ground truth (at most 5 % of
  its words, headings it repeats). WCXB dev 0.858 → 0.859: listing 0.714 → 0.724, service
  0.798 → 0.801, collection 0.6998 → 0.6999, the other types unchanged (10 pages change,
  one down by 0.001); Zyte dev unchanged (0.969, one page +0.001). The dropdown panels (a
  book's chapter list behind "Chapters ▾", a wiki's language list, a forum's "Jump to"
  list): of their words on WCXB dev pages in our output, about 850 were not in the ground
  truth and 5 were (``dropdown-list`` is left alone: one such panel holds a site's article
  text, and a bare ``dropdown`` class marks a trigger and its menu together: 102 of its 627
  words in our output are in the ground truth). WCXB dev: documentation 0.914 → 0.917, listing +0.001, forum +0.001,
  article +0.0001, the other types and Zyte dev unchanged (5 pages change, none down).
* **Teaser blocks** (:func:`drop_teasers`): "related stories", "read next", galleries and
  video players inside the chosen content.

The page's own table of contents is :mod:`webresearch.extract.page_toc`'s.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from lxml import etree

from webresearch.extract.align import normalise, page_text_size
from webresearch.extract.appshell import SHELL_VISIBLE_CHARS, hides_its_content
from webresearch.extract.assistive_text import only_assistive_text
from webresearch.extract.caseless import CaselessPattern
from webresearch.extract.collapsed_panels import PanelControls, is_collapsed_content
from webresearch.extract.formulas import holds_only_formula
from webresearch.extract.hidden_copies import repeats_a_sibling
from webresearch.extract.hub_cards import is_hub_card_box
from webresearch.extract.json_ld_body import inert_elements
from webresearch.extract.markdown import SKIPPED_TAGS
from webresearch.extract.overflow_styles import hides_box
from webresearch.extract.scan_index import PageAttributes, hiding_candidates, read_attributes
from webresearch.extract.tree import remove_keep_tail
from webresearch.extract.utility_classes import hidden_on_desktop, never_shown, uses_tailwind

__all__ = [
    "SHELL_VISIBLE_CHARS",
    "HiddenVerdicts",
    "drop_inert",
    "drop_teasers",
    "headings_left_empty",
    "hidden_blocks",
    "hidden_verdicts",
    "is_link_menu",
    "popup_menus",
    "remove_elements",
    "rest_is_boilerplate",
    "visible_text_size",
]

#: Outside the main content, at least this share of links and comments is boilerplate.
MIN_BOILERPLATE_SHARE = 0.5
#: A teaser block has at least this share of link text …
MIN_TEASER_LINK_SHARE = 0.4
#: … or fewer letters and digits than this.
MAX_TEASER_CHARS = 300
#: A popup menu of links has at least this many links …
MIN_MENU_LINKS = 3
#: … and at least this share of its letters and digits is link text (a menu, a dropdown) …
MIN_MENU_LINK_SHARE = 0.3
#: … or this share (a listbox, a dialog: most are not navigation).
MIN_POPUP_LINK_SHARE = 0.8

_HIDDEN_STYLE = CaselessPattern(r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\b")
_HIDDEN_BELOW = etree.XPath(".//*[@hidden or @style]")
#: The class of the panel a dropdown button opens (module docstring).
_DROPDOWN_PANEL = re.compile(r"(?:^|[-_])dropdown-(?:panel|contents?|container)$")
_POPUP_ROLES = frozenset({"listbox", "dialog", "alertdialog"})
_COMMENT_NAME = re.compile(r"comment|repl(?:y|ies)|respond|disqus|discussion", re.I)
_COMMENTS_XPATH = etree.XPath(
    ".//*[contains(@id, 'comment') or contains(@class, 'comment') or contains(@id, 'disqus')"
    " or contains(@class, 'replies') or contains(@id, 'respond')]"
)
_TEASER_NAME = CaselessPattern(
    r"related|teaser|recommend|read-?next|more-?(?:stories|articles|news)|you-?may-?(?:also-?)?like|"
    r"also-?read|popular-?(?:posts|stories)|trending|gallery|slideshow|carousel|video-?player|"
    r"jw-?player|vjs|outbrain|taboola|promo"
)


def drop_inert(doc: etree._Element) -> None:
    """Remove scripts, styles, inline SVG drawings and the head's links, in place.

    None of them is text for a reader (read JSON-LD before: :mod:`~webresearch.extract.page_type`),
    and every later pass — the extractor's copies of the tree, the text walks, the markdown
    conversion — no longer pays for them.
    """
    remove_elements(inert_elements(doc))  # JSON-LD articleBody spared (json_ld_body.py)


class HiddenVerdicts(NamedTuple):
    """The hidden blocks of a page, judged (:func:`hidden_verdicts`).

    Attributes:
        removed: the hidden elements that are not content (to remove): outermost ones, and
            those inside a kept one that nothing opens once it is open.
        kept: the hidden elements that stay: panels a control opens (one may hold another),
            or all the outermost on an app shell (their text reaches the output hidden from
            the reader).
    """

    removed: list[etree._Element]
    kept: list[etree._Element]


def hidden_blocks(
    doc: etree._Element,
    page_chars: int | None,
    utility_classes: bool = True,
    attributes: PageAttributes | None = None,
    styled: frozenset[etree._Element] = frozenset(),
) -> list[etree._Element]:
    """The hidden blocks of ``doc`` to leave out (:func:`hidden_verdicts`'s ``removed``)."""
    return hidden_verdicts(doc, page_chars, utility_classes, attributes, styled).removed


def hidden_verdicts(
    doc: etree._Element,
    page_chars: int | None,
    utility_classes: bool = True,
    attributes: PageAttributes | None = None,
    styled: frozenset[etree._Element] = frozenset(),
    html: str | None = None,
) -> HiddenVerdicts:
    """The hidden blocks of ``doc``, to leave out or to keep (module docstring: ``styled``,
    those the page's ``<style>`` rules hide, read as ``display:none``); nothing is removed yet.

    Args:
        doc: the parsed document (``<html>``), before anything is pruned.
        page_chars: letters and digits of the whole body's text (``None``: counted as needed).
        utility_classes: read the display utility classes too
            (:mod:`~webresearch.extract.utility_classes`); ``False`` on a shop's page, whose
            scripts show the blocks they hide (stock notices, a chosen variant's labels:
            WCXB dev product −0.0005 with them).
        attributes: the body's attributes read once for several scans
            (:mod:`~webresearch.extract.scan_index`); read from the tree when ``None``.
        html: the decoded page: one that runs no script is never a shell (``None``: never).

    Returns:
        the hidden elements that are not content (``removed``: none on an empty shell, whose
        outermost ones are kept whole) and those that stay (``kept``), in document order.
        Elsewhere a hidden element inside a kept one is judged on its own (it stays hidden
        when its panel opens: the panel's control is no evidence for it); one inside a
        removed block goes with it, unlisted. Remove ``removed`` once the
        main content is chosen (:func:`remove_elements`): it is chosen on the page as served.
    """
    tailwind: list[bool] = []  # whether the page uses Tailwind, once a class needs it
    verdicts: dict[str, bool] = {}  # a page repeats its class lists: each read once

    def hidden_by_class(class_attr: str) -> bool:
        verdict = verdicts.get(class_attr)
        if verdict is not None:
            return verdict
        plain = hidden_on_desktop(class_attr, tailwind=False)
        if plain != hidden_on_desktop(class_attr, tailwind=True):
            if not tailwind:  # a Tailwind display class: is this a Tailwind page?
                tailwind.append(uses_tailwind(doc))
            plain = hidden_on_desktop(class_attr, tailwind=tailwind[0])
        verdicts[class_attr] = plain
        return plain

    hidden = [
        el
        for el, klass, style, flag in hiding_candidates(doc, attributes, styled)
        if el.tag not in ("noscript", "input", "option")
        and (
            (flag is not None or el in styled)
            or bool(_HIDDEN_STYLE.search(style or ""))
            or (style is not None and hides_box(style, el))  # zero size, font: overflow_styles
            or (utility_classes and hidden_by_class(klass or ""))
        )
        and not holds_only_formula(el)  # MathML for assistive technology (formulas.py)
    ]
    if not hidden:
        return HiddenVerdicts([], [])
    hidden_set = frozenset(hidden)  # also read for a row of tab panes (collapsed_panels.py)
    holders = {el: _hidden_holder(el, hidden_set) for el in hidden}
    sizes = {el: page_text_size(el) for el in hidden if holders[el] is None}  # the outermost
    if hides_its_content(doc, sum(sizes.values()), page_chars, sizes, html):
        return HiddenVerdicts([], list(sizes))  # an app shell: its hidden blocks, whole
    controls = PanelControls(doc, hidden_set, styled)  # what opens a panel, read at the first one
    removed, kept = HiddenVerdicts([], [])
    opened: set[etree._Element] = set()  # the kept ones
    for el in hidden:  # document order: a block's holder is judged before it
        holder = holders[el]
        if holder is not None and holder not in opened:
            continue  # goes with the hidden block that holds it
        # one inside a kept block stays hidden when that block opens: a verdict of its own
        chars = sizes[el] if holder is None else page_text_size(el)
        keep = not (
            (never_shown(el.get("class") or "") or el.tag == "template")  # no click shows them
            or not is_collapsed_content(el, chars)
            or only_assistive_text(el, chars)  # no click shows it (assistive_text.py)
            or repeats_a_sibling(el, chars)  # a copy of the block shown beside it
            or not controls.opens(el, holder)  # hidden prose nothing opens (collapsed_panels.py)
        )
        (kept if keep else removed).append(el)
        if keep:
            opened.add(el)
    return HiddenVerdicts(removed, kept)


def popup_menus(
    root: etree._Element, attributes: PageAttributes | None = None
) -> list[etree._Element]:
    """The popup menus of links under ``root`` (module docstring), outermost only, in
    document order; nothing is removed yet (pass them to :func:`remove_elements`).

    A menu is an element whose first ``role`` token is ``menu`` (WAI-ARIA 1.2; a role list
    names the preferred role first), a ``<details-menu>`` element or one with the class
    ``dropdown-menu`` or a dropdown panel's class (module docstring); a popup, one whose
    first role is ``listbox``, ``dialog`` or ``alertdialog``. Either is a menu of links when it holds at least
    :data:`MIN_MENU_LINKS` ``<a href>`` whose text is at least :data:`MIN_MENU_LINK_SHARE`
    (a menu) or :data:`MIN_POPUP_LINK_SHARE` (a popup) of its letters and digits.
    ``attributes``: ``root``'s attributes read once for several scans
    (:mod:`~webresearch.extract.scan_index`); read from the tree when ``None``.
    """
    found: list[etree._Element] = []
    chosen: set[etree._Element] = set()
    if attributes is None or not attributes.describes(root):
        attributes = read_attributes(root)
    details = set(root.iterdescendants("details-menu"))  # a C-level walk: most pages none
    roled, classes = attributes.roled, attributes.classes
    if not details and roled is not None and classes is not None and "dropdown" not in classes:
        rows = [row for row in roled if row[0] is not root]  # (most pages) those with a role
    else:
        rows = attributes.rows[1:]  # rows[0]: root, not a candidate
    for el, klass, _, _, _, role, _ in rows:
        if role is None and (klass is None or "dropdown" not in klass) and el not in details:
            continue
        if not isinstance(el.tag, str) or (chosen and any(a in chosen for a in el.iterancestors())):
            continue
        roles = (role or "").lower().split()
        role = roles[0] if roles else ""
        if role == "menu" or el.tag == "details-menu":
            share = MIN_MENU_LINK_SHARE
        elif role in _POPUP_ROLES:
            share = MIN_POPUP_LINK_SHARE
        elif any(
            token == "dropdown-menu" or _DROPDOWN_PANEL.search(token)
            for token in (klass or "").split()
        ):
            share = MIN_MENU_LINK_SHARE
        else:
            continue
        if is_link_menu(el, share):
            found.append(el)
            chosen.add(el)
    return found


def is_link_menu(el: etree._Element, share: float) -> bool:
    """Whether ``el`` reads as a menu: at least :data:`MIN_MENU_LINKS` links (``<a href>``)
    whose text is at least ``share`` (0–1) of its letters and digits."""
    links = [a for a in el.iter("a") if a.get("href") is not None]
    if len(links) < MIN_MENU_LINKS:
        return False
    chars = page_text_size(el)
    linked = sum(len(normalise("".join(a.itertext()))) for a in links)
    return bool(chars) and linked >= share * chars


_HEADING_LEVEL = {f"h{n}": n for n in range(1, 7)}


def headings_left_empty(menus: list[etree._Element]) -> list[etree._Element]:
    """The headings whose whole section is one of ``menus`` (review 6: ``## Download`` over
    a download dropdown, printed with nothing under it once the menu is gone).

    A menu's block is the menu with the ancestors that show no other text (a toggle
    button's label is not shown: buttons are no text in the markdown); the heading is the
    element right before that block, and the element right after it is a heading of the
    same or a higher level. A heading empty in the page itself is no menu's and stays: on
    WCXB dev the ground truths hold 296 of the 449 headings our output shows with nothing
    under them (so no rule on the markdown drops empty headings). No WCXB or Zyte dev
    page's output changes.
    """
    found: list[etree._Element] = []
    for menu in menus:
        block = menu
        parent = block.getparent()
        while parent is not None and _tag(parent) not in ("body", "html"):
            if _shown_chars(parent, block):
                break
            block, parent = parent, parent.getparent()
        before, after = _element_sibling(block, -1), _element_sibling(block, 1)
        if before is None or after is None or (before.tail or "").strip():
            continue
        if (block.tail or "").strip():
            continue
        level, next_level = _HEADING_LEVEL.get(_tag(before)), _HEADING_LEVEL.get(_tag(after))
        if level is not None and next_level is not None and next_level <= level:
            found.append(before)
    return found


def _element_sibling(el: etree._Element, step: int) -> etree._Element | None:
    """The previous (``step`` −1) or next (+1) sibling that is an element (no comment)."""
    sibling = el.getprevious() if step < 0 else el.getnext()
    while sibling is not None and not isinstance(sibling.tag, str):
        sibling = sibling.getprevious() if step < 0 else sibling.getnext()
    return sibling


def _shown_chars(el: etree._Element, leave_out: etree._Element) -> int:
    """Letters and digits the markdown shows under ``el``, outside ``leave_out`` and the
    elements it never shows as text (buttons, forms, scripts: ``SKIPPED_TAGS``)."""
    size = len(normalise(el.text or ""))
    stack = list(el)
    while stack:
        node = stack.pop()
        size += len(normalise(node.tail or ""))  # text of the shown parent
        tag = node.tag.lower() if isinstance(node.tag, str) else ""
        if node is leave_out or not tag or tag in SKIPPED_TAGS:
            continue
        size += len(normalise(node.text or ""))
        stack.extend(node)
    return size


def _tag(el: etree._Element) -> str:
    return el.tag.lower() if isinstance(el.tag, str) else ""


def visible_text_size(root: etree._Element) -> int:
    """Letters and digits of the text under ``root`` a reader sees: the text of elements with
    the ``hidden`` attribute or an inline ``display:none`` / ``visibility:hidden`` style (a
    closed dialog, a menu) does not count (:func:`~webresearch.extract.align.page_text_size`
    counts everything)."""
    hidden = [el for el in _HIDDEN_BELOW(root) if _hidden_by_markup(el)]
    if not hidden:
        return page_text_size(root)
    chosen = set(hidden)
    outermost = [el for el in hidden if not any(a in chosen for a in el.iterancestors())]
    return page_text_size(root) - sum(page_text_size(el) for el in outermost)


def remove_elements(elements: list[etree._Element]) -> None:
    """Remove each element still in a tree (its tail text stays)."""
    for el in elements:
        remove_keep_tail(el)


def _hidden_holder(el: etree._Element, hidden: frozenset[etree._Element]) -> etree._Element | None:
    """The nearest ancestor of ``el`` in ``hidden``, or ``None`` (``el`` is outermost)."""
    return next((a for a in el.iterancestors() if a in hidden), None)


def _hidden_by_markup(el: etree._Element) -> bool:
    """The ``hidden`` attribute or an inline ``display:none`` / ``visibility:hidden`` style."""
    return el.get("hidden") is not None or bool(_HIDDEN_STYLE.search(el.get("style") or ""))


def rest_is_boilerplate(body: etree._Element, kept_chars: int) -> bool:
    """True when the page text outside the main content is mostly links and comments.

    The evidence for the whole-page fallback: when the main content is a small share of
    the page, the rest is either the content the extractor missed (prose) or boilerplate —
    navigation, link lists, a comment thread, a job board's other offers. Only prose
    justifies converting the whole page.

    Args:
        body: the page's ``<body>``, not pruned.
        kept_chars: letters and digits of the main content.
    """
    rest = page_text_size(body) - kept_chars
    if rest <= 0:
        return True
    links = sum(len(normalise("".join(a.itertext()))) for a in body.iter("a"))
    comments = 0
    for el in _COMMENTS_XPATH(body):
        if not any(
            _COMMENT_NAME.search(f"{a.get('id') or ''} {a.get('class') or ''}")
            for a in el.iterancestors()
        ):
            comments += page_text_size(el)
    return links + comments >= MIN_BOILERPLATE_SHARE * rest


def drop_teasers(root: etree._Element) -> int:
    """Remove teaser blocks from the content about to be rendered, in place.

    A block whose class or id names it "related", "teaser", "recommended", "read next",
    "more stories", a photo gallery or a video player, and whose text is mostly links or short
    captions (:data:`MIN_TEASER_LINK_SHARE` of link text, or under :data:`MAX_TEASER_CHARS`
    letters and digits), is a promotion of other pages, not part of the article it follows
    (a hub's card to its own sub-page is its content, whatever its class: hub_cards.py).
    Returns:
        how many blocks were removed.
    """
    doomed: list[etree._Element] = []
    # the descendants with a class or an id (a walk reading two attributes: with the page's
    # elements held, tree.py, half the time of the XPath `.//*[@class or @id]`)
    for el in root.iterdescendants(etree.Element):
        if el.get("class") is None and el.get("id") is None:
            continue
        if el.tag in ("a", "span", "img", "p"):
            continue
        names = f"{el.get('id') or ''} {el.get('class') or ''}"
        # the name first: the hub-card test reads the block's subtree and ancestors
        if not _TEASER_NAME.search(names) or is_hub_card_box(el):
            continue
        if any(d in doomed for d in el.iterancestors()):
            continue
        chars = page_text_size(el)
        links = sum(len(normalise("".join(a.itertext()))) for a in el.iter("a"))
        if chars < MAX_TEASER_CHARS or links >= MIN_TEASER_LINK_SHARE * chars:
            doomed.append(el)
    remove_elements(doomed)
    return len(doomed)
