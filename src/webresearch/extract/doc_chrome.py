"""Chrome of documentation generators, left out before extraction. Pure functions.

A documentation generator names itself (``<meta name="generator">``) and marks its own
widgets with fixed class names, so a rule for one generator is narrow and cannot touch
another site's text:

* **rustdoc** (``content="rustdoc"``; doc.rust-lang.org, docs.rs): every item carries a
  right-aligned ``class="rightside"`` span or link with the Rust version it is stable since
  and a "Source" link ("1.0.0 (const: 1.48.0) · Source"), and the page's description is opened
  by a ``<summary class="hideme">`` toggle labelled "Expand description". On the WCXB
  development pages neither is in the ground truth; on the ``Result`` page they are 600 of
  5,500 words.
"""

from __future__ import annotations

from lxml import etree

from webresearch.extract.tree import remove_keep_tail

__all__ = ["drop_generator_chrome", "generator"]

_GENERATOR = etree.XPath("//head/meta[translate(@name, 'GENERATOR', 'generator')='generator']")
_RUSTDOC_CHROME = etree.XPath(
    "//body//*[contains(concat(' ', normalize-space(@class), ' '), ' rightside ')]"
    " | //body//summary[contains(concat(' ', normalize-space(@class), ' '), ' hideme ')]"
)


def generator(doc: etree._Element) -> str:
    """The page's declared generator (``<meta name="generator">``), lower-cased; empty
    when there is none."""
    for meta in _GENERATOR(doc):
        content = (meta.get("content") or "").strip().lower()
        if content:
            return content
    return ""


def drop_generator_chrome(doc: etree._Element) -> int:
    """Remove the known widgets of the page's documentation generator (module docstring),
    in place.

    Returns:
        how many elements were removed (0 on a page of any other generator).
    """
    if not generator(doc).startswith("rustdoc"):
        return 0
    doomed = list(_RUSTDOC_CHROME(doc))
    for el in doomed:
        remove_keep_tail(el)
    return len(doomed)
