"""Sign-in, sign-up and newsletter forms: never a page's content. Pure functions over lxml.

A shop renders its account forms ("Enter your email to sign in or sign up", "Forgot
password", "Become a member: by checking this box you agree to receive recurring
marketing text messages…") and its "notify me when back in stock" and newsletter boxes in
the markup of every page, in drawers and dialogs a click opens; the extractor and its
second opinion keep their prose (the legal lines are long sentences).
:func:`signup_forms` finds the ``<form>`` elements that

* ask for an e-mail address or a password: an ``<input>`` of type ``email`` or
  ``password``, or a text field whose name, id, ``autocomplete`` or placeholder says
  e-mail;
* hold fewer than :data:`MAX_FORM_LETTERS` letters and digits and less than
  :data:`MAX_FORM_SHARE` of the page's text (an ASP.NET page wraps its whole body in one
  ``<form>``), and no ``<h1>``.

The form's own text goes (its labels, notices and legal lines); the heading before it
stays. On every page, not only a shop's: a blog's comment form ("Your email address will
not be published") and a newsletter box are no article either. Source of the rule: the
WCXB dev outputs, where such forms hold sign-in drawers, SMS consent lines and
back-in-stock boxes. WCXB dev: product 0.6706 → 0.6713, collection 0.7039 → 0.7044,
article +0.0001, listing +0.0001 (a job board 0.44 → 0.45), the other types unchanged;
down: a watch shop whose ground truth keeps its "Notify me when back in stock" box
(−0.009), a job board's "Get weekly alerts" box (−0.017), an iRobot page −0.002.
"""

from __future__ import annotations

import re

from lxml import etree

from webresearch.extract.align import page_text_size

__all__ = ["MAX_FORM_LETTERS", "MAX_FORM_SHARE", "signup_forms"]

#: A sign-up form holds fewer letters and digits than this …
MAX_FORM_LETTERS = 4000
#: … and less than this share of the page's.
MAX_FORM_SHARE = 0.25

_SECRET_TYPES = frozenset({"email", "password"})
_TEXT_TYPES = frozenset({"", "text"})
_EMAIL = re.compile(r"e-?mail", re.IGNORECASE)


def signup_forms(root: etree._Element, page_chars: int) -> list[etree._Element]:
    """The sign-in, sign-up and newsletter forms under ``root`` (module docstring),
    outermost only, in document order; nothing is removed (pass them to
    :func:`~webresearch.extract.page_noise.remove_elements`).

    Args:
        root: the page's ``<body>``.
        page_chars: letters and digits of the page's text
            (:func:`~webresearch.extract.align.page_text_size` of the body).
    """
    found: list[etree._Element] = []
    for form in root.iter("form"):
        if not _asks_address(form) or form.find(".//h1") is not None:
            continue
        if any(a in found for a in form.iterancestors("form")):
            continue
        size = page_text_size(form)
        if size >= MAX_FORM_LETTERS or size >= MAX_FORM_SHARE * page_chars:
            continue
        found.append(form)
    return found


def _asks_address(form: etree._Element) -> bool:
    """True when ``form`` has a field for an e-mail address or a password."""
    for field in form.iter("input"):
        kind = (field.get("type") or "").strip().lower()
        if kind in _SECRET_TYPES:
            return True
        if kind in _TEXT_TYPES and any(
            _EMAIL.search(field.get(a) or "") for a in ("name", "id", "autocomplete", "placeholder")
        ):
            return True
    return False
