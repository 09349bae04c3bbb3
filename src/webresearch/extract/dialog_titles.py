"""The title of a dialog whose content is kept: kept with it. Pure functions over aligned
segments.

A page may be one dialog box: a fragment fetched alone (the terms a "Read the terms" link
loads into a Bootstrap modal, a "quick view"), or a page that opens its modal on load. Its
text is then the page's (:func:`~webresearch.extract.dialogs.closed_dialogs` keeps such a
box), but trafilatura drops the box's title: Bootstrap writes it as ``<h5
class="modal-title">`` in a ``.modal-header`` beside the close button, and it was lost
(review, session 15: "Mooring terms" over the terms). The title names what the box holds, as
an ``<h1>`` names a page.

:func:`keep_dialog_title` marks kept the text of the title of the dialog holding the first
text trafilatura kept, when none of the title is kept yet. A dialog is what
:mod:`webresearch.extract.dialogs` reads as one — ``<dialog>``, ``role="dialog"`` or
``"alertdialog"``, ``aria-modal="true"``, a framework's ``.modal`` box:
:func:`~webresearch.extract.dialogs.names_dialog` —, and its title is the
element its ``aria-labelledby`` names (WAI-ARIA 1.2, "dialog": a dialog is labelled by its
visible title), else its first element of class ``modal-title`` (Bootstrap) or
``modal-card-title`` (Bulma). A dialog with no such title, or one whose content trafilatura
did not start in, is left as it is.
"""

from __future__ import annotations

from lxml import etree

from webresearch.extract.align import Segment
from webresearch.extract.dialogs import names_dialog

__all__ = ["keep_dialog_title"]

#: Class tokens of a framework dialog's title (Bootstrap, Bulma).
_TITLE_CLASSES = frozenset({"modal-title", "modal-card-title"})


def keep_dialog_title(segments: list[Segment]) -> int:
    """Mark kept the title of the dialog holding the first kept text (module docstring).

    Args:
        segments: the page's text nodes in document order, the kept ones marked.

    Returns:
        the letters and digits added (0 when there is no such title).
    """
    first = next((seg for seg in segments if seg.kept), None)
    if first is None or first.holder is None:
        return 0
    dialog = next((a for a in first.holder.iterancestors() if names_dialog(a)), None)
    title = _title(dialog) if dialog is not None else None
    if title is None:
        return 0
    inside = set(title.iter())
    own = [seg for seg in segments if seg.holder in inside]
    if not own or any(seg.kept for seg in own):
        return 0
    for seg in own:
        seg.kept = True
    return sum(len(seg.norm) for seg in own)


def _title(dialog: etree._Element) -> etree._Element | None:
    """The element ``aria-labelledby`` names inside ``dialog``, else its first element of a
    framework's title class."""
    for ident in (dialog.get("aria-labelledby") or "").split():
        for el in dialog.iter(etree.Element):
            if el.get("id") == ident:
                return el
    for el in dialog.iter(etree.Element):
        if _TITLE_CLASSES.intersection((el.get("class") or "").split()):
            return el
    return None
