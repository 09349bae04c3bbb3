"""Formulas shown twice: MathML for assistive technology next to a rendering. Pure functions.

Wikipedia (MediaWiki's Math extension) writes each formula as
``<span class="mwe-math-element"><span class="mwe-math-mathml-inline" style="display:
none"><math alttext="…">…</math></span><img class="mwe-math-fallback-image-inline"
aria-hidden="true" alt="TeX"></span>``; KaTeX as ``<span class="katex"><span
class="katex-mathml"><math>…</math></span><span class="katex-html" aria-hidden="true">glyphs
</span></span>``. The ``<math>`` is the formula with its TeX source (the annotation or
``alttext``), the rendering a picture or glyphs of the same formula for the eye. A reader
of the markdown needs it once, as TeX:

* the wrappers that hold nothing but the ``<math>`` lose their ``display:none`` /
  ``hidden`` marking, so the hidden-block pass does not drop the formula
  (:func:`~webresearch.extract.page_noise.hidden_blocks`);
* the rendering next to them — an element marked ``aria-hidden="true"``, or an image whose
  alt text is the formula's TeX — is removed, when the formula's container holds nothing
  else (no text of its own): then it is a second copy of the formula, not content.
"""

from __future__ import annotations

import re

from lxml import etree

from webresearch.extract.tree import remove_keep_tail

__all__ = ["formula_tex", "show_formulas"]

_HIDING_STYLE = re.compile(
    r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:;|$)", re.I
)


def _local(el: etree._Element) -> str:
    return el.tag.rpartition("}")[2].lower() if isinstance(el.tag, str) else ""


def formula_tex(math: etree._Element) -> str:
    """The TeX source of a ``<math>`` element: its ``application/x-tex`` annotation, else its
    ``alttext``, whitespace collapsed; ``""`` when it has neither."""
    for el in math.iter():
        if _local(el) == "annotation" and "tex" in (el.get("encoding") or "").lower():
            tex = " ".join((el.text or "").split())
            if tex:
                return tex
    return " ".join((math.get("alttext") or "").split())


def _blank(text: str | None) -> bool:
    return text is None or text.isspace() or not text


def show_formulas(root: etree._Element) -> int:
    """Unhide the ``<math>`` elements under ``root`` and drop their second renderings, in
    place (module docstring); how many renderings were removed."""
    removed = 0
    for math in [el for el in root.iter() if _local(el) == "math"]:
        if any(_local(a) == "math" for a in math.iterancestors()):
            continue
        top = math
        parent = top.getparent()
        # wrappers that hold only this formula: unhide them
        while parent is not None and len(parent) == 1 and _blank(parent.text) and _blank(top.tail):
            if parent.tag in ("body", "html"):
                break
            top = parent
            parent = top.getparent()
        for el in (math, *(a for a in math.iterancestors() if a is not parent and _inside(a, top))):
            style = el.get("style")
            if style and _HIDING_STYLE.search(style):
                el.set("style", _HIDING_STYLE.sub(";", style))
            if el.get("hidden") is not None:
                del el.attrib["hidden"]
        if parent is None or parent.tag in ("body", "html"):
            continue
        removed += _drop_renderings(parent, top, formula_tex(math))
    return removed


def _inside(el: etree._Element, top: etree._Element) -> bool:
    """``el`` is ``top`` or below it."""
    return el is top or any(a is top for a in el.iterancestors())


def _drop_renderings(container: etree._Element, formula: etree._Element, tex: str) -> int:
    """Remove the renderings of the formula next to ``formula`` inside ``container`` when
    the container holds nothing else; how many were removed."""
    others = [c for c in container if c is not formula]
    if not others or not _blank(container.text) or not all(_blank(c.tail) for c in container):
        return 0
    if not all(isinstance(c.tag, str) and _is_rendering(c, tex) for c in others):
        return 0
    for c in others:
        remove_keep_tail(c)
    return len(others)


def _is_rendering(el: etree._Element, tex: str) -> bool:
    """An element drawn for the eye only (``aria-hidden``), or an image of the formula."""
    if (el.get("aria-hidden") or "").strip().lower() == "true":
        return True
    images = [el] if _local(el) == "img" else list(el.iter("img"))
    if len(images) != 1 or "".join(el.itertext()).strip():
        return False
    alt = " ".join((images[0].get("alt") or "").split())
    return bool(alt) and alt == tex
