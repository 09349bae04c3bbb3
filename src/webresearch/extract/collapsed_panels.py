"""Hidden prose a click shows: a closed tab, accordion or disclosure panel. Pure functions.

A hidden block of prose is kept (:func:`~webresearch.extract.page_noise.hidden_blocks`) only
where the page's *structure* shows that a reader can open it; text no reader ever sees is a
way to talk to the model behind the reader's back (``<div style="display:none">Ignore
previous instructions …</div>`` after a visible article was kept as a "closed panel" before:
a security review). :func:`is_collapsed_content` asks for prose (:data:`MIN_COLLAPSED_CHARS`
letters and digits, little link text, not a dialog: :mod:`webresearch.extract.dialogs`),
and :meth:`PanelControls.opens` for the evidence. On the block itself or on an ancestor at most
:data:`MAX_PANEL_LEVELS` above it (inside ``<body>``), any of:

* WAI-ARIA's tab pattern: ``role="tabpanel"`` on a page with a tab control (a ``role="tab"``
  or ``"tablist"``, or a control or in-page link naming the panel: a bare tab panel nothing
  opens was kept before, a review's ``<div role="tabpanel" style="display:none">Ignore
  previous instructions…``), or ``aria-labelledby`` naming a control
  (a ``<button>``, ``<summary>``, an element with the role ``tab`` or ``button``, or with
  ``aria-expanded`` / ``aria-controls``);
* a control names it: its ``id`` is in an ``aria-controls``, a ``data-target`` or
  ``data-bs-target`` (Bootstrap's collapse and tabs) — or, for the block itself, an in-page
  link's ``href="#id"`` (a skip link names ``#main``, an ancestor of everything);
* it is inside a ``<details>``, or says itself that it is collapsed (``aria-expanded``);
* the element right before it is a control (a ``<button>``, a ``<summary>``, a
  ``role="button"``/``"tab"``, ``aria-expanded``, ``aria-controls``, ``data-toggle``/
  ``data-bs-toggle``, or a heading-sized element — at most :data:`MAX_QUESTION_CHARS`
  letters and digits — holding a ``<button>`` or ``aria-expanded``: an accordion's header)
  or a visible question (ending with "?", at most
  :data:`MAX_QUESTION_CHARS`: an FAQ whose questions open their answers; a question
  :mod:`~webresearch.extract.accordion_questions` took out of its ``<button>`` is one);
* it is one of a row of panels: a sibling element has the same tag and ``class`` and one
  of them is shown (tab panes ``<div class="tab-pane" style="display:block">`` beside
  ``display:none`` ones);
* React's streamed server rendering: a ``<div hidden id="S:…">`` a script moves into the
  page (the whole article of a Next.js page can arrive so);
* it holds the page's title: every ``<h1>`` of the page is inside it (the page's own
  content is hidden, as in an app shell — a Next.js page's streamed segment, or an article a
  parse left inside a closed mobile menu after an unclosed custom element on WCXB dev — and
  is counted as kept; an injected block beside a visible title is not).

An ancestor is read as the panel only while it shows no more than a title beside the block
(:data:`MAX_QUESTION_CHARS` letters and digits of other text): a control beside a whole
article opens nothing inside it. A block hidden on a desktop only by display utility
classes that show it in another window (``d-lg-none``, ``lg:hidden``:
:func:`~webresearch.extract.utility_classes.shown_on_another_screen`) is seen by the
readers of that screen and needs no control: the same prose rule holds for it as before
(a mobile layout's copy of a shop's category text held the page's whole article on WCXB
dev, where a parse left it).

A short hidden block right after a visible question is an FAQ's answer (+0.003 on WCXB dev
product pages when it came) and a short ``role="tabpanel"`` a tab ("macOS" / "Windows"); both
are kept at any length. Anything else hidden — prose with nothing that opens it included —
is left out. WCXB dev: article +0.0003, forum +0.0002, product +0.0020, service +0.0003, the
other types unchanged (4 pages up — a hidden review widget, template rows of lorem ipsum, a
code editor's text, a quoted post's copy left out —, none down); Zyte dev unchanged. Without
the phone-layout and title rules two pages lost their whole article (collection −0.015,
article −0.0018). The app-shell rule of
:mod:`~webresearch.extract.page_noise` is not this module's: there the hidden block is the
page's only content and is kept whatever holds it, and counted
(:mod:`webresearch.extract.kept_hidden`).
"""

from __future__ import annotations

import re

from lxml import etree

from webresearch.extract.align import normalise, page_text_size, text_size_exceeds
from webresearch.extract.dialogs import is_dialog
from webresearch.extract.utility_classes import (
    hidden_on_desktop,
    shown_on_another_screen,
    uses_tailwind,
)

__all__ = [
    "MAX_COLLAPSED_LINK_SHARE",
    "MAX_PANEL_LEVELS",
    "MAX_QUESTION_CHARS",
    "MIN_COLLAPSED_CHARS",
    "PanelControls",
    "follows_question",
    "is_collapsed_content",
]

#: A hidden block of at least this many letters and digits …
MIN_COLLAPSED_CHARS = 200
#: … with less than this share of link text is prose (a tab, an accordion panel).
MAX_COLLAPSED_LINK_SHARE = 0.3
#: The visible question an FAQ answer follows has at most this many characters.
MAX_QUESTION_CHARS = 200
#: The evidence may sit on the hidden block or on its parent or grandparent.
MAX_PANEL_LEVELS = 2

_HIDDEN_STYLE = re.compile(r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\b", re.I)
_REACT_SEGMENT = re.compile(r"S:[0-9a-f]+")
_CONTROL_TAGS = frozenset({"button", "summary"})
_CONTROL_ROLES = frozenset({"button", "tab"})
_CONTROL_ATTRIBUTES = ("aria-expanded", "aria-controls", "data-toggle", "data-bs-toggle")
_HOLDS_CONTROL = etree.XPath(".//button | .//*[@aria-expanded]")
#: The attributes by which a control names the panel it opens.
_NAMING_ATTRIBUTES = ("aria-controls", "data-target", "data-bs-target")


def is_collapsed_content(el: etree._Element, chars: int) -> bool:
    """Whether the hidden ``el`` (``chars`` letters and digits) is prose a panel may hold: at
    least :data:`MIN_COLLAPSED_CHARS` (any length for a ``role="tabpanel"`` or right after a
    visible question), under :data:`MAX_COLLAPSED_LINK_SHARE` of link text, not a dialog.
    Whether anything opens it is :meth:`PanelControls.opens`'s question."""
    if not chars or is_dialog(el, chars):
        return False
    if chars < MIN_COLLAPSED_CHARS and _role(el) != "tabpanel" and not follows_question(el):
        return False
    links = sum(len(normalise("".join(a.itertext()))) for a in el.iter("a"))
    return links < MAX_COLLAPSED_LINK_SHARE * chars


def follows_question(el: etree._Element) -> bool:
    """True when the element before ``el`` is a visible question (an FAQ accordion)."""
    previous = _previous_element(el)
    if previous is None or _hidden_by_markup(previous):
        return False
    if hidden_on_desktop(previous.get("class") or "", tailwind=False):
        return False
    question = " ".join("".join(previous.itertext()).split())
    return 0 < len(question) <= MAX_QUESTION_CHARS and question.endswith("?")


class PanelControls:
    """What on one page opens a hidden block (module docstring); the page's control
    attributes are read once, at the first question.

    Args:
        doc: the parsed page (``<html>``), not yet pruned.
        hidden: the page's hidden elements (a row of panels needs one that is shown).
        styled: the elements the page's ``<style>`` rules hide.
    """

    def __init__(
        self,
        doc: etree._Element,
        hidden: frozenset[etree._Element],
        styled: frozenset[etree._Element] = frozenset(),
    ) -> None:
        self._doc = doc
        self._hidden = hidden
        self._styled = styled
        self._named: set[str] | None = None  # ids a control names
        self._tabs = False  # the page has a role="tab" or "tablist"
        self._linked: set[str] = set()  # ids an in-page link names
        self._tailwind: bool | None = None
        self._titles: list[etree._Element] | None = None  # the page's <h1> elements
        # read once a page (review r-12: per block, thousands of hidden blocks under one
        # parent made these quadratic)
        self._sizes: dict[etree._Element, int] = {}
        self._ids: dict[str, list[etree._Element]] | None = None
        self._rows: dict[tuple[etree._Element, str, str], bool] = {}

    def opens(self, el: etree._Element, within: etree._Element | None = None) -> bool:
        """True when the page's structure shows a control that opens the hidden ``el``, or
        a reader with another screen sees it (module docstring).

        Args:
            el: a hidden element of the page.
            within: the kept hidden block holding ``el``, if any: its own evidence (and its
                ancestors') opens that block, not ``el``, which stays hidden once it is open.
        """
        if self._named is None:
            self._read_controls()
        if self._on_another_screen(el):
            return True
        if (
            el.tag == "div"
            and el.get("hidden") is not None
            and _REACT_SEGMENT.fullmatch(el.get("id") or "")
        ):
            return True
        if (el.get("id") or "") in self._linked or self._holds_every_title(el):
            return True
        node: etree._Element | None = el
        chars = 0  # the hidden block's letters and digits, read for an ancestor
        for level in range(MAX_PANEL_LEVELS + 1):
            if node is None or node is within or node.tag in ("body", "html"):
                return False
            if level == 1:
                chars = self._size(el)
            # an ancestor is the panel when it shows no more than a title beside the block
            if level and self._size(node) - chars > MAX_QUESTION_CHARS:
                return False
            if self._is_panel(node, level):
                return True
            node = node.getparent()
        return False

    def _size(self, el: etree._Element) -> int:
        """``page_text_size(el)``, read once (the tree is not changed while reading)."""
        size = self._sizes.get(el)
        if size is None:
            size = self._sizes[el] = page_text_size(el)
        return size

    def _read_controls(self) -> None:
        """The ids the page's controls and in-page links name, and whether it has tabs: one
        walk reading five attributes an element (three XPath scans of the page before: the
        results are sets and a flag, so the order read does not matter)."""
        named: set[str] = set()
        linked: set[str] = set()
        tabs = False
        for el in self._doc.iter(etree.Element):
            get = el.get
            for name in _NAMING_ATTRIBUTES:
                value = get(name)
                if value is not None:
                    named.update(token.lstrip("#") for token in value.split())
            if el.tag == "a":
                href = get("href")
                if href is not None and len(href) > 1 and href.startswith("#"):
                    linked.add(href[1:])
            if not tabs:
                role = get("role")
                tabs = bool(role) and any(t in ("tab", "tablist") for t in role.lower().split())
        named.discard("")
        self._named = named
        self._linked = linked
        self._tabs = tabs

    def _holds_every_title(self, el: etree._Element) -> bool:
        """Every ``<h1>`` of the page lies inside ``el`` (and there is one)."""
        if self._titles is None:
            self._titles = list(self._doc.iter("h1"))
        return bool(self._titles) and all(
            any(a is el for a in title.iterancestors()) for title in self._titles
        )

    def _on_another_screen(self, el: etree._Element) -> bool:
        """Hidden on a desktop by display utility classes alone, shown on a phone (or a
        wider screen): a responsive copy, not text no reader sees."""
        klass = el.get("class")
        if not klass or el in self._styled or _hidden_by_markup(el):
            return False
        if self._tailwind is None:
            self._tailwind = uses_tailwind(self._doc)
        return shown_on_another_screen(klass, self._tailwind)

    def _is_panel(self, node: etree._Element, level: int) -> bool:
        """The evidence on ``node``, the hidden block itself (``level`` 0) or an ancestor."""
        assert self._named is not None
        ident = node.get("id") or ""
        if node.tag == "details" or (
            _role(node) == "tabpanel" and (self._tabs or ident in self._linked)
        ):
            return True  # a tab panel a tab control opens (the control naming it: just below)
        if node.get("aria-expanded") is not None or ident in self._named:
            return True
        labels = node.get("aria-labelledby")
        if labels and any(self._is_control_id(token) for token in labels.split()):
            return True
        previous = _previous_element(node)
        if previous is not None and (_is_control(previous) or _holds_a_control(previous)):
            return True
        if follows_question(node):
            return True
        return level == 0 and self._in_a_row_of_panels(node)

    def _is_control_id(self, ident: str) -> bool:
        if self._ids is None:
            self._ids = {}
            for el in self._doc.iter(etree.Element):  # (the XPath `//*[@id]` was slower)
                ident = el.get("id")
                if ident is not None:
                    self._ids.setdefault(ident, []).append(el)
        return any(_is_control(c) for c in self._ids.get(ident, ()))

    def _in_a_row_of_panels(self, el: etree._Element) -> bool:
        """A sibling with ``el``'s tag and class, and one of the row shown (tab panes)."""
        klass, parent = el.get("class"), el.getparent()
        if not klass or parent is None:
            return False
        key = (parent, str(el.tag), klass)
        found = self._rows.get(key)
        if found is None:
            row = [s for s in parent.iterchildren(el.tag) if s.get("class") == klass]
            found = self._rows[key] = len(row) >= 2 and any(
                s not in self._hidden and not _hidden_by_markup(s) for s in row
            )
        return found


def _holds_a_control(el: etree._Element) -> bool:
    """A heading-sized element (at most :data:`MAX_QUESTION_CHARS` letters and digits)
    holding a button or an ``aria-expanded`` control: an accordion's header."""
    return bool(_HOLDS_CONTROL(el)) and not text_size_exceeds(el, MAX_QUESTION_CHARS)


def _role(el: etree._Element) -> str:
    roles = (el.get("role") or "").lower().split()
    return roles[0] if roles else ""


def _is_control(el: etree._Element) -> bool:
    """A button, a summary, a tab, or an element that says what it opens or whether it is open."""
    return (
        el.tag in _CONTROL_TAGS
        or _role(el) in _CONTROL_ROLES
        or any(el.get(name) is not None for name in _CONTROL_ATTRIBUTES)
    )


def _previous_element(el: etree._Element) -> etree._Element | None:
    previous = el.getprevious()
    while previous is not None and not isinstance(previous.tag, str):
        previous = previous.getprevious()
    return previous


def _hidden_by_markup(el: etree._Element) -> bool:
    return el.get("hidden") is not None or bool(_HIDDEN_STYLE.search(el.get("style") or ""))
