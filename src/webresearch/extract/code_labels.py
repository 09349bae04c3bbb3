"""A code block's language label, written next to it, is left out. Pure functions.

Documentation generators print the language of a code example in a small header above the
block: MDN's ``<div class="example-header"><span class="language-name">css</span></div>``,
VitePress's ``<div class="language-js"><span class="lang">js</span><pre>…``. Converted, the
label became a paragraph of its own (``js``) right above a fence whose info string already
says ``js``. :func:`drop_code_labels` removes such a label: the element just before a
``<pre>`` (its previous sibling with text; empty siblings such as a copy button are passed
over) whose whole text is, case aside, the block's info string as
:func:`webresearch.extract.code_blocks.fenced_code` writes it. Nothing is lost: the fence
keeps the language. A label naming another language than the block's ("Terminal" over a
``bash`` block, a file name) is kept, and so is a sibling in the text's flow (session 10
review: a paragraph "js" above a ```js block among the article's paragraphs was dropped): a
label is part of the block's own box, a parent holding no other text than the label and
the block (:func:`_in_code_box`).

Measured on the 52 WCXB documentation development pages (session 9): labels on 2 pages
(MDN, Vue's VitePress docs), +0.0063 F1 summed; no other page type changed.

A code block's **line-number gutter** drawn as a column of its own, outside the ``<pre>``
(``<div class="w-8 …"><div>1</div><div>2</div>…</div>`` beside the code's box, React code
viewers), came out as a paragraph of numbers "1 2 3 … 19" per block.
:func:`drop_code_labels` removes it too: an element whose children are at least
:data:`MIN_GUTTER_LINES` ``<div>`` or ``<span>`` elements without children, holding the
numbers 1, 2, 3 … in order and nothing else, with no other text (:func:`line_gutters`).
Table rows and lists are never read (a table's header "1 2 3", a pager's links).
WCXB dev: one article page up (0.930 → 0.951: the gutters of its code viewers), no other page
changed.
"""

from __future__ import annotations

from lxml import etree

from webresearch.extract.code_blocks import fenced_code
from webresearch.extract.tree import remove_keep_tail

__all__ = ["MAX_LABEL_CHARS", "MIN_GUTTER_LINES", "code_labels", "drop_code_labels", "line_gutters"]

#: The longest text read as a label (characters, spaces at the ends left out).
MAX_LABEL_CHARS = 30
#: A line-number gutter numbers at least this many lines.
MIN_GUTTER_LINES = 3
_GUTTER_CELLS = frozenset({"div", "span"})


def _info_string(pre: etree._Element) -> str:
    """The info string :func:`fenced_code` gives ``pre`` (lower case; ``""`` when none)."""
    first_line = fenced_code(pre).split("\n", 1)[0]
    return first_line.lstrip("`").strip()


def _named_near(pre: etree._Element, name: str) -> bool:
    """True when ``name`` occurs in a ``class`` or ``data-lang`` value of ``pre``, its
    ``<code>``, its parent or grandparent, where the info string is read from: a cheap
    check before writing the block."""
    near = [pre, *pre.iterchildren("code")]
    parent = pre.getparent()
    if parent is not None:
        near.append(parent)
        if (grand := parent.getparent()) is not None:
            near.append(grand)
    return any(
        name in (node.get(attr) or "").lower()
        for node in near
        for attr in ("class", "data-lang", "data-language")
    )


def _short_text(el: etree._Element) -> str | None:
    """``el``'s text, stripped, or ``None`` when it is longer than :data:`MAX_LABEL_CHARS`
    (read no further than that: a long sibling is a paragraph, not a label)."""
    parts: list[str] = []
    size = 0
    for piece in el.itertext():
        size += len(piece.strip())
        if size > MAX_LABEL_CHARS:
            return None
        parts.append(piece)
    return "".join(parts).strip()


def _in_code_box(pre: etree._Element, label: etree._Element) -> bool:
    """The parent of ``pre`` and its sibling ``label`` holds no text but theirs: the code
    block's box (a header, a copy button), not a flow of paragraphs. Reads each other child
    only up to its first character that is not a space."""
    parent = pre.getparent()
    if parent is None or (parent.text or "").strip():
        return False
    for child in parent:
        if child is pre or child is label:
            if (child.tail or "").strip():
                return False
            continue
        if any(piece.strip() for piece in child.itertext()) or (child.tail or "").strip():
            return False
    return True


def code_labels(doc: etree._Element) -> list[etree._Element]:
    """The language labels of ``doc``'s code blocks (module docstring), in document order.

    Args:
        doc: a parsed page (or any subtree).

    Returns:
        elements to remove; each is the nearest previous sibling with text of a ``<pre>``
        in the block's box (:func:`_in_code_box`) and its text equals the block's info
        string.
    """
    labels: list[etree._Element] = []
    for pre in doc.iter("pre"):
        for sibling in pre.itersiblings(preceding=True):
            if not isinstance(sibling.tag, str):
                continue  # a comment
            text = _short_text(sibling)
            if text == "":
                continue  # a copy button, an empty header
            if text and sibling.tag != "pre" and _named_near(pre, text.lower()):
                info = _info_string(pre)
                if info and text.lower() == info and _in_code_box(pre, sibling):
                    labels.append(sibling)
            break
    return labels


def line_gutters(doc: etree._Element) -> list[etree._Element]:
    """The line-number gutters of ``doc`` drawn outside a ``<pre>`` (module docstring)."""
    gutters: list[etree._Element] = []
    for cell in doc.iter("div", "span"):
        if len(cell) or (cell.text or "").strip() != "1" or cell.getprevious() is not None:
            continue  # a gutter's first number is its parent's first child
        column = cell.getparent()
        if column is not None and _is_gutter(column):
            gutters.append(column)
    return gutters


def _is_gutter(column: etree._Element) -> bool:
    """Children ``<div>``/``<span>`` without children numbered 1, 2, 3 …, nothing else."""
    if len(column) < MIN_GUTTER_LINES or (column.text or "").strip():
        return False
    for number, cell in enumerate(column, start=1):
        if cell.tag not in _GUTTER_CELLS or len(cell) or (cell.tail or "").strip():
            return False
        if (cell.text or "").strip() != str(number):
            return False
    return True


def drop_code_labels(doc: etree._Element) -> None:
    """Remove the :func:`code_labels` and :func:`line_gutters` of ``doc`` in place (their
    tail text stays)."""
    for label in code_labels(doc) + line_gutters(doc):
        remove_keep_tail(label)
