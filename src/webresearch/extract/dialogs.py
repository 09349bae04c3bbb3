"""Closed dialogs: a box a button opens over the page, never the page's content. Pure functions
over lxml trees.

A hidden block of prose a control opens is kept as collapsed content — a closed tab or
accordion panel a click shows in place (:func:`~webresearch.extract.page_noise.hidden_blocks`). A
closed *dialog* is hidden too, but what a click shows is a box over the page: "Republish
this article" and its licence terms, a sign-in or newsletter window, a share or download
form. WAI-ARIA 1.2 names it: ``role="dialog"`` or ``"alertdialog"``, or
``aria-modal="true"``; HTML names it ``<dialog>``. :func:`is_dialog` tells such a hidden
block — the block itself, or a dialog inside it that holds at least
:data:`MIN_DIALOG_SHARE` of its letters and digits (a hidden wrapper around the dialog) — so
that it is left out with the other hidden blocks.

:func:`closed_dialogs` lists the ``<dialog>`` elements without the ``open`` attribute: a
browser does not render them (HTML Standard, "the dialog element") although no ``hidden``
or style says so — a glossary's pop-up definitions, a "Talk to an expert" form, cookie
settings. One holding an ``<h1>``, ``<main>`` or ``<article>`` stays (a page built as one
dialog is its content).

Source of the rule: the WCXB dev article pages (a magazine's hidden "Republish this
article" dialog, 600 words of guidelines, came out after the story: 0.71 → 0.96); no other
dev page of any type, nor of Zyte dev, changes (the closed ``<dialog>`` elements of the dev
pages — glossary pop-ups, "Talk to an expert" forms, cookie settings — were already left out
by the extractor).
"""

from __future__ import annotations

import re

from lxml import etree

from webresearch.extract.align import page_text_size
from webresearch.extract.scan_index import PageAttributes

__all__ = ["MIN_DIALOG_SHARE", "OPEN_CLASSES", "closed_dialogs", "is_dialog", "names_dialog"]

#: A dialog inside a hidden block makes the block a dialog when it holds this share of its text.
MIN_DIALOG_SHARE = 0.8

#: Classes a framework's script adds to a ``.modal`` it opens (module docstring).
OPEN_CLASSES = frozenset({"show", "in", "is-active", "is-open", "open", "active"})

_MODALS = etree.XPath(".//*[contains(concat(' ', normalize-space(@class), ' '), ' modal ')]")
#: A Bootstrap modal's box, and Bulma's backdrop beside its box.
_BOOTSTRAP_PART = "modal-dialog"
_BULMA_PARTS = ("modal-background", "modal-content", "modal-card")
_SHOWN = re.compile(r"display\s*:\s*(?!none)[a-z]", re.I)

_DIALOGS = etree.XPath(
    ".//*[@role='dialog' or @role='alertdialog' or @aria-modal='true'] | .//dialog"
)


def is_dialog(el: etree._Element, chars: int) -> bool:
    """True when the hidden block ``el`` (``chars``: its letters and digits) is a dialog or
    wraps one holding at least :data:`MIN_DIALOG_SHARE` of its text (module docstring)."""
    if names_dialog(el):
        return True
    if not chars:
        return False
    return any(
        page_text_size(inner) >= MIN_DIALOG_SHARE * chars
        for inner in _DIALOGS(el)
        if isinstance(inner.tag, str)
    )


def closed_dialogs(
    body: etree._Element, attributes: PageAttributes | None = None, page_chars: int = -1
) -> list[etree._Element]:
    """The outermost ``<dialog>`` elements under ``body`` without ``open`` and the closed
    framework modals (module docstring), in document order; nothing is removed yet.
    ``attributes``: the page's attribute index (scan_index.py), read instead of the tree
    when it describes ``body``. ``page_chars``: the page's letters and digits when the
    caller has counted them (negative: counted here, once a modal needs them)."""
    if attributes is not None and attributes.describes(body):
        closed = [
            row[0]
            for row in attributes.rows
            if (row[0].tag == "dialog" and row[0].get("open") is None)
            or (row[1] is not None and "modal" in row[1] and _closed_modal(row[0]))
        ]
    else:
        closed = [d for d in body.iter("dialog") if d.get("open") is None]
        closed += [m for m in _MODALS(body) if isinstance(m, etree._Element) and _closed_modal(m)]
        if len(closed) > 1:  # in document order again
            order = set(closed)
            closed = [el for el in body.iter() if el in order]
    found: list[etree._Element] = []
    going: set[etree._Element] = set()  # ``found`` as a set: a page with thousands of
    # modals checked each one's ancestors against a list (5,000 modals: 0.5 s, quadratic)
    whole = page_chars
    for dialog in closed:
        if any(a in going for a in dialog.iterancestors()):
            continue  # inside another closed box: that one goes
        if next(dialog.iter("h1", "main", "article"), None) is not None:
            continue
        if dialog.tag != "dialog":
            # a fragment fetched alone (a "quick view", terms loaded into a modal) or a page
            # that opens its modal on load: the box is the page's text (review r-15 M2)
            whole = page_text_size(body) if whole < 0 else whole
            if whole and page_text_size(dialog) >= MIN_DIALOG_SHARE * whole:
                continue
        found.append(dialog)
        going.add(dialog)
    return found


def _closed_modal(el: etree._Element) -> bool:
    """A framework's ``.modal`` box, not opened by a class or an inline display."""
    classes = set((el.get("class") or "").split())
    if "modal" not in classes or classes & OPEN_CLASSES or _SHOWN.search(el.get("style") or ""):
        return False
    return _framework_box(el)


def _framework_box(el: etree._Element) -> bool:
    """Whether ``el`` (of class ``modal``) holds Bootstrap's ``.modal-dialog`` or Bulma's
    backdrop beside its box: without them the class names a component's part."""
    parts: set[str] = set()
    for inner in el.iterdescendants():
        if isinstance(inner.tag, str):
            parts.update((inner.get("class") or "").split())
    return _BOOTSTRAP_PART in parts or (
        _BULMA_PARTS[0] in parts and bool(parts.intersection(_BULMA_PARTS[1:]))
    )


def names_dialog(el: etree._Element) -> bool:
    """Whether ``el`` is a dialog box, open or closed: ``<dialog>``, a dialog role (the
    first token: the preferred one), ``aria-modal="true"``, or a framework's ``.modal``
    box (Bootstrap's with a ``.modal-dialog``, Bulma's with its backdrop). The one rule
    for :func:`is_dialog` and :mod:`webresearch.extract.dialog_titles`."""
    role = (el.get("role") or "").split()
    if el.tag == "dialog" or (role and role[0] in ("dialog", "alertdialog")):
        return True
    if el.get("aria-modal") == "true":
        return True
    return "modal" in (el.get("class") or "").split() and _framework_box(el)
