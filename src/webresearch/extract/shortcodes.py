"""WordPress shortcodes left unrendered in a page's text, removed. Pure functions over lxml trees.

A WordPress page built with a page builder (WPBakery's ``[vc_row …]``, Divi's ``[et_pb_…]``,
a theme's ``[nectar_btn …]``) stores its layout as shortcodes; when the builder plugin is
switched off, the theme prints them as they are: hundreds of ``[vc_column
column_padding=”no-extra-padding” …]`` tokens around the page's sentences. A reader sees
noise and so does trafilatura, which keeps the blocks whole: one WCXB dev service page
came out as 3,874 words for 274 of content.

:func:`strip_shortcodes` deletes from every text node (not in ``<pre>``, ``<code>``,
``<textarea>``) each token that is surely a shortcode:

* a closing tag ``[/name]``;
* an opening tag with attributes ``[name key=”value” …]`` (any of the quotes WordPress
  prints: ``"``, ``'``, ``“ ” ″``, or none);
* a bare ``[name]`` whose name has an underscore (``[vc_column_text]``): a footnote
  marker ``[1]`` or a wiki's ``[edit]`` is never touched.

A tag cut by the markup (an attribute's value running over a ``</p><p>``, as a heading's
``text=”First line.</p><p>Second line.”`` does) loses its tag and attribute names, and the
value — text for the reader — stays. The walk runs only when the page's markup holds a
closing tag, a bare tag with an underscore or a tag with a quoted attribute (one search of
the markup; a page whose only tags are ``[name key=value]`` without quotes keeps them).

WCXB dev: service 0.8160 → 0.8211 (the page builder's page 0.13 → 0.58), one article
(a blog's ``[CTA_MODULE]`` markers), one collection and one forum page +0.001 to +0.002;
Zyte dev: one review 0.912 → 0.939 (``[button link=…]Send us YOUR kit review[/button]``);
no page down.
"""

from __future__ import annotations

import re

from lxml import etree

__all__ = ["strip_shortcodes"]

_NAME = r"[a-z][a-z0-9]*(?:[_-][a-z0-9]+)*"
_QUOTES = "\"'“”″"
_VALUE = rf"(?:[{_QUOTES}][^{_QUOTES}\]]*[{_QUOTES}]|[^\s\]{_QUOTES}]+)"
_ATTRIBUTE = rf"[a-z_][\w-]*\s*=\s*{_VALUE}"
#: A whole tag: closing, with attributes, or bare with an underscore in its name.
_TAG = re.compile(
    rf"\[/{_NAME}\]|\[{_NAME}(?:\s+{_ATTRIBUTE})+\s*/?\]"
    r"|\[[a-z][a-z0-9]*(?:-[a-z0-9]+)*_[a-z0-9]+(?:[_-][a-z0-9]+)*\s*/?\]",
    re.I,
)
#: The start of a tag whose last attribute's value (group 1) runs past the end of the text
#: node.
_OPEN_END = re.compile(
    rf"\[{_NAME}(?:\s+{_ATTRIBUTE})*\s+[a-z_][\w-]*\s*=\s*[{_QUOTES}]([^{_QUOTES}\[\]]*)$", re.I
)
#: The end of such a tag at the start of the next text node: the rest of the value, then
#: its closing quote, more attributes and ``]``.
_CLOSE_START = re.compile(rf"^([^{_QUOTES}\[\]]*)[{_QUOTES}](?:\s+{_ATTRIBUTE})*\s*/?\]", re.I)
#: A closing tag, a bare tag with an underscore, a tag with a quoted attribute: a page whose
#: markup holds none of them has no shortcode (CSS's ``[data-x]`` or ``[type="a"]`` is none;
#: the quote may be written as an entity, ``&#8221;``).
_LEAK = re.compile(
    r"\[/[a-z][\w-]*\]|\[[a-z][a-z0-9]*_[\w-]*[\s\]]|\[[a-z][\w-]*\s+[a-z_][\w-]*\s*=\s*[\"'“”″&]",
    re.I,
)
_SKIPPED = frozenset({"pre", "code", "textarea", "script", "style"})


def strip_shortcodes(body: etree._Element, markup: str | None = None) -> int:
    """Delete unrendered shortcode tags from the text under ``body``, in place.

    Args:
        body: the page's ``<body>`` (or any element).
        markup: the page's markup, when at hand: a page whose markup holds nothing like a
            tag's start is not walked.

    Returns:
        the number of text nodes changed.
    """
    if markup is not None and not _LEAK.search(markup):
        return 0  # one search of the markup in C: most pages stop here
    changed = 0
    open_tag = False  # the previous text node ended inside a tag's attribute value
    for el in body.iter():
        if not isinstance(el.tag, str):
            continue
        for attr in ("text", "tail"):
            text = getattr(el, attr)
            if not text or ("[" not in text and not open_tag):
                continue
            holder = el if attr == "text" else el.getparent()
            if holder is None or _in_code(holder):
                continue
            cleaned, open_tag = _clean(text, open_tag)
            if cleaned != text:
                setattr(el, attr, cleaned)
                changed += 1
    return changed


def _in_code(el: etree._Element) -> bool:
    """Whether ``el`` is or lies in code, a text area, a script or a style."""
    return any(node.tag in _SKIPPED for node in (el, *el.iterancestors()))


def _clean(text: str, open_tag: bool) -> tuple[str, bool]:
    """``text`` without its shortcode tags, and whether it ends inside an open tag."""
    if open_tag:
        end = _CLOSE_START.match(text)
        if end is not None:
            text = end.group(1) + " " + text[end.end() :]
    text = _TAG.sub(" ", text)
    start = _OPEN_END.search(text)
    if start is None:
        return text, False
    return text[: start.start()] + start.group(1), True  # the value is text: it stays
