"""Source links and version notes beside the items of a generated API reference. Pure functions.

API documentation generators print, next to the heading of every item (a type, a method, a
trait implementation), a link to the item's source code and the release it appeared in:
rustdoc (doc.rust-lang.org, docs.rs) writes
``<span class="rightside"><span class="since">1.0.0 (const: 1.48.0)</span> · <a class="src"
href="…/result.rs.html#593">Source</a></span>`` before each ``<h4 class="code-header">`` and
``<span class="sub-heading">…<a class="src">Source</a></span>`` under the page's ``<h1>``
(older rustdoc: ``<a class="srclink">[src]</a>`` in an ``out-of-band`` span); Sphinx's
viewcode extension writes ``<a href="_modules/…"><span class="viewcode-link">[source]</span>
</a>`` after each signature. Converted, a reference page of 60 methods gained 60 lines
"1.0.0 · [Source](…)" between its headings: links away from the documentation and release
numbers, no sentence of the page. WCXB's ground truth leaves them out (its ``without``
snippets name "1.0.0 (const: 1.48.0) · Source" and "Source §").

rustdoc also prints "Expand description" in the ``<summary class="hideme">`` of the open
``<details>`` holding an item's description; its stylesheet hides that summary while the
description is open (only a reader who collapsed it sees the label): the label is left out
too.

:func:`api_item_chrome` finds, under a page:

* every source link (an ``<a>`` whose class has the token ``src`` or ``srclink``, or that
  holds a ``viewcode-link`` span) whose text is at most :data:`MAX_NOTE_CHARS` letters and
  digits — with its note, the nearest ``rightside``, ``sub-heading`` or ``out-of-band``
  element around it (at most :data:`MAX_NOTE_DEPTH` levels up) when that holds no more text
  than :data:`MAX_NOTE_CHARS` (the version, the link and separators);
* every ``<summary>`` whose class has the token ``hideme`` in an open ``<details>``, of at
  most :data:`MAX_NOTE_CHARS` letters and digits.

A link written "source" in a sentence, or a citation "[Source](…)" under a quotation, has
no such class and stays.

WCXB dev (session 10): documentation +0.0292 summed — the Rust ``Result`` reference
0.597 → 0.626 (102 source links and their release notes), a docs.rs module page 0.9818 →
0.9822 (its "Expand description" label and sub-heading source link); no other page of
any type, nor of Zyte dev, changed. The scan reads the ``class`` of the attribute rows
the page scans share (:mod:`~webresearch.extract.scan_index`), no walk of its own: about
0.1 ms a page (median, loaded machine).
"""

from __future__ import annotations

from lxml import etree

from webresearch.extract.scan_index import PageAttributes, read_attributes

__all__ = ["MAX_NOTE_CHARS", "MAX_NOTE_DEPTH", "api_item_chrome"]

#: The most letters and digits a source link, its version note or a toggle label holds.
MAX_NOTE_CHARS = 60
#: How many levels above a source link its note (``rightside`` …) is looked for.
MAX_NOTE_DEPTH = 3

_LINK_CLASSES = frozenset({"src", "srclink"})
#: A row is read only when its ``class`` holds one of these (the test of each row below).
_CLASS_WORDS = ("src", "viewcode-link", "hideme")
_NOTE_CLASSES = frozenset({"rightside", "sub-heading", "out-of-band"})


def _tokens(el: etree._Element) -> set[str]:
    return set((el.get("class") or "").split())


def _chars(el: etree._Element, limit: int) -> int:
    """The letters and digits of ``el``'s text, counted up to ``limit + 1`` (stops there)."""
    size = 0
    for piece in el.itertext():
        size += sum(1 for ch in piece if ch.isalnum())
        if size > limit:
            break
    return size


def _source_link(el: etree._Element) -> etree._Element | None:
    """The source link ``el`` stands for (itself, or the ``<a>`` around a viewcode span)."""
    if el.tag == "a":
        return el if _tokens(el) & _LINK_CLASSES else None
    if "viewcode-link" not in _tokens(el):
        return None
    parent = el.getparent()
    return parent if parent is not None and parent.tag == "a" else None


def _with_note(link: etree._Element) -> etree._Element:
    """The link's version note around it (module docstring), else the link itself."""
    node = link.getparent()
    for _ in range(MAX_NOTE_DEPTH):
        if node is None or not isinstance(node.tag, str):
            break
        if _tokens(node) & _NOTE_CLASSES:
            return node if _chars(node, MAX_NOTE_CHARS) <= MAX_NOTE_CHARS else link
        node = node.getparent()
    return link


def api_item_chrome(
    root: etree._Element, attributes: PageAttributes | None = None
) -> list[etree._Element]:
    """The source links, version notes and hidden toggle labels under ``root`` (module
    docstring), none inside another.

    Args:
        root: a parsed page's ``<body>`` (or any element of it).
        attributes: ``root``'s attributes read once for several scans
            (:mod:`~webresearch.extract.scan_index`: only their ``class`` is read here, no
            walk of its own); read from the tree when ``None`` or read from another root.

    Returns:
        elements to remove, in document order; empty on a page of no API generator.
    """
    if attributes is None or not attributes.describes(root):
        attributes = read_attributes(root)
    classes = attributes.classes
    if classes is not None and not any(word in classes for word in _CLASS_WORDS):
        return []  # (most pages) no class names either: no row to read
    found: list[etree._Element] = []
    for row in attributes.rows:
        klass = row[1]
        if klass is None or not ("src" in klass or "viewcode-link" in klass or "hideme" in klass):
            continue
        el = row[0]
        if el.tag == "summary":
            if _toggle_label(el):
                found.append(el)
            continue
        link = _source_link(el)
        if link is not None and _chars(link, MAX_NOTE_CHARS) <= MAX_NOTE_CHARS:
            found.append(_with_note(link))
    chosen = set(found)
    return [el for el in dict.fromkeys(found) if not any(a in chosen for a in el.iterancestors())]


def _toggle_label(summary: etree._Element) -> bool:
    """A short ``hideme`` summary of an open ``<details>`` (module docstring)."""
    details = summary.getparent()
    return (
        "hideme" in _tokens(summary)
        and details is not None
        and details.tag == "details"
        and details.get("open") is not None
        and _chars(summary, MAX_NOTE_CHARS) <= MAX_NOTE_CHARS
    )
