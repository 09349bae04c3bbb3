"""Sign-in, sign-up and newsletter forms and boxes: never a page's content. Pure functions
over an lxml tree. Two rules share the e-mail field test (:func:`asks_for_email`):

**Forms** (:func:`signup_forms`, removed with the hidden blocks, on every page). A shop
renders its account forms ("Enter your email to sign in or sign up", "Forgot password",
"Become a member: by checking this box you agree to receive recurring
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

**Boxes** (:func:`signup_boxes`, removed after pruning).

A sign-up box ("Join our newsletter — Get the latest articles delivered to your inbox
[your email] [Subscribe]") sits inside or right after an article, and trafilatura keeps its
heading and its line of prose (the form's field and button are never text). The evidence is
the form itself, not a class name: :func:`signup_boxes` finds

* a text field for an e-mail address (``<input type="email">``, or a text field whose
  name, id or placeholder says "email"), in a form of at most :data:`MAX_FIELDS` fields a
  reader fills in and no ``<textarea>`` (a contact or comment form asks for a message: not
  this kind);
* the box around it: the form and its ancestors while they hold at most
  :data:`MAX_BOX_WORDS` words, less than :data:`MAX_BOX_SHARE` of the page's text and at
  most :data:`MAX_BOX_IMAGES` images (:func:`small_box`), never ``<body>``, ``<main>``,
  ``<article>`` or an element holding the page's ``<h1>`` (a short article with a form in
  it stays);
* words of a subscription in the box — its text, the button's label or the field's
  placeholder (:data:`_SUBSCRIPTION`: subscribe, subscribing, newsletter, sign up, inbox,
  mailing list, "stay up to date", "get the latest"…; a lead magnet's "Download a free
  workbook" box says it only in its "Thank you for subscribing." line, WCXB dev 5678). A search box or a login form asks for no
  subscription and stays.

Source of the rule: the WCXB dev article pages (text our output held and the ground truth
did not, tallied by kind: sign-up boxes inside or after the article on about 20 pages) and
Zyte (a sports site's "Pick Six Newsletter", "Subscribe to the Morning Review newsletter").
With the author cards and the promotion lists (same commit), WCXB dev: article 0.9449 →
0.9454, listing 0.7270 → 0.7282, product 0.6667 → 0.6673, the other types unchanged; Zyte
dev 0.9695 → 0.9714. Down: a product page's "Notify me when back in stock" form (its ground
truth keeps it, 0.47 → 0.44), a job board's and a Medium page's sign-up lines the truth
holds (−0.006, −0.008). The boxes are removed after the content is pruned: a box's kept
text still bounds the span of the article's images (removed before, the article's feature
pictures went with it).
"""

from __future__ import annotations

import re
from itertools import islice

from lxml import etree

from webresearch.extract.align import page_text_size

__all__ = [
    "MAX_BOX_IMAGES",
    "MAX_BOX_SHARE",
    "MAX_BOX_WORDS",
    "MAX_FIELDS",
    "MAX_FORM_LETTERS",
    "MAX_FORM_SHARE",
    "asks_for_email",
    "signup_boxes",
    "signup_forms",
    "small_box",
]

#: A sign-in or sign-up form holds fewer letters and digits than this …
MAX_FORM_LETTERS = 4000
#: … and less than this share of the page's.
MAX_FORM_SHARE = 0.25
#: A sign-up box's form has at most this many fields a reader fills in (e-mail, first and last
#: name, a company) …
MAX_FIELDS = 4
#: … and its box holds at most this many words (heading, a line of prose, the form's labels) …
MAX_BOX_WORDS = 80
#: … and less than this share of the page's letters and digits …
MAX_BOX_SHARE = 0.2
#: … and at most this many images (a logo, an illustration).
MAX_BOX_IMAGES = 2

_SUBSCRIPTION = re.compile(
    r"\bsubscri(?:be|bed|bing|ption)|\bnewsletter|\bsign(?:\s|-)?up\b|\binbox\b|\bmailing list"
    r"|\bstay (?:up[- ]to[- ]date|updated|informed|in (?:touch|the loop))"
    r"|\bget (?:the latest|our latest|updates|new posts)|\bjoin (?:our|the) (?:list|community)",
    re.IGNORECASE,
)
_EMAIL_NAME = re.compile(r"e-?mail", re.IGNORECASE)
_NOT_FILLED = frozenset({"hidden", "submit", "button", "image", "reset", "checkbox", "radio"})
_NEVER = frozenset({"html", "body", "main", "article"})


def signup_boxes(root: etree._Element, page_chars: int) -> list[etree._Element]:
    """The newsletter sign-up boxes under ``root`` (module docstring), outermost only, in
    document order; nothing is removed (pass them to
    :func:`~webresearch.extract.page_noise.remove_elements`). ``page_chars``: letters and
    digits of the page's text (:func:`~webresearch.extract.align.page_text_size`)."""
    found: list[etree._Element] = []
    for field in root.iter("input"):
        if not asks_for_email(field):
            continue
        form = _form_of(field)
        if form is None or any(form is f or f in form.iterancestors() for f in found):
            continue
        box = small_box(form, page_chars, MAX_BOX_WORDS)
        if box is None or box.find(".//h1") is not None:
            continue
        if not _SUBSCRIPTION.search(_box_words(box)):
            continue
        found = [f for f in found if box not in f.iterancestors()]
        found.append(box)
    return found


def signup_forms(root: etree._Element, page_chars: int) -> list[etree._Element]:
    """The sign-in, sign-up and newsletter forms under ``root`` (module docstring, "Forms"),
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
    return any(
        (field.get("type") or "").strip().lower() == "password" or asks_for_email(field)
        for field in form.iter("input")
    )


def asks_for_email(field: etree._Element) -> bool:
    """True when the ``<input>`` ``field`` asks for an e-mail address: type ``email``, or a
    text field whose name, id, ``autocomplete`` or placeholder says e-mail."""
    kind = (field.get("type") or "text").strip().lower()
    if kind == "email":
        return True
    if kind != "text":
        return False
    return any(
        _EMAIL_NAME.search(field.get(a) or "")
        for a in ("name", "id", "autocomplete", "placeholder")
    )


def _form_of(field: etree._Element) -> etree._Element | None:
    """The ``<form>`` around ``field`` (or its parent when it has none), when it is small and
    asks for no message."""
    form = next((a for a in field.iterancestors("form")), None)
    if form is None:
        form = field.getparent()
    if form is None or form.find(".//textarea") is not None:
        return None
    filled = sum(1 for f in form.iter("input", "select") if _is_filled(f))
    return form if filled <= MAX_FIELDS else None


def _is_filled(field: etree._Element) -> bool:
    return field.tag == "select" or (field.get("type") or "text").lower() not in _NOT_FILLED


def small_box(
    start: etree._Element,
    page_chars: int,
    max_words: int,
    verdicts: dict[etree._Element, bool] | None = None,
) -> etree._Element | None:
    """The outermost of ``start`` and its ancestors that is still a small box: at most
    ``max_words`` words, less than :data:`MAX_BOX_SHARE` of ``page_chars`` (the page's
    letters and digits), at most :data:`MAX_BOX_IMAGES` images (a gallery or a product's
    feature pictures are never part of it), never ``<body>``, ``<main>`` or ``<article>``;
    ``None`` when ``start`` itself is not one. ``verdicts`` (one per page and word limit)
    remembers which elements were measured, so many starts under one container cost one
    measure each."""
    memo: dict[etree._Element, bool] = {} if verdicts is None else verdicts
    box: etree._Element | None = None
    el: etree._Element | None = start
    while el is not None and isinstance(el.tag, str) and el.tag not in _NEVER:
        small = memo.get(el)
        if small is None:
            small = memo[el] = _is_small(el, page_chars, max_words)
        if not small:
            break
        box = el
        el = el.getparent()
    return box


def _is_small(el: etree._Element, page_chars: int, max_words: int) -> bool:
    # words first: counting stops at the limit, so a page-wide ancestor is cheap
    if not _at_most(el, max_words) or page_text_size(el) >= MAX_BOX_SHARE * page_chars:
        return False
    return next(islice(el.iter("img"), MAX_BOX_IMAGES, None), None) is None


def _at_most(el: etree._Element, max_words: int) -> bool:
    """Whether ``el`` holds at most ``max_words`` words (reads no further than that)."""
    words = 0
    for text in el.itertext():
        words += len(text.split())
        if words > max_words:
            return False
    return True


def _box_words(box: etree._Element) -> str:
    """The box's text with its buttons' labels and its fields' placeholders."""
    labels = [f.get("placeholder") or "" for f in box.iter("input")]
    labels += [
        f.get("value") or ""
        for f in box.iter("input")
        if (f.get("type") or "").lower() in ("submit", "button")
    ]
    return " ".join([*box.itertext(), *labels])
