"""trafilatura's XML body → plain HTML, for the pages where its text cannot be placed on the
original page (:mod:`webresearch.extract.main_content`). Pure functions."""

from __future__ import annotations

import re
from copy import deepcopy

from lxml import etree
from lxml import html as lxml_html

__all__ = ["trafilatura_tree_to_html"]

_RENAME = {
    "item": "li",
    "quote": "blockquote",
    "row": "tr",
    "lb": "br",
    "graphic": "img",
    "ref": "a",
    "doc": "div",
    "body": "div",
    "comments": "div",
    "main": "div",
}
_HI = {"#b": "b", "#i": "i", "#u": "u", "#t": "code", "#sub": "sub", "#sup": "sup"}


def trafilatura_tree_to_html(tree: etree._Element) -> etree._Element:
    """trafilatura's XML body (``head``, ``list``/``item``, ``hi``, ``ref``…) → plain HTML."""
    root = deepcopy(tree)
    for el in root.iter():
        tag = el.tag.lower() if isinstance(el.tag, str) else ""
        if tag == "head":
            rend = el.get("rend") or "h2"
            el.tag = rend if re.fullmatch(r"h[1-6]", rend) else "h2"
        elif tag == "list":
            el.tag = "ol" if (el.get("rend") or "") == "ol" else "ul"
        elif tag == "cell":
            el.tag = "th" if el.get("role") == "head" else "td"
        elif tag == "hi":
            el.tag = _HI.get(el.get("rend") or "", "span")
        elif tag == "code":
            el.tag = "pre" if "\n" in (el.text or "") else "code"
        elif tag == "ref":
            el.tag = "a"
            if el.get("target"):
                el.set("href", el.get("target") or "")
        elif tag in _RENAME:
            el.tag = _RENAME[tag]
    wrapper = lxml_html.Element("div")
    wrapper.append(root)
    return wrapper
